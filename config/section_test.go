package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// loadText loads text as a file over the defaults, with ifname as the
// monitor interface's name.
func loadText(t *testing.T, text string) (Settings, *File, Problems) {
	t.Helper()
	s := defaults()
	s.Ifname = "airq0"
	s.Core.WMM, s.Core.DTIMPeriod, s.Core.MaxStations = true, 2, DefaultMaxStations // as airqd's flags
	path := writeConf(t, text)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, ps := Load(path, b, &s, nil)
	return s, f, ps
}

// find returns the problem about key at line n, failing without one.
func find(t *testing.T, ps Problems, n int, key string) Problem {
	t.Helper()
	for _, p := range ps {
		if p.Line == n && p.Key == key {
			return p
		}
	}
	t.Fatalf("no problem about %s at line %d in:\n%v", key, n, ps)
	return Problem{}
}

// A bss= section starts from hostapd's defaults for a BSS, not from the
// first section's values, and shares the radio's.
func TestSectionStartsFromDefaults(t *testing.T) {
	s, _, ps := loadText(t, "ssid=main\ndtim_period=5\nmax_num_sta=10\nwmm_enabled=0\nwpa=2\nwpa_passphrase=secret123\n"+
		"bridge=br-lan\ntap=main0\nap_isolate=1\nchannel=6\nbeacon_int=200\n"+
		"bss=guest\nssid=guest\n")
	if ps.Err() != nil {
		t.Fatal(ps)
	}
	if len(s.BSSes) != 1 {
		t.Fatalf("%d BSSes, want 1", len(s.BSSes))
	}
	b := s.BSSes[0]
	g := b.Settings
	switch {
	case b.Name != "guest", b.Line != 12, !b.BSSID.IsZero():
		t.Errorf("BSS %q line %d BSSID %s", b.Name, b.Line, b.BSSID)
	case g.Core.SSID != "guest", g.Core.DTIMPeriod != 2, g.Core.MaxStations != 2007, !g.Core.WMM, g.Core.RSN != nil, g.Core.APIsolate:
		t.Errorf("guest's BSS keys are not hostapd's defaults: %+v", g.Core)
	case g.Bridge != "", g.Tap != "guest":
		t.Errorf("guest's wired side: bridge %q tap %q", g.Bridge, g.Tap)
	case g.Channel != 6, g.Core.BeaconInterval != 200:
		t.Errorf("guest's radio: channel %d beacon interval %d, want the first section's", g.Channel, g.Core.BeaconInterval)
	case s.Core.SSID != "main", s.Core.DTIMPeriod != 5, s.Core.RSN == nil, s.Tap != "main0":
		t.Errorf("the first BSS changed: %+v", s.Core)
	}
}

