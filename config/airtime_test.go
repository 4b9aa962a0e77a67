package config

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/txq/policy"
)

// The airtime keys land in the radio's policy and each BSS's own, with
// hostapd's meaning: airtime_sta_weight lines add stations, a later line
// for the same station wins; the cap takes a percent sign.
func TestAirtimeKeys(t *testing.T) {
	s, _, ps := loadText(t, "airtime_mode=1\nairtime_update_interval=500\nairtime_bss_weight=3\n"+
		"airtime_sta_weight=02:00:00:00:10:01 512\nairtime_sta_weight=02:00:00:00:10:02 64\nairtime_sta_weight=02:00:00:00:10:01 128\n"+
		"airtime_bss_cap=30%\nssid=main\n"+
		"bss=guest\nssid=g\nairtime_bss_weight=1\nairtime_bss_cap=100\n")
	if ps.Err() != nil {
		t.Fatal(ps)
	}
	if s.Airtime.Mode != AirtimeStatic || s.Airtime.Interval() != 500*time.Millisecond {
		t.Errorf("radio's policy %+v", s.Airtime)
	}
	want := []StaWeight{{mac(t, "02:00:00:00:10:01"), 128}, {mac(t, "02:00:00:00:10:02"), 64}}
	if a := s.BSSAirtime; a.Weight != 3 || !slices.Equal(a.StaWeights, want) || a.CapPercent != 30 || !a.Capped() {
		t.Errorf("first BSS's %+v", a)
	}
	if g := s.BSSes[0].Settings; g.BSSAirtime.Weight != 1 || g.BSSAirtime.StaWeights != nil || g.BSSAirtime.Capped() || g.Airtime != s.Airtime {
		t.Errorf("guest's %+v, radio's %+v", g.BSSAirtime, g.Airtime)
	}
	if d := (Airtime{}).Interval(); d != DefaultAirtimeUpdate {
		t.Errorf("default interval %v", d)
	}
}

// A value out of hostapd's ranges is refused naming the key and what it
// accepts; a key the mode does not use is accepted with a warning that
// says so, as hostapd ignores it.
func TestAirtimeChecks(t *testing.T) {
	for _, c := range []struct {
		text string
		line int
		key  string
		want string
		warn bool
	}{
		{text: "airtime_mode=-1\n", line: 1, key: "airtime_mode", want: `"-1": want 0 (off`},
		{text: "airtime_update_interval=x\n", line: 1, key: "airtime_update_interval", want: "want 1 to 3600000 ms"},
		{text: "airtime_mode=3\nairtime_update_interval=0\n", line: 2, key: "airtime_update_interval", want: "Airtime update interval cannot be zero"},
		{text: "airtime_bss_weight=65536\n", line: 1, key: "airtime_bss_weight", want: "want 0 (the default"},
		{text: "airtime_bss_limit=2\n", line: 1, key: "airtime_bss_limit", want: "want 0 or 1"},
		{text: "airtime_sta_weight=02:00:00:00:10:01\n", line: 1, key: "airtime_sta_weight", want: "want a station's MAC address and its weight"},
		{text: "airtime_sta_weight=ff:ff:ff:ff:ff:ff 5\n", line: 1, key: "airtime_sta_weight", want: "want a station's MAC address"},
		{text: "airtime_sta_weight=02:00:00:00:10:01 70000\n", line: 1, key: "airtime_sta_weight", want: "1 to 65535"},
		{text: "airtime_bss_cap=101\n", line: 1, key: "airtime_bss_cap", want: "want 1 to 100"},
		{text: "airtime_update_interval=100\n", line: 1, key: "airtime_update_interval", want: "changes nothing here: airtime_mode is 0", warn: true},
		{text: "airtime_mode=1\nairtime_update_interval=0\n", line: 2, key: "airtime_update_interval", want: "changes nothing here: airtime_mode is 1", warn: true},
		{text: "airtime_bss_weight=2\n", line: 1, key: "airtime_bss_weight", want: "changes nothing here: airtime_mode is 0", warn: true},
		{text: "airtime_mode=2\nairtime_bss_limit=1\n", line: 2, key: "airtime_bss_limit", want: "only 3 (limit) limits a BSS", warn: true},
		{text: "airtime_mode=2\nairtime_sta_weight=02:00:00:00:10:01 9\n", line: 2, key: "airtime_sta_weight", want: "only 1 (static)", warn: true},
		{text: "airtime_mode=1\nbss=guest\nssid=g\nairtime_sta_weight=02:00:00:00:10:01 9\nairtime_bss_limit=1\n", line: 5, key: "airtime_bss_limit",
			want: "bss guest: line 5: warning: airtime_bss_limit: changes nothing here: airtime_mode is 1", warn: true},
		{text: "airtime_mode=2\nbss=guest\nssid=g\nairtime_bss_weight=1\nbss=iot\nssid=i\n", line: 1, key: "airtime_mode",
			want: "no airtime_bss_weight with airtime_mode 2: the BSS's stations take no part in the policy", warn: true},
		{text: "airtime_mode=3\nairtime_bss_weight=1\nbss=guest\nssid=g\nairtime_bss_weight=1\nbss=iot\nssid=i\n", line: 6, key: "bss",
			want: "bss iot: line 6: warning: bss: no airtime_bss_weight with airtime_mode 3", warn: true},
	} {
		_, _, ps := loadText(t, c.text)
		p := find(t, ps, c.line, c.key)
		if p.Warning != c.warn || !strings.Contains(p.String(), c.want) {
			t.Errorf("%q: %v, want %q (warning %v)", c.text, p, c.want, c.warn)
		}
	}
}

