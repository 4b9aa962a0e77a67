package hostapd

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/radio"
)

// The fixed replies.
var (
	ReplyOK      = []byte("OK\n")
	ReplyFail    = []byte("FAIL\n")
	ReplyPong    = []byte("PONG\n")
	ReplyUnknown = []byte("UNKNOWN COMMAND\n")
)

// BSS is what STATUS and STA say of the BSS beside the core's state.
type BSS struct {
	Iface string // the interface name the socket is named after (bss[0])
	Phy   string // the radio (phy=)
	// State is hostapd's interface state: ENABLED, DISABLED, ACS (the
	// start-up scan) and the like.
	State string
}

// AppendStatus appends STATUS's reply in hostapd 2.10's order
// (hostapd_ctrl_iface_status), the radio's protection counts included.
// The fields airq has no counterpart for are left out (edmg_*, the VHT
// and HT capability dumps, max_txpower): the README lists them.
//
// As hostapd's, it ends with every BSS of the radio (bss[i], bssid[i],
// ssid[i], num_sta[i]) on every BSS's socket: devs in the radio's order;
// without devs, the socket's BSS alone from st.
func AppendStatus(b []byte, st *ctl.Status, bss BSS, devs ...ctl.Dev) []byte {
	b = appendKV(b, "state", bss.State)
	b = appendKV(b, "phy", bss.Phy)
	b = appendInt(b, "freq", st.Freq)
	b = appendInt(b, "num_sta_non_erp", st.NumNonERP)
	b = appendInt(b, "num_sta_no_short_slot_time", st.NumNoShortSlot)
	b = appendInt(b, "num_sta_no_short_preamble", st.NumNoShortPreamble)
	b = appendInt(b, "olbc", b2i(st.OLBC))
	b = appendInt(b, "num_sta_ht_no_gf", st.NumHTNoGF)
	b = appendInt(b, "num_sta_no_ht", st.NumNoHT)
	b = appendInt(b, "num_sta_ht_20_mhz", st.NumHT20)
	b = appendInt(b, "num_sta_ht40_intolerant", st.NumHT40Intolerant)
	b = appendInt(b, "olbc_ht", b2i(st.OLBCHT))
	b = append(b, "ht_op_mode=0x"...)
	b = strconv.AppendUint(b, uint64(st.HTOpMode), 16)
	b = append(b, '\n')
	// airq does no radar detection: no channel availability check runs.
	b = append(b, "cac_time_seconds=0\ncac_time_left_seconds=N/A\n"...)
	b = appendInt(b, "channel", st.Channel)
	b = appendInt(b, "secondary_channel", st.SecondaryChannel)
	b = appendInt(b, "ieee80211n", b2i(st.HT))
	b = appendInt(b, "ieee80211ac", b2i(st.VHT))
	b = appendInt(b, "ieee80211ax", 0)
	b = appendInt(b, "beacon_int", st.BeaconInterval)
	b = appendInt(b, "dtim_period", st.DTIMPeriod)
	if len(st.Rates) > 0 {
		b = append(b, "supported_rates="...)
		for i, r := range st.Rates {
			if i > 0 {
				b = append(b, ' ')
			}
			b = appendHex2(b, r&0x7f) // hostapd's rate table carries no basic flag here
		}
		b = append(b, '\n')
	}
	if len(devs) == 0 {
		n := st.Counters[counter.Associated] + st.Counters[counter.Authenticated] + st.Counters[counter.Pending]
		return appendBSSStatus(b, 0, bss.Iface, st.BSSID, st.SSID, int(n))
	}
	for i := range devs {
		d := &devs[i]
		name := d.Name
		if name == "" && i == 0 {
			name = bss.Iface // a core that names no BSS has one: the socket's
		}
		b = appendBSSStatus(b, i, name, d.BSSID, d.SSID, d.Stations+d.Pending+d.Authenticated)
	}
	return b
}

// appendBSSStatus appends STATUS's lines of BSS i; num is hostapd's
// num_sta, its stations in every state.
func appendBSSStatus(b []byte, i int, name string, bssid ctl.MAC, ssid string, num int) []byte {
	n := strconv.Itoa(i)
	b = appendKV(b, "bss["+n+"]", name)
	b = appendKV(b, "bssid["+n+"]", bssid.String())
	b = appendKV(b, "ssid["+n+"]", SSIDText(ssid))
	return appendInt(b, "num_sta["+n+"]", num)
}