// bssKeySamples set each BSS key to a value that is not its default,
// after the lines the key needs.
func bssKeySamples(t *testing.T) map[string]string {
	dir := t.TempDir()
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const wpa = "wpa=2\nwpa_passphrase=secret123\n"
	const sae = "wpa=2\nwpa_key_mgmt=SAE\nieee80211w=2\nsae_password=secret123\n"
	return map[string]string{
		"ssid": "ssid=first", "ssid2": `ssid2="first2"`, "bssid": "bssid=02:00:00:00:09:00", "bridge": "bridge=br-lan",
		"tap": "tap=first0", "ignore_broadcast_ssid": "ignore_broadcast_ssid=1", "utf8_ssid": "utf8_ssid=1",
		"dtim_period": "dtim_period=5", "max_num_sta": "max_num_sta=10", "ap_isolate": "ap_isolate=1",
		"multicast_to_unicast": "multicast_to_unicast=1", "ap_max_inactivity": "ap_max_inactivity=60", "auth_algs": "auth_algs=3",
		"macaddr_acl": "macaddr_acl=1", "accept_mac_file": "accept_mac_file=" + file("accept", "02:00:00:00:10:01\n"),
		"deny_mac_file": "deny_mac_file=" + file("deny", "02:00:00:00:10:02\n"), "wmm_enabled": "wmm_enabled=0",
		"wme_enabled": "wme_enabled=0", "disable_11n": "ieee80211n=1\ndisable_11n=1", "disable_11ac": "channel=36\nhw_mode=a\ncountry_code=US\nieee80211n=1\nieee80211ac=1\ndisable_11ac=1",
		"bss_load_update_period": "bss_load_update_period=10", "chan_util_avg_period": "bss_load_update_period=10\nchan_util_avg_period=20",
		"ctrl_interface": "ctrl_interface=" + dir, "ctrl_interface_group": "ctrl_interface_group=0",
		"wpa": wpa, "wpa_passphrase": wpa, "wpa_psk": "wpa=2\nwpa_psk=" + strings.Repeat("ab", 32),
		"wpa_psk_file": "wpa=2\nwpa_psk_file=" + file("psk", "00:00:00:00:00:00 secret123\n"),
		"wpa_key_mgmt": wpa + "wpa_key_mgmt=WPA-PSK-SHA256", "rsn_pairwise": wpa + "rsn_pairwise=CCMP", "wpa_pairwise": wpa + "wpa_pairwise=CCMP",
		"wpa_group_rekey": wpa + "wpa_group_rekey=600", "wpa_ptk_rekey": wpa + "wpa_ptk_rekey=600", "wpa_strict_rekey": wpa + "wpa_strict_rekey=1",
		"wpa_disable_eapol_key_retries": wpa + "wpa_disable_eapol_key_retries=1", "wpa_deny_ptk0_rekey": wpa + "wpa_deny_ptk0_rekey=1",
		"wpa_pairwise_update_count": wpa + "wpa_pairwise_update_count=2", "wpa_group_update_count": wpa + "wpa_group_update_count=2",
		"eapol_version": wpa + "eapol_version=1", "extended_key_id": wpa + "extended_key_id=1",
		"sae_password": sae, "sae_password_file": "wpa=2\nwpa_key_mgmt=SAE\nieee80211w=2\nsae_password_file=" + file("sae", "secret123\n"),
		"sae_groups": sae + "sae_groups=19 20", "sae_pwe": sae + "sae_pwe=2", "sae_require_mfp": sae + "sae_require_mfp=1",
		"sae_confirm_immediate": sae + "sae_confirm_immediate=1", "sae_sync": sae + "sae_sync=7",
		"anti_clogging_threshold": sae + "anti_clogging_threshold=9", "sae_anti_clogging_threshold": sae + "sae_anti_clogging_threshold=9",
		"transition_disable": sae + "transition_disable=0x01", "ieee80211w": wpa + "ieee80211w=1",
		"group_mgmt_cipher": wpa + "ieee80211w=1\ngroup_mgmt_cipher=AES-128-CMAC", "assoc_sa_query_max_timeout": wpa + "ieee80211w=1\nassoc_sa_query_max_timeout=2000",
		"assoc_sa_query_retry_timeout": wpa + "ieee80211w=1\nassoc_sa_query_retry_timeout=300",
		"auth_timeout":                 "auth_timeout=9s", "assoc_resp_timeout": "assoc_resp_timeout=2s",
		"airtime_bss_weight": "airtime_mode=1\nairtime_bss_weight=5", "airtime_bss_limit": "airtime_mode=3\nairtime_bss_limit=1",
		"airtime_sta_weight": "airtime_mode=1\nairtime_sta_weight=02:00:00:00:10:01 512", "airtime_bss_cap": "airtime_bss_cap=30",
	}
}

// splitSample cuts a sample's lines into its radio keys' and its BSS
// keys', each line ending in a newline.
func splitSample(sample string) (radio, bss string) {
	for _, l := range strings.Split(sample, "\n") {
		if k, _, _ := strings.Cut(l, "="); IsBSSKey(k) {
			bss += l + "\n"
		} else {
			radio += l + "\n"
		}
	}
	return radio, bss
}

