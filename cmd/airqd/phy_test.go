package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/ctl"
	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/sim"
)

func TestPHYFlags(t *testing.T) {
	o, err := parseFlags([]string{"-phy", "phy0", "-channel", "36", "-vht", "-amsdu", "7935"})
	if err != nil {
		t.Fatal(err)
	}
	if p := o.Core.PHY; !p.HT || !p.VHT || p.Width != 80 || p.SGI20 || p.SGI40 || p.SGI80 || o.Core.AMSDU != 7935 {
		t.Errorf("PHY %+v amsdu %d", p, o.Core.AMSDU)
	}
	// -short-gi: every width the channel uses.
	o, err = parseFlags([]string{"-phy", "phy0", "-channel", "36", "-vht", "-short-gi"})
	if p := o.Core.PHY; err != nil || !p.SGI20 || !p.SGI40 || !p.SGI80 || p.SGI160 {
		t.Errorf("-short-gi at 80 MHz: %+v %v", p, err)
	}
	o, err = parseFlags([]string{"-phy", "phy0", "-channel", "6", "-ht", "-ht40", "-"})
	if err != nil || o.Core.PHY.Width != 40 || o.Core.PHY.Secondary != -1 {
		t.Errorf("HT40-: %+v %v", o.Core.PHY, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-ht40", "+"}, "-ht40: a 40 MHz channel needs HT"},
		{[]string{"-ht", "-ht40", "x"}, "-ht40"},
		{[]string{"-ht", "-width", "30"}, "-width"},
		{[]string{"-amsdu", "7935"}, "-amsdu"},
		{[]string{"-ht", "-amsdu", "100"}, "-amsdu"},
		{[]string{"-scan-mode", "often"}, "-scan-mode"},
	} {
		_, err := parseFlags(append([]string{"-phy", "phy0"}, c.args...))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error naming %s", c.args, err, c.want)
		}
	}
}

// TestAMSDUDefault: HT and VHT stations that take A-MSDUs get them unless
// -amsdu or amsdu= says otherwise; 0 turns them off.
func TestAMSDUDefault(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "airqd.conf")
	if err := os.WriteFile(conf, []byte("ssid=x\nieee80211n=1\namsdu=0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args  []string
		want  int
		given bool // the size was asked for: no fallback at the radio
	}{
		{[]string{"-channel", "6"}, 0, false},
		{[]string{"-channel", "6", "-ht"}, 7935, false},
		{[]string{"-channel", "36", "-vht"}, 11424, false},
		{[]string{"-channel", "6", "-ht", "-amsdu", "0"}, 0, true},
		{[]string{"-channel", "6", "-ht", "-amsdu", "3839"}, 3839, true},
		{[]string{"-channel", "6", "-config", conf}, 0, true},
	} {
		o, err := parseFlags(append([]string{"-phy", "phy0"}, c.args...))
		if err != nil || o.Core.AMSDU != c.want {
			t.Errorf("%v: A-MSDU %d (%v), want %d", c.args, o.Core.AMSDU, err, c.want)
		}
		if opt := o.monitorOptions(nil); opt.AMSDUOptional == c.given {
			t.Errorf("%v: AMSDUOptional %v", c.args, opt.AMSDUOptional)
		}
	}
}