// AppendSTA appends a station's reply in hostapd 2.10's order
// (hostapd_ctrl_iface_sta_mib): the bare address first, which hostapd_cli
// walks the list with. freq is the BSS's, for the NonERP flag (2.4 GHz).
func AppendSTA(b []byte, s *ctl.Station, freq int) []byte {
	b = append(b, s.Addr.String()...)
	b = append(b, "\nflags="...)
	b = appendFlags(b, s, freq)
	b = append(b, '\n')
	aid := int(s.AID) // the table's slot; hostapd's aid is 0 until the association is accepted
	if !s.Associated && s.State != ctl.StatePending {
		aid = 0
	}
	b = appendInt(b, "aid", aid)
	b = append(b, "capability=0x"...)
	b = strconv.AppendUint(b, uint64(s.Capability), 16)
	b = append(b, '\n')
	b = appendInt(b, "listen_interval", int(s.ListenInt))
	b = append(b, "supported_rates="...)
	for i, r := range s.SupportedRates {
		if i > 0 {
			b = append(b, ' ')
		}
		b = appendHex2(b, r)
	}
	b = append(b, '\n')
	b = appendKV(b, "timeout_next", timeoutNext(s))
	b = appendRSN(b, s)
	b = appendUint(b, "rx_packets", s.RxPackets)
	b = appendUint(b, "tx_packets", s.TxPackets)
	b = appendUint(b, "rx_bytes", s.RxBytes)
	b = appendUint(b, "tx_bytes", s.TxBytes)
	b = appendInt(b, "inactive_msec", int(s.InactiveMs))
	b = appendInt(b, "signal", int(s.Signal))
	b = appendRate(b, "rx_rate_info", s.RxBitrate, s.RxRate)
	b = appendRate(b, "tx_rate_info", s.TxBitrate, s.TxRate)
	if s.Associated {
		b = appendInt(b, "connected_time", int(s.ConnectedMs/1000))
	}
	if s.SAEAuthGroup != 0 { // an accepted SAE exchange, not a cached PMKSA
		b = appendInt(b, "sae_group", int(s.SAEAuthGroup))
	}
	if s.KeyID != "" {
		b = appendKV(b, "keyid", s.KeyID)
	}
	return b
}

// appendFlags is ap_sta_flags_txt for the flags airq's stations have.
func appendFlags(b []byte, s *ctl.Station, freq int) []byte {
	b = append(b, "[AUTH]"...) // every entry of the table is authenticated
	for _, f := range []struct {
		on   bool
		text string
	}{
		{s.Associated, "[ASSOC]"}, {s.Authorized, "[AUTHORIZED]"}, {s.Polled, "[PENDING_POLL"}, // hostapd's, unclosed
		{s.ShortPreamble, "[SHORT_PREAMBLE]"}, {s.WMM, "[WMM]"}, {s.MFP, "[MFP]"},
		{freq < 3000 && nonERP(s.SupportedRates), "[NonERP]"},
		{s.PHYMode == "HT" || s.PHYMode == "VHT", "[HT]"}, {s.PHYMode == "VHT", "[VHT]"},
	} {
		if f.on {
			b = append(b, f.text...)
		}
	}
	return b
}

// nonERP: the station has rates and none is an OFDM one (802.11b only).
func nonERP(r ctl.Rates) bool {
	for _, x := range r {
		switch x & 0x7f {
		case 2, 4, 11, 22:
		default:
			return false
		}
	}
	return len(r) > 0
}

// timeoutNext is what the station's inactivity timer does next, in
// hostapd's words: poll an associated station; one owing a poll's ACK is
// deauthenticated without it; an unassociated entry is removed.
func timeoutNext(s *ctl.Station) string {
	switch {
	case !s.Associated:
		return "REMOVE"
	case s.Polled:
		return "DEAUTH"
	}
	return "NULLFUNC POLL"
}