// No BSS key of the first section reaches a bss= section: with each set
// in the first section, the section's settings are those of a file
// without it, where the key's lines are radio keys only.
func TestBSSKeysNotInherited(t *testing.T) {
	samples := bssKeySamples(t)
	for _, key := range bssKeyNames {
		sample, ok := samples[key]
		if !ok {
			t.Errorf("%s: no sample value", key)
			continue
		}
		radio, _ := splitSample(sample) // in both files
		const guest = "bss=guest\nssid=guest\n"
		with, _, ps := loadText(t, sample+"\n"+guest)
		if ps.Err() != nil {
			t.Errorf("%s: %v", key, ps.Err())
			continue
		}
		without, _, ps := loadText(t, radio+guest)
		if ps.Err() != nil {
			t.Errorf("%s without it: %v", key, ps.Err())
			continue
		}
		if !reflect.DeepEqual(with.BSSes[0].Settings, without.BSSes[0].Settings) {
			t.Errorf("%s set in the first section reaches bss guest:\n%+v\nwant\n%+v", key, *with.BSSes[0].Settings, *without.BSSes[0].Settings)
		}
		if reflect.DeepEqual(with.Core, without.Core) && reflect.DeepEqual(with.BSSAirtime, without.BSSAirtime) && with.Tap == without.Tap &&
			with.Bridge == without.Bridge && with.BSSID == without.BSSID && with.CtrlInterface == without.CtrlInterface &&
			with.CtrlGroup == without.CtrlGroup && reflect.DeepEqual(with.PHY, without.PHY) && key != "auth_algs" {
			t.Errorf("%s: the sample %q changes nothing in the first BSS either", key, sample)
		}
	}
}

// A radio key in a bss= section is refused, naming the section, the line
// and the key; every BSS key is taken there.
func TestRadioKeyInSection(t *testing.T) {
	for _, key := range Names() {
		if IsBSSKey(key) || key == "bss" {
			continue
		}
		_, ps := Parse("f.conf", []byte("bss=guest\nssid=g\n"+key+"=1\n"))
		p := find(t, ps, 3, key)
		if p.Warning || p.Section != "bss guest" || !strings.Contains(p.Msg, "a radio key") {
			t.Errorf("%s: %v", key, p)
		}
		if want := "f.conf: bss guest: line 3: " + key + ": a radio key"; !strings.HasPrefix(p.String(), want) {
			t.Errorf("%s: %q, want %q...", key, p.String(), want)
		}
	}
	samples := bssKeySamples(t)
	for _, key := range bssKeyNames {
		radio, bss := splitSample(samples[key])
		_, _, ps := loadText(t, radio+"bss=guest\nssid=g\n"+bss)
		if ps.Err() != nil {
			t.Errorf("%s in a section: %v", key, ps.Err())
		}
	}
}

// A radio takes at most 8 BSSes: the first section and 7 bss= sections.
func TestAtMostEightBSSes(t *testing.T) {
	text := "ssid=main\n"
	for i := 2; i <= 9; i++ {
		text += fmt.Sprintf("bss=b%d\nssid=s%d\n", i, i)
		s, _, ps := loadText(t, text)
		if i <= MaxBSSes {
			if ps.Err() != nil || len(s.BSSes) != i-1 {
				t.Errorf("%d BSSes: %d sections, %v", i, len(s.BSSes), ps.Err())
			}
			continue
		}
		p := find(t, ps, 2*i-2, "bss")
		if !strings.Contains(p.String(), "bss b9: line 16: bss: BSS number 9: a radio takes at most 8 BSSes") {
			t.Errorf("9 BSSes: %v", p)
		}
	}
}

// fakeNetdevs are the interfaces that exist.
type fakeNetdevs map[string]bool

func (f fakeNetdevs) Exists(name string) (bool, error) { return f[name], nil }