func TestHostapdHTVHTKeys(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		p := filepath.Join(dir, "airqd.conf")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	conf := "interface=airq0\nssid=x\nhw_mode=a\nchannel=36\nieee80211n=1\nht_capab=[HT40+][SHORT-GI-20][SHORT-GI-40]\n" +
		"ieee80211ac=1\nvht_oper_chwidth=1\nvht_oper_centr_freq_seg0_idx=42\nvht_capab=[SHORT-GI-80][MAX-MPDU-11454]\namsdu=11424\nscan=1\nscan_mode=periodic\nscan_period=30s\n"
	o, err := parseFlags([]string{"-phy", "phy0", "-config", write(conf)})
	if err != nil {
		t.Fatal(err)
	}
	if p := o.Core.PHY; !p.VHT || p.Width != 80 || p.Secondary != 1 || o.Core.AMSDU != 11424 || !o.Scan.On || o.Scan.Mode != "periodic" ||
		!p.SGI20 || !p.SGI40 || !p.SGI80 || p.SGI160 {
		t.Errorf("PHY %+v, options %+v", p, o.PHY)
	}
	for _, c := range []struct{ conf, want string }{
		{"channel=36\nieee80211ac=1\nvht_oper_chwidth=1\nvht_oper_centr_freq_seg0_idx=58\n", "vht_oper_centr_freq_seg0_idx"},
		{"ieee80211ac=1\nchannel=36\nvht_capab=[MAX-MPDU-3895]\n", "vht_capab"},
		{"vht_oper_chwidth=3\n", "vht_oper_chwidth"},
	} {
		_, err := parseFlags([]string{"-phy", "phy0", "-config", write("ssid=x\n" + c.conf)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an error naming %s", c.conf, err, c.want)
		}
	}
}

// TestShortGIFromTheFile: ht_capab's short guard intervals apply one width
// at a time, as in hostapd, from the file to the rates a station gets.
// The simulated station announces both; the AP's rate table towards it
// says which guard each width uses; -short-gi given on the command line
// replaces the file's choice.
func TestShortGIFromTheFile(t *testing.T) {
	for _, c := range []struct {
		capab        string
		args         []string
		sgi20, sgi40 bool
	}{
		{"[HT40+]", nil, false, false},
		{"[HT40+][SHORT-GI-20]", nil, true, false},
		{"[HT40+][SHORT-GI-40]", nil, false, true},
		{"[HT40+]", []string{"-short-gi"}, true, true},
		{"[HT40+][SHORT-GI-20][SHORT-GI-40]", []string{"-short-gi=false"}, false, false},
	} {
		path := writeConf(t, "ssid=x\nchannel=6\nieee80211n=1\nht_capab="+c.capab+"\n")
		o, err := parseFlags(append([]string{"-radio", "sim", "-config", path}, c.args...))
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(sim.Config{Seed: 1, AP: o.Core})
		if err != nil {
			t.Fatal(err)
		}
		host, sta := s.AddHost(sim.HostConfig{}), s.AddStation(sim.StationConfig{HT: true})
		s.Run(time.Second)
		s.Ping(host, sta, 100*time.Millisecond, 56) // the first frame to it builds its rate table
		s.Run(500 * time.Millisecond)
		rep := s.Control(ctl.Request{Op: ctl.OpStationRates, Addr: sta.Addr()})
		if rep.Err() != nil || rep.Rates == nil {
			t.Fatalf("%s %v: rates: %v", c.capab, c.args, rep.Err())
		}
		short := map[string]bool{}
		for _, r := range rep.Rates.Rows {
			if r.Mode == "HT20" || r.Mode == "HT40" {
				short[r.Mode] = r.Guard == "SGI"
			}
		}
		if len(short) != 2 || short["HT20"] != c.sgi20 || short["HT40"] != c.sgi40 {
			t.Errorf("%s %v: short GI %v, want HT20 %v HT40 %v", c.capab, c.args, short, c.sgi20, c.sgi40)
		}
	}
}

// ieee80211d reaches the radio's options: the Country element only with
// ieee80211d=1, the regulatory domain from country_code either way; the
// flag without a country is refused with hostapd's reason.
func TestIEEE80211DOptions(t *testing.T) {
	for _, c := range []struct {
		text string
		args []string
		want bool
	}{
		{"ieee80211d=1\ncountry_code=DE\n", nil, true},
		{"ieee80211d=0\ncountry_code=DE\n", nil, false},
		{"country_code=DE\n", []string{"-ieee80211d"}, true},
	} {
		o, err := parseFlags(append([]string{"-phy", "phy0", "-config", writeConf(t, c.text)}, c.args...))
		if err != nil {
			t.Fatal(err)
		}
		if mo := o.monitorOptions(nil); mo.CountryElement != c.want || mo.Country != "DE" {
			t.Errorf("%q %v: Country element %v, domain %q", c.text, c.args, mo.CountryElement, mo.Country)
		}
	}
	if _, err := parseFlags([]string{"-phy", "phy0", "-ieee80211d"}); err == nil ||
		!strings.Contains(err.Error(), "-ieee80211d: cannot enable IEEE 802.11d without setting the country_code") {
		t.Errorf("-ieee80211d without a country: %v", err)
	}
}

// interface= names the radio: its phy, found among the kernel's
// interfaces; an unknown name says how to name the radio instead.
func TestPhyOfInterface(t *testing.T) {
	ifs := []nl80211.Interface{{Name: "wlan1", PHY: 1}, {Name: "wlan0", PHY: 0}}
	phys := []nl80211.PHY{{Index: 0, Name: "phy0"}, {Index: 1, Name: "phy1"}}
	if p, err := phyNamed(ifs, phys, "wlan1"); err != nil || p != "phy1" {
		t.Errorf("wlan1: %q %v", p, err)
	}
	if _, err := phyNamed(ifs, phys, "eth0"); err == nil || !strings.Contains(err.Error(), `interface: "eth0" is no wireless interface`) {
		t.Errorf("eth0: %v", err)
	}
	// With -radio nl80211, interface= stands in for -phy.
	path := filepath.Join(t.TempDir(), "airqd.conf")
	writeFile(t, path, "interface=wlan0\nssid=x\n")
	if _, err := parseFlags([]string{"-config", path}); err != nil {
		t.Errorf("interface= without -phy: %v", err)
	}
	writeFile(t, path, "ssid=x\n")
	if _, err := parseFlags([]string{"-config", path}); err == nil || !strings.Contains(err.Error(), "-phy: required") {
		t.Errorf("neither: %v", err)
	}
}

// A 40 MHz channel on 2.4 GHz is checked against its neighbours at start
// unless noscan=1; the simulator's check listens on its US plan.
func TestNoScanTurnsTheCoexCheckOff(t *testing.T) {
	path := writeConf(t, "ssid=main\nhw_mode=g\nchannel=6\nieee80211n=1\nht_capab=[HT40+]\n")
	o, err := parseFlags([]string{"-radio", "sim", "-control", "", "-config", path})
	if err != nil || o.Core.Coex == nil {
		t.Fatalf("without noscan: coex %v, %v", o.Core.Coex, err)
	}
	p, err := newSimPlay(o, 1, nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if c := p.Sim().Core().Config().Coex; c == nil || len(c.Channels) == 0 {
		t.Errorf("the simulator's check: %+v", c)
	}
	path = writeConf(t, "ssid=main\nhw_mode=g\nchannel=6\nieee80211n=1\nht_capab=[HT40+]\nnoscan=1\n")
	if o, err = parseFlags([]string{"-radio", "sim", "-control", "", "-config", path}); err != nil || o.Core.Coex != nil {
		t.Errorf("noscan=1: coex %v, %v", o.Core.Coex, err)
	}
}