// appendRSN is wpa_get_mib_sta: nothing on an open network.
func appendRSN(b []byte, s *ctl.Station) []byte {
	cipher, ok1 := cipherSuites[s.Cipher]
	akm, ok2 := akmSuites[s.AKM]
	if !ok1 || !ok2 {
		return b
	}
	b = appendKV(b, "dot11RSNAStatsSTAAddress", s.Addr.String())
	b = append(b, "dot11RSNAStatsVersion=1\n"...)
	b = appendKV(b, "dot11RSNAStatsSelectedPairwiseCipher", cipher)
	// CCMP has no TKIP MIC failures: the counters stay at zero.
	b = append(b, "dot11RSNAStatsTKIPLocalMICFailures=0\ndot11RSNAStatsTKIPRemoteMICFailures=0\n"...)
	b = append(b, "wpa=2\n"...)
	b = appendKV(b, "AKMSuiteSelector", akm)
	b = appendInt(b, "hostapdWPAPTKState", ptkStates[s.PTKState])
	return appendInt(b, "hostapdWPAPTKGroupState", groupStates[s.GroupState])
}

// The suites in hostapd's RSN_SUITE form, by hostapd's names.
var (
	cipherSuites = map[string]string{"CCMP": "00-0f-ac-4", "GCMP": "00-0f-ac-8", "CCMP-256": "00-0f-ac-10",
		"GCMP-256": "00-0f-ac-9"}
	akmSuites = map[string]string{"WPA-PSK": "00-0f-ac-2", "WPA-PSK-SHA256": "00-0f-ac-6", "SAE": "00-0f-ac-8",
		"FT-PSK": "00-0f-ac-4"}
	// hostapd's enum wpa_ptk_state and wpa_ptk_group_state values.
	ptkStates = map[string]int{"INITIALIZE": 0, "DISCONNECT": 1, "DISCONNECTED": 2, "AUTHENTICATION": 3,
		"AUTHENTICATION2": 4, "INITPMK": 5, "INITPSK": 6, "PTKSTART": 7, "PTKCALCNEGOTIATING": 8,
		"PTKCALCNEGOTIATING2": 9, "PTKINITNEGOTIATING": 10, "PTKINITDONE": 11}
	groupStates = map[string]int{"IDLE": 0, "REKEYNEGOTIATING": 1, "REKEYESTABLISHED": 2, "KEYERROR": 3}
)

// appendRate is hostapd's rx_rate_info/tx_rate_info: the bit rate in
// 100 kbit/s, then the MCS of an HT rate, or the VHT MCS and streams, and
// the short guard interval.
func appendRate(b []byte, key string, kbps int, r ctl.Bitrate) []byte {
	b = append(b, key...)
	b = append(b, '=')
	b = strconv.AppendInt(b, int64(kbps/100), 10)
	switch r.Mode {
	case radio.ModeHT:
		b = append(b, " mcs "...)
		b = strconv.AppendUint(b, uint64(r.MCS), 10)
	case radio.ModeVHT:
		b = append(b, " vhtmcs "...)
		b = strconv.AppendUint(b, uint64(r.MCS), 10)
		b = append(b, " vhtnss "...)
		b = strconv.AppendUint(b, uint64(r.NSS), 10)
	}
	if r.ShortGI && (r.Mode == radio.ModeHT || r.Mode == radio.ModeVHT) {
		b = append(b, " shortGI"...)
	}
	return append(b, '\n')
}

// Config is what GET_CONFIG reports of a BSS.
type Config struct {
	BSSID ctl.MAC
	SSID  string
	// WPA is hostapd's wpa= (2: RSN); 0 is an open network, and the
	// fields below are then empty.
	WPA         int
	KeyMgmt     []string // hostapd's names: WPA-PSK, WPA-PSK-SHA256, SAE
	GroupCipher string   // CCMP
	Pairwise    []string // rsn_pairwise: CCMP
}

// keyMgmtOrder is the order hostapd lists key management in.
var keyMgmtOrder = []string{"WPA-PSK", "WPA-EAP", "FT-PSK", "FT-EAP", "FT-SAE", "WPA-PSK-SHA256", "WPA-EAP-SHA256", "SAE"}

