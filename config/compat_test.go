package config

import (
	"strings"
	"testing"
)

// oneWarning checks that ps is a single warning about key containing want.
func oneWarning(t *testing.T, what string, ps Problems, key, want string) {
	t.Helper()
	if len(ps) != 1 || !ps[0].Warning || ps[0].Key != key || !strings.Contains(ps[0].Msg, want) || strings.Contains(ps[0].Msg, "\n") {
		t.Errorf("%s: %v, want one warning about %s with %q", what, ps, key, want)
	}
}

// With wpa=2 and rsn_pairwise set, hostapd does not use wpa_pairwise: the
// Raspberry Pi documentation's TKIP there is warned about, not refused.
func TestWPAPairwiseBesideRSNPairwise(t *testing.T) {
	s, ps := parse(t, "wpa=2\nwpa_passphrase=AardvarkBadgerHedgehog\nwpa_key_mgmt=WPA-PSK\nwpa_pairwise=TKIP\nrsn_pairwise=CCMP\n")
	oneWarning(t, "TKIP beside CCMP", ps, "wpa_pairwise", "with wpa=2, rsn_pairwise (line 5) is the pairwise cipher")
	if s.Core.RSN == nil || len(s.Core.RSN.Pairwise) != 1 {
		t.Errorf("RSN %+v", s.Core.RSN)
	}
	// Alone, wpa_pairwise is the cipher: CCMP is fine, TKIP is not.
	if _, ps := parse(t, "wpa=2\nwpa_passphrase=12345678\nwpa_pairwise=CCMP\n"); len(ps) != 0 {
		t.Errorf("wpa_pairwise=CCMP alone: %v", ps)
	}
	if _, ps := parse(t, "wpa=2\nwpa_passphrase=12345678\nwpa_pairwise=TKIP\n"); ps.Err() == nil {
		t.Error("wpa_pairwise=TKIP without rsn_pairwise is accepted")
	}
}

// Flags hostapd does not know are ignored with a warning, as hostapd's
// parser ignores them; [HT40] leaves the channel 20 MHz wide.
func TestCapabFlagsHostapdIgnores(t *testing.T) {
	s, ps := parse(t, "ieee80211n=1\nht_capab=[HT40][SHORT-GI-20][DSSS_CCK-40]\n")
	oneWarning(t, "Raspberry Pi ht_capab", ps, "ht_capab",
		"ignored, as hostapd ignores them: [HT40] (neither [HT40+] nor [HT40-]: the channel is 20 MHz wide); not advertised: [DSSS_CCK-40]")
	if s.PHY.HT40 != "" || !s.PHY.SGI20 || !s.PHY.HT || s.PHY.HTCapAsked != 0x1000 { // [DSSS_CCK-40] the radio must have
		t.Errorf("PHY %+v", s.PHY)
	}
	_, ps = parse(t, "ht_capab=[HT40+][SHORT-GI20]\n")
	oneWarning(t, "typo", ps, "ht_capab", "[SHORT-GI20] (not a hostapd flag; did you mean [SHORT-GI-20]?)")
	s, ps = parse(t, "vht_capab=[VHT320][SHORT-GI-80]\n")
	oneWarning(t, "vht", ps, "vht_capab", "[VHT320] (not a hostapd flag; did you mean [VHT160]?)")
	if !s.PHY.SGI80 {
		t.Errorf("vht_capab: %+v", s.PHY)
	}
	// The flags the radio must have, as hostapd sets their bits.
	for v, want := range map[string]uint32{
		"[RX-STBC-12][SU-BEAMFORMEE][BF-ANTENNA-4]":  0x200 | 0x1000 | 3<<13,
		"[BF-ANTENNA-4][SOUNDING-DIMENSION-2]":       0, // each needs its beamforming flag
		"[MAX-A-MPDU-LEN-EXP3][MAX-A-MPDU-LEN-EXP4]": 4 << 23,
		"[HTC-VHT][VHT-LINK-ADAPT3]":                 0x400000 | 0xc000000,
	} {
		if s, _ := parse(t, "vht_capab="+v+"\n"); s.PHY.VHTCapAsked != want {
			t.Errorf("vht_capab=%s: %#x, want %#x", v, s.PHY.VHTCapAsked, want)
		}
	}
}

func TestUTF8SSIDAndBSSLoadKeys(t *testing.T) {
	s, ps := parse(t, "utf8_ssid=1\nbss_load_update_period=60\nchan_util_avg_period=600\n")
	v := s.Core.Advert
	if len(ps) != 0 || !v.UTF8SSID || v.BSSLoadPeriod != 60 || v.ChanUtilAvgPeriod != 600 {
		t.Errorf("%+v %v", v, ps)
	}
	if _, ps := parse(t, "bss_load_update_period=101\n"); ps.Err() == nil || !strings.Contains(ps.Error(), "want 0 (no BSS Load element) to 100") {
		t.Errorf("101: %v", ps)
	}
	_, ps = parse(t, "chan_util_avg_period=600\n")
	oneWarning(t, "average without period", ps, "chan_util_avg_period", "only with bss_load_update_period")
}

