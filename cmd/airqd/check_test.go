package main

import (
	"bytes"
	"flag"
	"net"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/ieee80211"
)

var updateGolden = flag.Bool("update", false, "rewrite the -check-config golden files in testdata")

// -check-config on a file of several BSSes lists every problem at once,
// each naming its section and line, the refusal of what airqd does not
// serve yet among them; the exit status says airqd would not start.
func TestCheckConfigSectionsGolden(t *testing.T) {
	var out bytes.Buffer
	o, err := parseFlags([]string{"-radio", "sim", "-control", "", "-check-config", "testdata/multibss.conf"})
	if status := checkConfig(o, err, &out); status != 2 {
		t.Errorf("exit status %d, want 2", status)
	}
	const golden = "testdata/multibss.golden"
	if *updateGolden {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("-check-config says\n%s\nwant (%s; -update rewrites it)\n%s", out.Bytes(), golden, want)
	}
}

// A file of several BSSes starts, a secured one beside the first
// included, each section's keys in its own BSS of the core; a file of one
// BSS starts, an airtime policy and cap included, and the core gets them.
func TestSectionsStart(t *testing.T) {
	path := writeConf(t, "ssid=main\nbss=guest\nssid=guest net\nignore_broadcast_ssid=1\ndtim_period=3\nmax_num_sta=20\nbssid=02:00:00:00:0a:01\nap_isolate=1\n")
	o, err := parseFlags([]string{"-radio", "sim", "-control", "", "-config", path})
	if err != nil {
		t.Fatalf("two BSSes: %v", err)
	}
	want := ap.BSSConfig{Name: "guest", SSID: "guest net", HideSSID: true, DTIMPeriod: 3, MaxStations: 20, BSSID: ieee80211.MAC{2, 0, 0, 0, 0x0a, 1}, APIsolate: true}
	if len(o.Core.BSSes) != 1 || !reflect.DeepEqual(o.Core.BSSes[0], want) || o.Core.Name != "airq0" {
		t.Errorf("the core's BSSes: %s %+v, want %+v", o.Core.Name, o.Core.BSSes, want)
	}
	path = writeConf(t, "ssid=main\nbss=guest\nssid=guest\nwpa=2\nwpa_key_mgmt=WPA-PSK\nrsn_pairwise=CCMP\nwpa_passphrase=12345678\n")
	if o, err = parseFlags([]string{"-radio", "sim", "-control", "", "-config", path}); err != nil {
		t.Fatalf("a secured BSS beside the first: %v", err)
	}
	if len(o.Core.BSSes) != 1 || o.Core.BSSes[0].RSN == nil || o.Core.RSN != nil {
		t.Errorf("a secured guest beside an open first BSS: first %v, guest %+v", o.Core.RSN, o.Core.BSSes)
	}
	path = writeConf(t, "ssid=main\nchannel=36\nhw_mode=a\ncountry_code=US\nieee80211n=1\nieee80211ac=1\ndisable_11n=1\nmulticast_to_unicast=1\n"+
		"bss=guest\nssid=guest\nwmm_enabled=0\nbss=iot\nssid=iot\ndisable_11ac=1\nmulticast_to_unicast=1\n")
	if o, err = parseFlags([]string{"-radio", "sim", "-control", "", "-config", path}); err != nil {
		t.Fatalf("sections with their own wmm_enabled, disable_11n, disable_11ac, multicast_to_unicast: %v", err)
	}
	if c := o.Core; !c.PHY.VHT || !c.NoHT || !c.WMM || !c.MulticastToUnicast || len(c.BSSes) != 2 {
		t.Errorf("the first BSS: VHT radio %v, no HT %v, WMM %v, multicast to unicast %v, %d BSSes beside", c.PHY.VHT, c.NoHT, c.WMM, c.MulticastToUnicast, len(c.BSSes))
	} else if g, i := c.BSSes[0], c.BSSes[1]; !g.NoWMM || g.NoHT || g.NoVHT || g.MulticastToUnicast || i.NoWMM || i.NoHT || !i.NoVHT || !i.MulticastToUnicast {
		t.Errorf("guest %+v, iot %+v", g, i)
	}
	if o.Core.AMSDU != 11424 {
		t.Errorf("A-MSDUs of %d octets for the VHT guest", o.Core.AMSDU)
	}
	// With every BSS's HT off the radio keeps its HT channel and builds no
	// A-MSDUs.
	path = writeConf(t, "ssid=main\nieee80211n=1\nht_capab=[HT40+]\ndisable_11n=1\nbss=guest\nssid=guest\ndisable_11n=1\n")
	if o, err = parseFlags([]string{"-radio", "sim", "-control", "", "-config", path}); err != nil {
		t.Fatalf("HT off in every BSS: %v", err)
	}
	if c := o.Core; !c.PHY.HT || c.PHY.Width != 40 || c.AMSDU != 0 {
		t.Errorf("HT off in every BSS: the radio's HT %v at %d MHz, A-MSDUs of %d octets", c.PHY.HT, c.PHY.Width, c.AMSDU)
	}
	path = writeConf(t, "ssid=main\nairtime_mode=0\nairtime_bss_cap=100\n")
	if _, err := parseFlags([]string{"-radio", "sim", "-control", "", "-config", path}); err != nil {
		t.Errorf("one BSS, no policy: %v", err)
	}
	path = writeConf(t, "ssid=main\nairtime_mode=1\nairtime_sta_weight=02:00:00:00:10:01 768\nairtime_bss_cap=30\n")
	o, err = parseFlags([]string{"-radio", "sim", "-control", "", "-config", path})
	if err != nil {
		t.Fatalf("one BSS with an airtime policy and cap: %v", err)
	}
	if c := o.Core.Airtime; c.Mode != 1 || len(c.BSS) != 1 || c.BSS[0].CapPercent != 30 || c.BSS[0].StaWeights[ieee80211.MAC{2, 0, 0, 0, 0x10, 1}] != 768 {
		t.Errorf("the core's airtime policy: %+v", c)
	}
}