// AppendConfig appends GET_CONFIG's reply (hostapd_ctrl_iface_get_config,
// as Debian's hostapd, built with WPS, prints it).
func AppendConfig(b []byte, c *Config) []byte {
	b = appendKV(b, "bssid", c.BSSID.String())
	b = appendKV(b, "ssid", SSIDText(c.SSID))
	b = append(b, "wps_state=disabled\n"...) // airq has no WPS
	if c.WPA == 0 {
		return b
	}
	b = appendInt(b, "wpa", c.WPA)
	if len(c.KeyMgmt) > 0 {
		b = append(b, "key_mgmt="...)
		for _, k := range keyMgmtOrder {
			for _, m := range c.KeyMgmt {
				if m == k {
					b = append(b, k+" "...) // each followed by a blank, as hostapd's
				}
			}
		}
		b = append(b, '\n')
	}
	b = appendKV(b, "group_cipher", c.GroupCipher)
	if len(c.Pairwise) > 0 {
		b = append(b, "rsn_pairwise_cipher="...)
		for i, p := range c.Pairwise {
			if i > 0 {
				b = append(b, ' ')
			}
			b = append(b, p...)
		}
		b = append(b, '\n')
	}
	return b
}

// The events, as hostapd's wpa_msg names them.
const (
	EventConnected    = "AP-STA-CONNECTED"
	EventDisconnected = "AP-STA-DISCONNECTED"
	EventHandshake    = "EAPOL-4WAY-HS-COMPLETED"
	EventEnabled      = "AP-ENABLED"
	EventDisabled     = "AP-DISABLED"
	EventTerminating  = "CTRL-EVENT-TERMINATING"
	// EventSAEUnknownPasswordID: a station's SAE Commit named a password
	// identifier the AP does not have (status 123). hostapd sends no event
	// for a wrong password (a Confirm that does not verify): it logs it.
	EventSAEUnknownPasswordID = "CTRL-EVENT-SAE-UNKNOWN-PASSWORD-IDENTIFIER"
)

// LevelInfo is hostapd's MSG_INFO, the level of every event here; a
// monitor's LEVEL above it silences them.
const LevelInfo = 3

// LevelDefault is the level a new monitor gets (MSG_INFO).
const LevelDefault = LevelInfo

// AppendEvent appends an event's datagram: "<3>" and the event, with the
// station's address when there is one (addr nil: none).
func AppendEvent(b []byte, name string, addr *ctl.MAC) []byte {
	b = append(b, '<')
	b = strconv.AppendInt(b, LevelInfo, 10)
	b = append(b, '>')
	b = append(b, name...)
	if addr != nil {
		b = append(b, ' ')
		b = append(b, addr.String()...)
	}
	return b
}

// Fit cuts a reply to MaxReply bytes at the end of its last whole line,
// as hostapd's formatting stops at the field that does not fit.
func Fit(b []byte) []byte {
	if len(b) <= MaxReply {
		return b
	}
	if i := bytes.LastIndexByte(b[:MaxReply], '\n'); i >= 0 {
		return b[:i+1]
	}
	return b[:MaxReply]
}

// SSIDText is wpa_ssid_txt: printable ASCII as is, anything else
// escaped as printf_encode does.
func SSIDText(ssid string) string {
	var b []byte
	for i := 0; i < len(ssid); i++ {
		c := ssid[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\033':
			b = append(b, `\e`...)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c >= 32 && c <= 126:
			b = append(b, c)
		default:
			b = fmt.Appendf(b, `\x%02x`, c)
		}
	}
	return string(b)
}

func appendKV(b []byte, k, v string) []byte {
	b = append(b, k...)
	b = append(b, '=')
	b = append(b, v...)
	return append(b, '\n')
}

func appendInt(b []byte, k string, v int) []byte {
	b = append(b, k...)
	b = append(b, '=')
	b = strconv.AppendInt(b, int64(v), 10)
	return append(b, '\n')
}

func appendUint(b []byte, k string, v uint64) []byte {
	b = append(b, k...)
	b = append(b, '=')
	b = strconv.AppendUint(b, v, 10)
	return append(b, '\n')
}

func appendHex2(b []byte, x byte) []byte {
	const digits = "0123456789abcdef"
	return append(b, digits[x>>4], digits[x&0xf])
}

func b2i(v bool) int {
	if v {
		return 1
	}
	return 0
}