// uapsd_advertisement_enabled=1 is accepted with a warning: airq does not
// advertise U-APSD, and stations then use legacy power save.
func TestUAPSDWarned(t *testing.T) {
	s, ps := parse(t, "uapsd_advertisement_enabled=1\n")
	oneWarning(t, "uapsd", ps, "uapsd_advertisement_enabled", "airq does not advertise U-APSD")
	if s.Core.WMMParams != defaults().Core.WMMParams {
		t.Error("uapsd changed the WMM parameters")
	}
}

// ieee80211h, local_pwr_constraint and spectrum_mgmt_required as hostapd
// 2.10 takes them, with its errors; radar channels stay refused.
func TestSpectrumManagementKeys(t *testing.T) {
	const five = "country_code=DE\nieee80211d=1\nhw_mode=a\nchannel=36\n"
	s, ps := parse(t, five+"ieee80211h=1\nlocal_pwr_constraint=3\nspectrum_mgmt_required=1\n")
	if v := s.Core.Advert; len(ps) != 0 || !v.PowerConstraint || v.LocalPowerConstraint != 3 || !v.SpectrumMgmt {
		t.Errorf("%+v %v", v, ps)
	}
	_, ps = parse(t, five+"ieee80211h=1\n")
	oneWarning(t, "11h alone", ps, "ieee80211h", "changes nothing on a channel without radar detection, as in hostapd")
	for text, want := range map[string]string{
		"hw_mode=a\nchannel=36\nieee80211h=1\n":                                                                "ieee80211h: cannot enable IEEE 802.11h without IEEE 802.11d enabled",
		"country_code=DE\nieee80211d=1\nhw_mode=a\nchannel=52\nieee80211h=1\n":                                 "ieee80211h: channel 52 needs radar detection (DFS), which airq does not do",
		"hw_mode=a\nchannel=36\nlocal_pwr_constraint=3\n":                                                      "local_pwr_constraint: cannot add Power Constraint element without Country element",
		five + "ieee80211h=1\nieee80211n=1\nieee80211ac=1\nvht_oper_chwidth=2\n":                               "ieee80211h: channel 52 needs radar detection", // 160 MHz from 36
		"country_code=DE\nieee80211d=1\nhw_mode=a\nchannel=48\nieee80211n=1\nht_capab=[HT40+]\nieee80211h=1\n": "ieee80211h: channel 52 needs",
		"country_code=DE\nieee80211d=1\nhw_mode=a\nchannel=116\nieee80211h=1\n":                                "ieee80211h: channel 116 needs",
		five + "spectrum_mgmt_required=1\n":                                                                    "spectrum_mgmt_required: cannot set Spectrum Management bit without Country and Power Constraint elements",
	} {
		if _, ps := parse(t, text); ps.Err() == nil || !strings.Contains(ps.Err().Error(), want) {
			t.Errorf("%q: %v, want %q", text, ps, want)
		}
	}
}

// chanlist and freqlist restrict automatic selection, both at once.
func TestChanlistFreqlist(t *testing.T) {
	s, ps := parse(t, "channel=0\nchanlist=1 6 11-13\nfreqlist=2412-2437,2462\n")
	if len(ps) != 0 {
		t.Fatal(ps)
	}
	for freq, want := range map[int]bool{2412: true, 2437: true, 2462: true, 2417: false, 2467: false, 2472: false, 5180: false} {
		if got := s.ACS.ACSAllows(freq); got != want {
			t.Errorf("%d MHz: allowed %v, want %v", freq, got, want)
		}
	}
	if s, _ := parse(t, "channel=0\n"); !s.ACS.ACSAllows(5180) {
		t.Error("without a list a channel is refused")
	}
	_, ps = parse(t, "channel=6\nchanlist=1 6 11\n")
	oneWarning(t, "fixed channel", ps, "chanlist", "channel 6 is fixed")
	if _, ps := parse(t, "chanlist=1 x\n"); ps.Err() == nil {
		t.Error("chanlist=1 x accepted")
	}
}

// interface= names the radio when nothing else does.
func TestInterfaceKey(t *testing.T) {
	s, ps := parse(t, "interface=wlan0\n")
	if len(ps) != 0 || s.Interface != "wlan0" {
		t.Errorf("%q %v", s.Interface, ps)
	}
	_, ps = parse(t, "phy=phy1\ninterface=wlan0\n")
	oneWarning(t, "with phy=", ps, "interface", "phy= or -phy names the radio (phy1)")
}

