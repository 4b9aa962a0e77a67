package config

import (
	"log/slog"
	"maps"
	"slices"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/tap"
)

// Key describes one key the file accepts.
type Key struct {
	// Flags are the command-line flags that override the key; none if it
	// has no flag.
	Flags []string
	// Reload says SIGHUP applies a change live; other changes need a
	// restart.
	Reload bool
	// Want says what the key accepts, for errors.
	Want string
	set  func(s *Settings, v string) error
}

// keys are the keys airqd accepts, hostapd's first. Each setter checks the
// value and stores it; an error other than a saysWhy makes the message
// name Want.
var keys = map[string]Key{
	"interface": {Flags: flag("ifname"), Want: "an interface name of 1 to 15 characters (the monitor interface airqd creates)",
		set: func(s *Settings, v string) error { s.Ifname = v; return ifnameOK(v) }},
	"driver": {Want: "nl80211", set: func(s *Settings, v string) error { return oneOf(v, "nl80211") }},
	"bridge": {Flags: flag("bridge"), Want: "a bridge name of at most 15 characters",
		set: func(s *Settings, v string) error { s.Bridge = v; return lenOK(v, 0, 15) }},
	"tap_offload": {Flags: flag("tap-offload"), Want: "gro (the default: merged writes to the host), tso (also cut the host's 64 KiB sends) or off",
		set: func(s *Settings, v string) (err error) {
			s.TapOffload, err = tap.ParseOffload(v)
			return err
		}},
	"nice": {Flags: flag("nice"), Want: "-20 to 19 (the nice value of airqd's threads; default -10)",
		set: func(s *Settings, v string) error { return setInt(&s.Nice, v, -20, 19) }},
	"ssid": {Flags: flag("ssid"), Want: "1 to 32 bytes",
		set: func(s *Settings, v string) error { s.Core.SSID = v; return lenOK(v, 1, 32) }},
	"ignore_broadcast_ssid": {Want: "0 (broadcast the SSID) or 1 (empty SSID in beacons)",
		set: func(s *Settings, v string) error { return setBool(&s.Core.HideSSID, v) }},
	"country_code": {Flags: flag("country"), Want: "a two-letter ISO 3166 code such as US or DE",
		set: func(s *Settings, v string) error { s.Country = v; return countryOK(v) }},
	"hw_mode": {Want: "a (5 GHz), b or g (2.4 GHz)",
		set: func(s *Settings, v string) error { s.HWMode = v; return oneOf(v, "a", "b", "g") }},
	"channel": {Flags: flag("channel", "freq"), Want: "a channel number: 1-14, or 36-177 on 5 GHz; 0 or acs_survey for automatic selection (acs_* keys)",
		set: func(s *Settings, v string) error {
			if v == "acs_survey" {
				v = "0"
			}
			return setInt(&s.Channel, v, 0, 196)
		}},
	"beacon_int": {Flags: flag("beacon-int"), Want: "15 to 65535 TU",
		set: func(s *Settings, v string) error { return setInt(&s.Core.BeaconInterval, v, 15, 65535) }},
	"dtim_period": {Flags: flag("dtim"), Want: "1 to 255 beacons",
		set: func(s *Settings, v string) error { return setInt(&s.Core.DTIMPeriod, v, 1, 255) }},
	"wmm_enabled": {Flags: flag("wmm"), Want: "0 or 1",
		set: func(s *Settings, v string) error { return setBool(&s.Core.WMM, v) }},
	"max_num_sta": {Flags: flag("max-sta"), Want: "1 to 2007",
		set: func(s *Settings, v string) error { return setInt(&s.Core.MaxStations, v, 1, 2007) }},
	"ap_isolate": {Want: "0 or 1",
		set: func(s *Settings, v string) error { return setBool(&s.Core.APIsolate, v) }},
	"multicast_to_unicast": {Want: "0 or 1",
		set: func(s *Settings, v string) error { return setBool(&s.Core.MulticastToUnicast, v) }},
	"ap_max_inactivity": {Want: "1 to 86400 seconds",
		set: func(s *Settings, v string) error {
			var n int
			err := setInt(&n, v, 1, 86400)
			s.Core.InactivityTimeout = time.Duration(n) * time.Second
			return err
		}},
	"auth_algs": {Want: "1 (open system; 3 is accepted and means the same: shared key is never offered)",
		set: func(s *Settings, v string) error { return oneOf(v, "1", "3") }},
	"macaddr_acl": {Reload: true, Want: "0 (accept unless in deny_mac_file) or 1 (deny unless in accept_mac_file)",
		set: setACLMode},
	"accept_mac_file": {Reload: true, Want: "a file of MAC addresses, one a line (see configs/airqd.conf); lines add to the list",
		set: func(s *Settings, v string) error { return readMACFile(&s.Core.ACL.Accept, v) }},
	"deny_mac_file": {Reload: true, Want: "a file of MAC addresses, one a line (see configs/airqd.conf); lines add to the list",
		set: func(s *Settings, v string) error { return readMACFile(&s.Core.ACL.Deny, v) }},
	"supported_rates": {Want: "rates in 100 kbit/s separated by spaces, from 10 20 55 110 60 90 120 180 240 360 480 540",
		set: func(s *Settings, v string) error { return setRates(&s.Core.Rates, v) }},
	"basic_rates": {Want: "rates in 100 kbit/s separated by spaces, a subset of supported_rates",
		set: func(s *Settings, v string) error { return setRates(&s.Core.BasicRates, v) }},
	"beacon_rate": {Want: "a legacy rate in 100 kbit/s (10 20 55 110 60 90 120 180 240 360 480 540), one of basic_rates",
		set: func(s *Settings, v string) error {
			var r []int
			if err := setRates(&r, v); err != nil || len(r) != 1 {
				return errWant
			}
			s.Core.BeaconRate = r[0]
			return nil
		}},
	"acs_exclude_dfs": {Flags: flag("acs-exclude-dfs"), Want: "0 or 1",
		set: func(s *Settings, v string) error { return setBool(&s.ACS.ExcludeDFS, v) }},
	"acs_num_scans": {Flags: flag("acs-num-scans"), Want: "1 to 100",
		set: func(s *Settings, v string) error { return setInt(&s.ACS.NumScans, v, 1, 100) }},
	"acs_chan_bias": {Flags: flag("acs-chan-bias"), Want: "channel:factor pairs such as 1:0.8 6:0.8 11:0.8",
		set: func(s *Settings, v string) error {
			s.ACS.Bias = v
			_, _, err := ParseChanBias(v)
			return err
		}},
	"ieee80211n": {Flags: flag("ht"), Want: "0 or 1", set: func(s *Settings, v string) error { return setBool(&s.PHY.HT, v) }},
	"ieee80211ac": {Flags: flag("vht"), Want: "0 or 1 (5 GHz)",
		set: func(s *Settings, v string) error { return setBool(&s.PHY.VHT, v) }},
	"ht_capab": {Want: htCapabWant,
		set: func(s *Settings, v string) error { return parseHTCapab(&s.PHY, v) }},
	"vht_capab": {Want: vhtCapabWant,
		set: func(s *Settings, v string) error { return parseVHTCapab(&s.PHY, v) }},
	"vht_oper_chwidth": {Flags: flag("width"), Want: "0 (20 or 40 MHz), 1 (80 MHz) or 2 (160 MHz)",
		set: func(s *Settings, v string) error {
			var w int
			if err := setInt(&w, v, 0, 2); err != nil {
				return err
			}
			s.PHY.Width = [3]int{0, 80, 160}[w]
			return nil
		}},
	"vht_oper_centr_freq_seg0_idx": {Want: "the centre channel of the 80/160 MHz channel (42, 58, 106, 122, 138, 155 or 50, 114, 163)",
		set: func(s *Settings, v string) error { return setInt(&s.PHY.Center, v, 0, 196) }},
	"ieee80211d": {Flags: flag("ieee80211d"), Want: "0 or 1 (1: advertise country_code in beacons, the Country element)",
		set: func(s *Settings, v string) error { return setBool(&s.IEEE80211D, v) }},

	// WPA2-Personal (wpa.go).
	"wpa":            {Want: "2 (WPA2, RSN) or 0 (open)", set: setWPA},
	"wpa_passphrase": {Want: "8 to 63 printable ASCII characters", set: setPassphrase},
	"wpa_psk":        {Want: "the PSK as 64 hex digits", set: setPSK},
	"wpa_psk_file": {Want: "a file of [keyid=ID] [vlanid=0] [wps=0|1] MAC PSK-or-passphrase lines (hostapd's; 00:00:00:00:00:00 for any station)",
		set: setPSKFile},
	"wpa_key_mgmt": {Want: "WPA-PSK and/or WPA-PSK-SHA256, separated by spaces", set: setKeyMgmt},
	"rsn_pairwise": {Want: "CCMP", set: func(s *Settings, v string) error { return setCipher(s, v, true) }},
	"wpa_pairwise": {Want: "CCMP (WPA1's TKIP is not supported; with wpa=2, rsn_pairwise is the one that counts)",
		set: func(s *Settings, v string) error { return setCipher(s, v, false) }},
	"wpa_group_rekey": {Want: "0 (never) to 4294967295 seconds; default 86400",
		set: func(s *Settings, v string) error { return setSeconds(&rsnOf(s).GroupRekey, v) }},
	"wpa_ptk_rekey": {Want: "0 (never, the default) to 4294967295 seconds",
		set: func(s *Settings, v string) error { return setSeconds(&rsnOf(s).PTKRekey, v) }},
	"wpa_strict_rekey": {Want: "0 or 1 (1: a new GTK when a station that had it leaves)",
		set: func(s *Settings, v string) error { return setBool(&rsnOf(s).StrictRekey, v) }},
	"wpa_disable_eapol_key_retries": {Want: "0 or 1 (1: messages 3 and group messages 1 are never retransmitted)",
		set: func(s *Settings, v string) error { return setBool(&rsnOf(s).DisableEAPOLKeyRetries, v) }},
	"wpa_deny_ptk0_rekey": {Want: "0 (rekey, the default), 1 or 2 (disconnect a station without Extended Key ID instead: airq's PTK0 rekey loses the frames in flight)",
		set: setDenyPTK0},
	"extended_key_id": {Want: "0 (off, the default), 1 (offer Extended Key ID) or 2 (offer it and start with key ID 1)",
		set: func(s *Settings, v string) error { return setInt(&rsnOf(s).ExtendedKeyID, v, 0, 2) }},

	// airq's own.
	"amsdu": {Flags: flag("amsdu"), Want: "0 (off) or 3839 to 11424 octets",
		set: func(s *Settings, v string) error { return setInt(&s.PHY.AMSDU, v, 0, 11424) }},
	"scan": {Flags: flag("scan"), Want: "0 or 1", set: func(s *Settings, v string) error { return setBool(&s.Scan.On, v) }},
	"scan_mode": {Flags: flag("scan-mode"), Want: "continuous or periodic",
		set: func(s *Settings, v string) error { s.Scan.Mode = v; return oneOf(v, "continuous", "periodic") }},
	"scan_period": {Flags: flag("scan-period"), Want: "a duration such as 60s",
		set: func(s *Settings, v string) error {
			d, err := time.ParseDuration(v)
			s.Scan.Period = d
			return err
		}},
	"scan_miss_beacon": {Flags: flag("scan-miss-beacon"), Want: "0 or 1",
		set: func(s *Settings, v string) error { return setBool(&s.Scan.MissBeacon, v) }},
	"aql_txq_limit": {Flags: flag("aql-txq-limit"), Reload: true, Want: "AC=LOW:HIGH in µs, e.g. BE=500:1000,VO=5000:12000 (lines merge)",
		set: func(s *Settings, v string) error { return s.Core.AQL.Set(v) }},
	"aql_threshold": {Flags: flag("aql-threshold"), Reload: true, Want: "1 to 2147483648 µs",
		set: func(s *Settings, v string) error { return setUint(&s.AQLThreshold, v, 1, 1<<31) }},
	"airtime_weight": {Flags: flag("airtime-weight"), Reload: true, Want: "1 to 65535 (the default weight of a new station)",
		set: func(s *Settings, v string) error { return setUint(&s.AirtimeWeight, v, 1, 65535) }},
	"inflight_per_ac": {Flags: flag("inflight-per-ac"), Want: "1 to 1024 frames",
		set: func(s *Settings, v string) error { return setInt(&s.Core.InFlightPerAC, v, 1, 1024) }},
	"log_level": {Flags: flag("log-level"), Reload: true, Want: "debug, info, warn or error",
		set: func(s *Settings, v string) error {
			s.LogLevel = v
			var l slog.Level
			if l.UnmarshalText([]byte(v)) != nil {
				return errWant
			}
			return nil
		}},
	"control": {Flags: flag("control"), Want: "a unix socket path of at most 107 bytes, or empty for none",
		set: func(s *Settings, v string) error { s.Control = v; return lenOK(v, 0, 107) }},
	"metrics": {Flags: flag("metrics"), Want: "a listen address such as 127.0.0.1:9101, or empty for none",
		set: func(s *Settings, v string) error { s.Metrics = v; return nil }},
	"pcap": {Flags: flag("pcap"), Want: "a file path, or empty for none",
		set: func(s *Settings, v string) error { s.Pcap = v; return nil }},
	"radio": {Flags: flag("radio"), Want: "nl80211 or sim",
		set: func(s *Settings, v string) error { s.Radio = v; return oneOf(v, "nl80211", "sim") }},
	"phy": {Flags: flag("phy"), Want: "a wiphy name such as phy0",
		set: func(s *Settings, v string) error { s.Phy = v; return lenOK(v, 1, 31) }},
	"tap": {Flags: flag("tap"), Want: "an interface name of 1 to 15 characters",
		set: func(s *Settings, v string) error { s.Tap = v; return ifnameOK(v) }},
	"bssid": {Flags: flag("bssid"), Want: "a unicast MAC address like 02:00:00:00:02:00",
		set: func(s *Settings, v string) error {
			s.BSSID = v
			mac, err := ieee80211.ParseMAC(v)
			if err != nil || mac.IsMulticast() || mac.IsZero() {
				return errWant
			}
			return nil
		}},
}

