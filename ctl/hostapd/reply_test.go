package hostapd

import (
	"strings"
	"testing"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/radio"
)

// A WPA2 station's STA reply, field by field in hostapd 2.10's order.
func TestAppendSTA(t *testing.T) {
	s := &ctl.Station{Addr: ctl.MAC(sta), AID: 1, Associated: true, Authorized: true, WMM: true, ShortPreamble: true,
		MFP: true, Capability: 0x431, ListenInt: 10, SupportedRates: ctl.Rates{0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12},
		AKM: "WPA-PSK-SHA256", Cipher: "CCMP", PTKState: "PTKINITDONE", GroupState: "IDLE", KeyID: "guests",
		RxPackets: 5, TxPackets: 6, RxBytes: 700, TxBytes: 800, InactiveMs: 120, Signal: -42, ConnectedMs: 61999,
		PHYMode: "HT", RxBitrate: 65000, RxRate: ctl.Bitrate{Mode: radio.ModeHT, MCS: 7},
		TxBitrate: 866666, TxRate: ctl.Bitrate{Mode: radio.ModeVHT, MCS: 9, NSS: 2, ShortGI: true}}
	want := `02:00:00:00:01:00
flags=[AUTH][ASSOC][AUTHORIZED][SHORT_PREAMBLE][WMM][MFP][HT]
aid=1
capability=0x431
listen_interval=10
supported_rates=82 84 8b 96 0c 12
timeout_next=NULLFUNC POLL
dot11RSNAStatsSTAAddress=02:00:00:00:01:00
dot11RSNAStatsVersion=1
dot11RSNAStatsSelectedPairwiseCipher=00-0f-ac-4
dot11RSNAStatsTKIPLocalMICFailures=0
dot11RSNAStatsTKIPRemoteMICFailures=0
wpa=2
AKMSuiteSelector=00-0f-ac-6
hostapdWPAPTKState=11
hostapdWPAPTKGroupState=0
rx_packets=5
tx_packets=6
rx_bytes=700
tx_bytes=800
inactive_msec=120
signal=-42
rx_rate_info=650 mcs 7
tx_rate_info=8666 vhtmcs 9 vhtnss 2 shortGI
connected_time=61
keyid=guests
`
	if got := string(AppendSTA(nil, s, 2437)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// An 802.11b station on an open network, authenticated only.
	b := &ctl.Station{Addr: ctl.MAC(sta), SupportedRates: ctl.Rates{0x82, 0x84}, Polled: true}
	got := string(AppendSTA(nil, b, 2412))
	for _, line := range []string{"flags=[AUTH][PENDING_POLL[NonERP]\n", "timeout_next=REMOVE\n", "rx_rate_info=0\n"} {
		if !strings.Contains(got, line) {
			t.Errorf("missing %q in\n%s", line, got)
		}
	}
	if strings.Contains(got, "dot11RSNA") || strings.Contains(got, "connected_time") || strings.Contains(got, "sae_group") {
		t.Errorf("open, unassociated station:\n%s", got)
	}
}

// A WPA3 station's reply has sae_group= after connected_time, as hostapd
// prints it for an accepted SAE exchange, and none when the station came
// back on a cached PMKSA (Open System).
func TestAppendSTASAEGroup(t *testing.T) {
	s := &ctl.Station{Addr: ctl.MAC(sta), AID: 1, Associated: true, Authorized: true, MFP: true,
		AKM: "SAE", Cipher: "CCMP", PTKState: "PTKINITDONE", GroupState: "IDLE", ConnectedMs: 2000,
		SAEGroup: 20, SAEMethod: "hash-to-element", SAEAuthGroup: 20}
	got := string(AppendSTA(nil, s, 2412))
	if !strings.Contains(got, "AKMSuiteSelector=00-0f-ac-8\n") || !strings.HasSuffix(got, "connected_time=2\nsae_group=20\n") {
		t.Errorf("got\n%s\nwant AKM 00-0f-ac-8 and ending connected_time=2, sae_group=20", got)
	}
	s.SAEAuthGroup = 0
	if got := string(AppendSTA(nil, s, 2412)); strings.Contains(got, "sae_group") {
		t.Errorf("on a cached PMKSA:\n%s", got)
	}
}

func TestAppendStatus(t *testing.T) {
	st := &ctl.Status{SSID: "lab\"1", BSSID: ctl.MAC{2, 0, 0, 0, 0, 9}, Channel: 6, Freq: 2437, BeaconInterval: 100,
		DTIMPeriod: 2, HT: true, SecondaryChannel: 1, Rates: ctl.Rates{0x82, 0x84, 0x0c}, NumNonERP: 1,
		NumNoShortSlot: 1, NumNoShortPreamble: 2, OLBC: true, NumHTNoGF: 3, NumNoHT: 1, NumHT20: 4, NumHT40Intolerant: 5,
		HTOpMode: 0x17} // mixed protection, non-greenfield and OBSS non-HT stations
	st.Counters[counter.Associated], st.Counters[counter.Authenticated] = 2, 1
	want := `state=ENABLED
phy=phy0
freq=2437
num_sta_non_erp=1
num_sta_no_short_slot_time=1
num_sta_no_short_preamble=2
olbc=1
num_sta_ht_no_gf=3
num_sta_no_ht=1
num_sta_ht_20_mhz=4
num_sta_ht40_intolerant=5
olbc_ht=0
ht_op_mode=0x17
cac_time_seconds=0
cac_time_left_seconds=N/A
channel=6
secondary_channel=1
ieee80211n=1
ieee80211ac=0
ieee80211ax=0
beacon_int=100
dtim_period=2
supported_rates=02 04 0c
bss[0]=wlan0
bssid[0]=02:00:00:00:00:09
ssid[0]=lab\"1
num_sta[0]=3
`
	if got := string(AppendStatus(nil, st, BSS{Iface: "wlan0", Phy: "phy0", State: "ENABLED"})); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestAppendConfig(t *testing.T) {
	c := &Config{BSSID: ctl.MAC{2, 0, 0, 0, 0, 9}, SSID: "lab", WPA: 2, KeyMgmt: []string{"WPA-PSK-SHA256", "WPA-PSK"},
		GroupCipher: "CCMP", Pairwise: []string{"CCMP"}}
	want := "bssid=02:00:00:00:00:09\nssid=lab\nwps_state=disabled\nwpa=2\nkey_mgmt=WPA-PSK WPA-PSK-SHA256 \n" +
		"group_cipher=CCMP\nrsn_pairwise_cipher=CCMP\n"
	if got := string(AppendConfig(nil, c)); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	open := &Config{BSSID: c.BSSID, SSID: "x\x01"}
	if got := string(AppendConfig(nil, open)); got != "bssid=02:00:00:00:00:09\nssid=x\\x01\nwps_state=disabled\n" {
		t.Errorf("open: %q", got)
	}
}

func TestFit(t *testing.T) {
	long := []byte(strings.Repeat("key=value\n", 500))
	got := Fit(long)
	if len(got) > MaxReply || got[len(got)-1] != '\n' || len(got)%10 != 0 {
		t.Errorf("cut to %d bytes ending %q", len(got), got[len(got)-1])
	}
	if e := string(AppendEvent(nil, EventConnected, (*ctl.MAC)(&sta))); e != "<3>AP-STA-CONNECTED 02:00:00:00:01:00" {
		t.Errorf("event %q", e)
	}
}

// A WPA3 station's reply names its SAE group after connected_time and
// before keyid, as hostapd's (hostap's test_sae looks for sae_group=19).