// A file of several BSSes, each section setting the keys the core serves
// per BSS (its own WMM, HT, VHT, multicast_to_unicast, timers and
// announcements, isolation, airtime keys, control socket), or a single BSS
// with an airtime policy and cap, loads with no problem: none of them is a
// radio key.
func TestBSSKeysServed(t *testing.T) {
	for _, text := range []string{
		"ssid=m\nairtime_mode=0\nairtime_bss_cap=100\n",
		"ssid=m\nairtime_mode=1\nairtime_sta_weight=02:00:00:00:10:01 3\nairtime_bss_cap=25\n",
		"interface=wlan0\nssid=m\nbss=guest\nssid=g\nignore_broadcast_ssid=1\ndtim_period=1\nmax_num_sta=3\nbss=iot\nssid=i\nwpa=2\nwpa_passphrase=12345678\n",
		"ssid=m\nbss=guest\nssid=g\nairtime_bss_cap=40\nwmm_enabled=1\nap_max_inactivity=300\n",
		"ssid=m\nap_isolate=1\nbss=guest\nssid=g\nap_isolate=1\n",
		"interface=wlan0\nssid=m\nbss=guest\nssid=g\nwme_enabled=0\nbss=iot\nssid=i\nmulticast_to_unicast=1\nutf8_ssid=1\n",
		"ssid=m\nap_max_inactivity=60\nieee80211n=1\ndisable_11n=1\nbss=guest\nssid=g\n",
		"ssid=m\nchannel=36\nhw_mode=a\ncountry_code=US\nieee80211n=1\nieee80211ac=1\nwmm_enabled=0\ndisable_11ac=1\n" +
			"bss=guest\nssid=g\ndisable_11n=1\nmulticast_to_unicast=1\nbss=iot\nssid=i\nwme_enabled=1\n",
		"ssid=m\nbss=guest\nssid=g\nctrl_interface=/run/hostapd\n", // the section's socket is served
	} {
		if _, _, ps := loadText(t, text); len(ps) != 0 {
			t.Errorf("%q: %v", text, ps)
		}
	}
}