// preamble is hostapd's radio key with hostapd's default, 0 (the long
// preamble); 1 allows the short one on 2.4 GHz and is warned about on
// 5 GHz, where it changes nothing; hostapd's parser takes any other
// number as 1, airq refuses it naming the accepted values; a bss=
// section cannot set it.
func TestPreambleKey(t *testing.T) {
	if s, ps := parse(t, "hw_mode=g\nchannel=6\n"); len(ps) != 0 || s.Core.ShortPreamble {
		t.Errorf("without preamble: short preamble %v, %v", s.Core.ShortPreamble, ps)
	}
	for v, want := range map[string]bool{"0": false, "1": true} {
		if s, ps := parse(t, "hw_mode=g\nchannel=6\npreamble="+v+"\n"); len(ps) != 0 || s.Core.ShortPreamble != want {
			t.Errorf("preamble=%s: short preamble %v, %v", v, s.Core.ShortPreamble, ps)
		}
	}
	_, ps := parse(t, "preamble=2\n")
	if want := `x.conf:1: preamble: "2": want 0 (long preamble, the default) or 1 (short preamble on 2.4 GHz while every associated station has it)`; len(ps) != 1 || ps[0].Warning || ps[0].String() != want {
		t.Errorf("preamble=2: %v, want %q", ps, want)
	}
	_, ps = parse(t, "hw_mode=a\nchannel=36\npreamble=1\n")
	oneWarning(t, "5 GHz", ps, "preamble", "changes nothing on 5 GHz")
	if _, ps := parse(t, "hw_mode=a\nchannel=36\npreamble=0\n"); len(ps) != 0 {
		t.Errorf("preamble=0 on 5 GHz: %v", ps)
	}
	s, _, ps := loadText(t, "ssid=m\npreamble=1\nbss=guest\nssid=g\npreamble=1\n")
	if p := find(t, ps, 5, "preamble"); p.Warning || !strings.Contains(p.Msg, "a radio key") {
		t.Errorf("preamble in a section: %v", p)
	}
	if !s.Core.ShortPreamble {
		t.Error("preamble=1 before the bss= line: not the radio's")
	}
}

// noscan is OpenWrt hostapd's key: 1 turns the 20/40 MHz check off, 0
// (the default) leaves it on; it is warned about where there is no check,
// and other values are refused naming the accepted ones.
func TestNoScanKey(t *testing.T) {
	if s, ps := parse(t, "hw_mode=g\nchannel=6\nieee80211n=1\nht_capab=[HT40+]\n"); len(ps) != 0 || s.PHY.NoScan {
		t.Errorf("without noscan: %v, %v", s.PHY.NoScan, ps)
	}
	for v, want := range map[string]bool{"0": false, "1": true} {
		if s, ps := parse(t, "hw_mode=g\nchannel=6\nieee80211n=1\nht_capab=[HT40+]\nnoscan="+v+"\n"); len(ps) != 0 || s.PHY.NoScan != want {
			t.Errorf("noscan=%s: %v, %v", v, s.PHY.NoScan, ps)
		}
	}
	_, ps := parse(t, "noscan=2\n")
	if len(ps) != 1 || ps[0].Warning || !strings.Contains(ps[0].String(), `noscan: "2": want 0 (the default`) {
		t.Errorf("noscan=2: %v", ps)
	}
	_, ps = parse(t, "hw_mode=a\nchannel=36\nieee80211n=1\nht_capab=[HT40+]\nnoscan=1\n")
	oneWarning(t, "5 GHz", ps, "noscan", "changes nothing here")
	_, ps = parse(t, "hw_mode=g\nchannel=6\nieee80211n=1\nnoscan=1\n")
	oneWarning(t, "20 MHz", ps, "noscan", "changes nothing here")
	_, _, ps = loadText(t, "ssid=m\nbss=guest\nssid=g\nnoscan=1\n")
	if p := find(t, ps, 4, "noscan"); p.Warning || !strings.Contains(p.Msg, "a radio key") {
		t.Errorf("noscan in a section: %v", p)
	}
}

// obss_interval is honoured, as hostapd's: seconds into the radio's PHY;
// values beyond the element's 16 bits are refused naming the range.
func TestOBSSIntervalKey(t *testing.T) {
	for v, want := range map[string]int{"0": 0, "300": 300, "65535": 65535} {
		s, ps := parse(t, "hw_mode=g\nchannel=6\nieee80211n=1\nht_capab=[HT40+]\nobss_interval="+v+"\n")
		p, _ := s.CorePHY(6, nil, func(_, key string) string { return key }) // the scan's defaults are the flags'
		if len(ps) != 0 || p.OBSSInterval != want {
			t.Errorf("obss_interval=%s: %d, %v", v, p.OBSSInterval, ps)
		}
	}
	for _, v := range []string{"-1", "65536", "x"} {
		if _, ps := parse(t, "obss_interval="+v+"\n"); len(ps) != 1 || ps[0].Warning || !strings.Contains(ps[0].String(), "want 0 (the default) to 65535 s") {
			t.Errorf("obss_interval=%s: %v", v, ps)
		}
	}
}