// -check-config passes a file whose sections set their own
// ap_max_inactivity, admission timers, utf8_ssid and BSS Load keys
// otherwise than the first BSS, and airqd gives each BSS of the core its
// section's values.
func TestCheckConfigSectionsOwnTimers(t *testing.T) {
	path := writeConf(t, "ssid=main\nap_max_inactivity=60\nbss_load_update_period=10\n"+
		"bss=guest\nssid=guest\nap_max_inactivity=900\nauth_timeout=2s\nassoc_resp_timeout=1s\nutf8_ssid=1\nbss_load_update_period=20\nchan_util_avg_period=40\n")
	var out bytes.Buffer
	o, err := parseFlags([]string{"-radio", "sim", "-control", "", "-check-config", path})
	if status := checkConfig(o, err, &out); status != 0 || strings.Contains(out.String(), "per BSS") {
		t.Fatalf("exit status %d:\n%s", status, out.String())
	}
	o, err = parseFlags([]string{"-radio", "sim", "-control", "", "-config", path})
	if err != nil {
		t.Fatal(err)
	}
	want := ap.BSSConfig{Name: "guest", SSID: "guest", DTIMPeriod: 2, MaxStations: 2007, InactivityTimeout: 15 * time.Minute,
		AuthTimeout: 2 * time.Second, AssocResponseTimeout: time.Second, UTF8SSID: true, BSSLoadPeriod: 20, ChanUtilAvgPeriod: 40}
	if len(o.Core.BSSes) != 1 || !reflect.DeepEqual(o.Core.BSSes[0], want) || o.Core.InactivityTimeout != time.Minute || o.Core.Advert.BSSLoadPeriod != 10 {
		t.Errorf("the core's BSSes: %+v, want %+v", o.Core.BSSes, want)
	}
}

// A TAP this process holds open (a running BSS's, on a reload) is not in
// the way of the section that names it; another process's interface is.
func TestSystemNetdevsOwnTAPs(t *testing.T) {
	ifs, err := net.Interfaces()
	if err != nil || len(ifs) == 0 {
		t.Fatalf("no interfaces: %v", err)
	}
	held := ifs[0].Name
	fdinfo := fstest.MapFS{
		"3": {Data: []byte("pos:\t0\nflags:\t02\nmnt_id:\t25\nino:\t1037\n")},
		"7": {Data: []byte("pos:\t0\nflags:\t02004002\nmnt_id:\t25\nino:\t1055\niff:\t" + held + "\n")},
	}
	nd := &systemNetdevs{fdinfo: fdinfo}
	if ok, err := nd.Exists(held); ok || err != nil {
		t.Errorf("%s, held open by this process: exists %v (%v), want not in the way", held, ok, err)
	}
	if len(ifs) > 1 {
		if ok, err := nd.Exists(ifs[1].Name); !ok || err != nil {
			t.Errorf("%s: exists %v (%v)", ifs[1].Name, ok, err)
		}
	}
}

// The system's interfaces are those net lists: one that exists is found,
// a name none has is not.
func TestSystemNetdevs(t *testing.T) {
	ifs, err := net.Interfaces()
	if err != nil || len(ifs) == 0 {
		t.Fatalf("no interfaces: %v", err)
	}
	nd := new(systemNetdevs)
	if ok, err := nd.Exists(ifs[0].Name); !ok || err != nil {
		t.Errorf("%s: %v %v", ifs[0].Name, ok, err)
	}
	if ok, err := nd.Exists("airq-none-x"); ok || err != nil {
		t.Errorf("airq-none-x: %v %v", ok, err)
	}
}

// A file of several BSSes that leaves the channel to the start-up
// selection is refused at the channel's line: the core selects with one
// BSS only.
func TestSeveralBSSesNeedAChannel(t *testing.T) {
	path := writeConf(t, "ssid=main\nchannel=0\nbss=guest\nssid=guest\n")
	_, err := parseFlags([]string{"-radio", "sim", "-control", "", "-config", path})
	if err == nil || !strings.Contains(err.Error(), "interface airq0: line 2: channel: 0 (chosen at start) takes one BSS") {
		t.Errorf("%v", err)
	}
	path = writeConf(t, "ssid=main\nchannel=0\n")
	if _, err := parseFlags([]string{"-radio", "sim", "-control", "", "-config", path}); err != nil {
		t.Errorf("one BSS, ACS: %v", err)
	}
}