// notYet are hostapd keys airq knows and does not implement yet, with what
// to say about them. They are errors: running open where WPA2 was asked
// for, say, must not happen silently. A key that gets implemented moves
// from here to keys.
var notYet = map[string]string{

	"sae_password": "WPA3-SAE", "ieee80211w": "management frame protection (802.11w)",
	"ieee80211r": "fast transition (802.11r)", "mobility_domain": "fast transition (802.11r)",
	"ft_over_ds": "fast transition (802.11r)", "ieee8021x": "802.1X", "eap_server": "802.1X",
	"auth_server_addr": "RADIUS", "own_ip_addr": "RADIUS",
	"wep_key0": "WEP", "wep_key1": "WEP", "wep_key2": "WEP", "wep_key3": "WEP", "wep_default_key": "WEP",
	"ieee80211ax": "HE (802.11ax)", "ieee80211h": "DFS (802.11h)",
	"ssid2": "ssid2 (use ssid)", "utf8_ssid": "utf8_ssid",
	"ctrl_interface": "hostapd's control interface (airqctl uses control=PATH)", "ctrl_interface_group": "hostapd's control interface",
	"logger_syslog": "logger_* (use log_level)", "logger_syslog_level": "logger_* (use log_level)",
	"logger_stdout": "logger_* (use log_level)", "logger_stdout_level": "logger_* (use log_level)",
	"rts_threshold": "rts_threshold", "fragm_threshold": "fragm_threshold", "preamble": "preamble",
	"uapsd_advertisement_enabled": "U-APSD", "disassoc_low_ack": "disassoc_low_ack",
	"bss_transition": "BSS transition (802.11v)", "rrm_neighbor_report": "neighbour reports (802.11k)",
	"airtime_mode":       "airtime_mode (airq always schedules by airtime; see airtime_weight)",
	"airtime_sta_weight": "airtime_sta_weight (use airqctl station set MAC airtime_weight N)",
}

// flag lists a key's flags.
func flag(names ...string) []string { return names }

// Lookup returns the key called name.
func Lookup(name string) (Key, bool) {
	k, ok := keys[name]
	return k, ok
}

// Names lists the accepted keys in order.
func Names() []string { return slices.Sorted(maps.Keys(keys)) }

// Reloadable lists the keys SIGHUP applies, in order.
func Reloadable() []string {
	var out []string
	for _, name := range Names() {
		if keys[name].Reload {
			out = append(out, name)
		}
	}
	return out
}

// OverriddenBy returns the flag of flagSet (the flags given) that overrides
// the key, "" if none does.
func (k Key) OverriddenBy(flagSet map[string]bool) string {
	for _, f := range k.Flags {
		if flagSet[f] {
			return f
		}
	}
	return ""
}