// A section needs its own SSID; names, TAPs, control sockets and BSSIDs
// are the BSSes' own; the derived BSSIDs follow hostapd's mask rule.
func TestSectionConflicts(t *testing.T) {
	netdevs := fakeNetdevs{"eth0": true, "br-lan": true}
	for _, c := range []struct {
		text    string
		line    int
		key     string
		want    string
		sockets []string
	}{
		{text: "ssid=m\nbss=guest\n", line: 2, key: "bss", want: "bss guest: line 2: bss: the BSS has no ssid"},
		{text: "ssid=m\nbss=\nssid=g\n", line: 2, key: "bss", want: `bss : line 2: bss: "": want an interface name`},
		{text: "ssid=m\nbss=a b\nssid=g\n", line: 2, key: "bss", want: `bss a b: line 2: bss: "a b": want an interface name`},
		{text: "ssid=m\nbss=guest\nssid=g\nbss=guest\nssid=h\n", line: 4, key: "bss", want: `bss guest: line 4: bss: "guest" is already the name of bss guest (line 2)`},
		{text: "interface=wlan0\nssid=m\nbss=wlan0\nssid=g\n", line: 3, key: "bss", want: `"wlan0" is already the first BSS's interface (interface=)`},
		{text: "ssid=m\nbss=airq0\nssid=g\n", line: 2, key: "bss", want: `"airq0" is already the monitor interface airqd creates (-ifname)`},
		{text: "ssid=m\ntap=tap0\nbss=tap0\nssid=g\n", line: 3, key: "bss", want: `"tap0" is already the first BSS's TAP`},
		{text: "ssid=m\nbss=guest\nssid=g\nbss=iot\nssid=i\ntap=guest\n", line: 4, key: "bss", want: `"guest" is already the name of bss guest (line 2)`},
		{text: "ssid=m\nbss=eth0\nssid=g\n", line: 2, key: "bss", want: `bss eth0: line 2: bss: a network interface named "eth0" exists`},
		{text: "ssid=m\nbss=guest\nssid=g\ntap=br-lan\n", line: 2, key: "bss", want: `a network interface named "br-lan" exists`},
		{text: "ssid=m\nbss=global\nssid=g\nctrl_interface=/run/hostapd\n", line: 2, key: "bss", sockets: []string{"/run/hostapd/global"},
			want: "its control socket /run/hostapd/global is already another control socket of airqd's"},
		{text: "ssid=m\nctrl_interface=/run/hostapd\nbss=global\nssid=g\n", line: 3, key: "bss", sockets: []string{"/run/hostapd/global"},
			want: "its control socket /run/hostapd/global is already another control socket of airqd's"}, // in the radio's directory
		{text: "ssid=m\nbssid=02:00:00:00:01:00\nbss=guest\nssid=g\nbssid=02:00:00:00:01:00\n", line: 5, key: "bssid",
			want: "bss guest: line 5: bssid: 02:00:00:00:01:00: a BSS may not have BSSID set to the MAC address of the radio"},
		{text: "ssid=m\nbss=guest\nssid=g\nbssid=02:00:00:00:01:07\nbss=iot\nssid=i\nbssid=02:00:00:00:01:07\n", line: 7, key: "bssid",
			want: "02:00:00:00:01:07 is already the BSSID of bss guest (line 2)"},
		{text: "ssid=m\nbssid=02:00:00:00:01:01\nbss=guest\nssid=g\n", line: 3, key: "bssid",
			want: "bss guest: line 3: bssid: BSSID mask rule: with 2 BSSIDs the mask is ff:ff:ff:ff:ff:fe, and the first BSSID 02:00:00:00:01:01 is not the first address of its block (addr & mask == addr)"},
	} {
		s, f, ps := loadText(t, c.text)
		ps = append(ps, f.CheckNames(&s, netdevs, c.sockets...)...)
		p := find(t, ps, c.line, c.key)
		if p.Warning || !strings.Contains(p.String(), c.want) {
			t.Errorf("%q: %v, want %q", c.text, p, c.want)
		}
	}
	// Apart, the same names pass.
	s, f, ps := loadText(t, "interface=wlan0\nssid=m\nctrl_interface=/run/hostapd\nbssid=02:00:00:00:01:00\n"+
		"bss=guest\nssid=g\nctrl_interface=/run/hostapd\nbss=iot\nssid=i\nbssid=02:00:00:00:01:05\n")
	ps = append(ps, f.CheckNames(&s, netdevs, "/run/airq/airqd.sock", "/run/hostapd/global")...)
	if ps.Err() != nil {
		t.Error(ps)
	}
}