// Each bss= section reaches the core as its own BSS, with its name, SSID,
// bssid= (zero: derived at bring-up), hiding, DTIM period, station limit,
// access lists, isolation, security, WMM, HT, VHT and
// multicast_to_unicast; a section that leaves the last four out has
// hostapd's defaults, whatever the first BSS's.
func TestCoreBSSes(t *testing.T) {
	s, _, ps := loadText(t, "ssid=m\nap_isolate=1\nchannel=36\nhw_mode=a\ncountry_code=US\nieee80211n=1\nieee80211ac=1\n"+
		"wmm_enabled=0\ndisable_11n=1\nmulticast_to_unicast=1\n"+
		"bss=guest\nssid=g\nignore_broadcast_ssid=1\ndtim_period=1\nmax_num_sta=3\nap_isolate=1\nwme_enabled=0\ndisable_11ac=1\nmulticast_to_unicast=1\n"+
		"macaddr_acl=0\nbss=iot\nssid=i\nbssid=02:00:00:00:0a:02\nap_isolate=1\nwpa=2\nwpa_passphrase=12345678\ndisable_11n=1\n")
	if ps.Err() != nil {
		t.Fatal(ps)
	}
	c := s.CoreBSSes()
	if len(c) != 2 {
		t.Fatalf("%+v", c)
	}
	g, i := c[0], c[1]
	if g.Name != "guest" || g.SSID != "g" || !g.HideSSID || g.DTIMPeriod != 1 || g.MaxStations != 3 || !g.APIsolate || g.RSN != nil || !g.BSSID.IsZero() ||
		!g.NoWMM || g.NoHT || !g.NoVHT || !g.MulticastToUnicast {
		t.Errorf("guest: %+v", g)
	}
	if i.Name != "iot" || i.SSID != "i" || i.HideSSID || i.DTIMPeriod != 2 || i.MaxStations != DefaultMaxStations || i.RSN == nil ||
		i.BSSID != (ieee80211.MAC{2, 0, 0, 0, 0x0a, 2}) || i.NoWMM || !i.NoHT || i.NoVHT || i.MulticastToUnicast {
		t.Errorf("iot: %+v", i)
	}
	if c := s.Core; c.WMM || !c.NoHT || c.NoVHT || !c.MulticastToUnicast || !s.PHY.HT || !s.PHY.VHT {
		t.Errorf("the first BSS: WMM %v, no HT %v, no VHT %v, multicast to unicast %v; the radio's HT %v, VHT %v",
			c.WMM, c.NoHT, c.NoVHT, c.MulticastToUnicast, s.PHY.HT, s.PHY.VHT)
	}
}

// The core takes the radio's mode and interval and each BSS's keys in the
// file's order, a later airtime_sta_weight line for a station winning.
func TestCoreAirtime(t *testing.T) {
	s, _, ps := loadText(t, "airtime_mode=3\nairtime_update_interval=500\nairtime_bss_weight=3\nairtime_bss_limit=1\n"+
		"airtime_sta_weight=02:00:00:00:10:01 512\nairtime_sta_weight=02:00:00:00:10:01 128\nairtime_bss_cap=30\nssid=main\n"+
		"bss=guest\nssid=g\nairtime_bss_weight=1\n")
	if ps.Err() != nil {
		t.Fatal(ps)
	}
	c := s.CoreAirtime()
	if c.Mode != policy.Limit || c.Interval != 500*time.Millisecond || len(c.BSS) != 2 {
		t.Fatalf("%+v", c)
	}
	m := c.BSS[0]
	if m.Weight != 3 || !m.Limit || m.CapPercent != 30 || len(m.StaWeights) != 1 || m.StaWeights[ieee80211.MAC{2, 0, 0, 0, 0x10, 1}] != 128 {
		t.Errorf("main: %+v", m)
	}
	if g := c.BSS[1]; g.Weight != 1 || g.Limit || g.CapPercent != 0 || g.StaWeights != nil {
		t.Errorf("guest: %+v", g)
	}
}

// Each section names the interface holding its BSSID, the monitor's name
// with the BSS's number as the radio's bring-up names it, and its TAP
// (its tap=, else its name), for airqctl dev; the simulated radio has
// neither.
func TestCoreBSSesHolderAndTAP(t *testing.T) {
	text := "ssid=m\nbss=guest\nssid=g\nbss=iot\nssid=i\ntap=iottap\n"
	s, _, ps := loadText(t, text)
	if ps.Err() != nil {
		t.Fatal(ps)
	}
	s.Radio = "nl80211"
	c := s.CoreBSSes()
	if len(c) != 2 || c[0].Holder != "airq0.2" || c[0].TAP != "guest" || c[1].Holder != "airq0.3" || c[1].TAP != "iottap" {
		t.Errorf("nl80211: %+v", c)
	}
	s.Radio = "sim"
	for _, b := range s.CoreBSSes() {
		if b.Holder != "" || b.TAP != "" {
			t.Errorf("sim: %s holds %q with TAP %q, want neither", b.Name, b.Holder, b.TAP)
		}
	}
}