// FuzzSections: every key=value line lands in exactly one section, in
// order, each after its bss= line and before the next; every problem of a
// bss= section's lines names that section; the settings carry one BSS per
// section.
func FuzzSections(f *testing.F) {
	f.Add([]byte("ssid=m\nchannel=6\nbss=guest\nssid=g\nwpa=2\nchannel=1\nbss=iot\n# c\nssid=i\nbss=\n"))
	f.Add([]byte("bss=a\nbss=a\nbss=b c\nbss\nbss=x=y\n=bss\n"))
	f.Add([]byte(strings.Repeat("bss=n\nssid=s\n", 10)))
	f.Fuzz(func(t *testing.T, data []byte) {
		ls, _ := splitLines("fuzz.conf", data)
		secs := splitSections(ls)
		n, prev := 0, 0
		for i, sec := range secs {
			if i > 0 {
				if sec.at <= prev {
					t.Fatalf("section %d at line %d, after line %d", i, sec.at, prev)
				}
				n++ // its bss= line
				prev = sec.at
			}
			for _, l := range sec.lines {
				if l.key == "bss" || l.n <= prev || i+1 < len(secs) && l.n >= secs[i+1].at {
					t.Fatalf("line %d (%s) in section %d, at line %d", l.n, l.key, i, sec.at)
				}
				prev = l.n
			}
			n += len(sec.lines)
		}
		if n != len(ls) {
			t.Fatalf("%d lines in sections, %d in the file", n, len(ls))
		}
		c, ps := Parse("fuzz.conf", data)
		if len(c.bsses) != len(secs)-1 {
			t.Fatalf("%d bss= sections, %d Files", len(secs)-1, len(c.bsses))
		}
		for _, p := range ps {
			if want := c.sectionOf(p.Line); p.Line > 0 && p.Section != want {
				t.Fatalf("line %d: section %q, want %q: %v", p.Line, p.Section, want, p)
			}
		}
		s := defaults()
		c.Apply(&s, nil)
		if len(s.BSSes) != len(c.bsses) {
			t.Fatalf("%d BSSes for %d sections", len(s.BSSes), len(c.bsses))
		}
	})
}

// In a file of several BSSes, a problem the daemon's own checks find in
// the first section names that section too.
func TestLocateNamesFirstSection(t *testing.T) {
	_, f, ps := loadText(t, "interface=wlan0\nssid=m\nbeacon_int=100\nbss=guest\nssid=g\n")
	if ps.Err() != nil {
		t.Fatal(ps)
	}
	p := f.Locate("beacon_int: too short for 2 BSSes", nil)
	if !strings.HasSuffix(p.String(), ": interface wlan0: line 3: beacon_int: too short for 2 BSSes") {
		t.Errorf("%v", p)
	}
	_, f, _ = loadText(t, "ssid=m\nbeacon_int=100\n")
	if p := f.Locate("beacon_int: x", nil); p.Section != "" || !strings.HasSuffix(p.String(), ":2: beacon_int: x") {
		t.Errorf("one BSS: %v", p)
	}
}

// The radio's BSSes in order, the first included; each section's lines
// are its own, for telling which BSS a reload changes.
func TestAllBSSesAndSectionValues(t *testing.T) {
	s, f, ps := loadText(t, "ssid=m\nbssid=02:00:00:00:01:00\ndtim_period=3\nbss=guest\nssid=g\ndtim_period=4\nbss=iot\nssid=i\nbssid=02:00:00:00:01:08\n")
	if ps.Err() != nil {
		t.Fatal(ps)
	}
	var got []string
	for _, b := range s.AllBSSes() {
		got = append(got, fmt.Sprintf("%s@%d %s %s dtim %d", b.Name, b.Line, b.BSSID, b.Settings.Core.SSID, b.Settings.Core.DTIMPeriod))
	}
	want := []string{"airq0@0 02:00:00:00:01:00 m dtim 3", "guest@4 00:00:00:00:00:00 g dtim 4", "iot@7 02:00:00:00:01:08 i dtim 2"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("BSSes\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	g, ok := f.Section("guest")
	if !ok || !reflect.DeepEqual(g.Values(), map[string]string{"ssid": "g", "dtim_period": "4"}) || g.Line("dtim_period") != 6 {
		t.Errorf("guest's values %v", g.Values())
	}
	if v := f.Values(); v["dtim_period"] != "3" || v["bss"] != "" || len(v) != 3 {
		t.Errorf("the first section's values %v", v)
	}
	if _, ok := f.Section("none"); ok {
		t.Error("a section named none")
	}
}
