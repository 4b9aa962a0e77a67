package main

import (
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SET on a BSS's hostapd socket changes that BSS, as hostapd's SET acts
// on the socket's BSS: a BSS key set on the guest's socket lands in the
// guest's section (and RELOAD restarts the guest alone with it), one set
// on the first BSS's socket in the first section, whatever sections
// follow; a radio key from any socket is the radio's, and a radio key a
// reload cannot apply is refused on every socket.
func TestHostapdSetPerBSS(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "airqd.conf")
	writeFile(t, conf, reloadBSSes)
	rl, core := testReloaderCore(t, conf, io.Discard)
	first, guest := &hostapdBackend{rl: rl, srv: rl.srv}, &hostapdBackend{rl: rl, srv: rl.srv, bss: "guest"}
	if err := first.Set("airtime_bss_weight", "5"); err != nil {
		t.Fatal(err)
	}
	if err := guest.Set("ssid", "guest2"); err != nil {
		t.Fatalf("SET ssid on the guest's socket: %v", err)
	}
	if err := guest.Set("max_num_sta", "7"); err != nil {
		t.Fatalf("SET max_num_sta on the guest's socket: %v", err)
	}
	if err := guest.Set("aql_threshold", "20000"); err != nil { // the radio's, from the guest's socket
		t.Fatalf("SET aql_threshold on the guest's socket: %v", err)
	}
	for _, b := range []*hostapdBackend{first, guest} {
		if err := b.Set("beacon_int", "200"); err == nil || !strings.Contains(err.Error(), "only at start") {
			t.Errorf("SET beacon_int on %q's socket: %v, want refused: a radio key a reload cannot apply", b.bss, err)
		}
	}
	if err := guest.Set("bridge", "br-guest"); err == nil || !strings.Contains(err.Error(), "bss guest takes it only at start") {
		t.Errorf("SET bridge on the guest's socket: %v, want refused: only a start opens the wired side", err)
	}
	next, err := parseFlagsWith(rl.args, rl.staged)
	if err != nil {
		t.Fatal(err)
	}
	if next.BSSAirtime.Weight != 5 || next.BSSes[0].Settings.BSSAirtime.Weight != 1 || next.BSSes[1].Settings.BSSAirtime.Weight != 1 {
		t.Errorf("airtime_bss_weight on the first socket: first %d, guest %d, iot %d; want 5 1 1", next.BSSAirtime.Weight,
			next.BSSes[0].Settings.BSSAirtime.Weight, next.BSSes[1].Settings.BSSAirtime.Weight)
	}
	if next.Core.SSID != "main" || next.Core.BSSes[1].SSID != "iot" || next.Core.AQL.Threshold != 20000 {
		t.Errorf("the first BSS %q, iot %q, AQL threshold %d", next.Core.SSID, next.Core.BSSes[1].SSID, next.Core.AQL.Threshold)
	}
	if err := guest.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := core.Config()
	if c.SSID != "main" || c.BSSes[0].SSID != "guest2" || c.BSSes[0].MaxStations != 7 || c.BSSes[1].SSID != "iot" {
		t.Errorf("after RELOAD: main %q, guest %q (max %d), iot %q; want main, guest2 (7), iot", c.SSID, c.BSSes[0].SSID, c.BSSes[0].MaxStations, c.BSSes[1].SSID)
	}
}

// statusValue is key's value in a key=value reply.
func statusValue(reply, key string) string {
	for _, l := range strings.Split(reply, "\n") {
		if v, ok := strings.CutPrefix(l, key+"="); ok {
			return v
		}
	}
	return ""
}

// Each BSS of a file with bss= sections has its own hostapd socket, named
// after it, in its section's ctrl_interface or else the first section's:
// STATUS on each lists every BSS as hostapd's does, STA and
// DEAUTHENTICATE reach the socket's own BSS's stations only, GET_CONFIG
// is the socket's BSS's; a leftover socket is replaced, and every socket
// is gone once airqd exits.
func TestHostapdSocketsPerBSS(t *testing.T) {
	dir := t.TempDir()
	run, iotRun := filepath.Join(dir, "run"), filepath.Join(dir, "iot")
	if err := os.Mkdir(run, 0o770); err != nil {
		t.Fatal(err)
	}
	leftover, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: filepath.Join(run, "guest"), Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	leftover.Close()
	conf := filepath.Join(dir, "hostapd.conf")
	writeFile(t, conf, "interface=wlan0\nssid=main\nchannel=6\nctrl_interface="+run+"\n"+
		"bss=guest\nssid=guest\nbss=iot\nssid=iot\nctrl_interface="+iotRun+"\n")
	d := startDaemon(t, "-config", conf, "-sim-stations", "2")
	on := func(sockDir, iface string, args ...string) string {
		t.Helper()
		return cli(t, sockDir, append([]string{"-i", iface}, args...)...)
	}
	waitUntil(t, "two stations in the first BSS", 10*time.Second, func() bool {
		return strings.Count(on(run, "wlan0", "all_sta"), "\nflags=") == 2
	})
	var guestBSSID string
	for _, s := range []struct{ dir, iface string }{{run, "wlan0"}, {run, "guest"}, {iotRun, "iot"}} {
		st := on(s.dir, s.iface, "status")
		k := keys(st)
		want := []string{"bss[0]", "bssid[0]", "ssid[0]", "num_sta[0]", "bss[1]", "bssid[1]", "ssid[1]", "num_sta[1]",
			"bss[2]", "bssid[2]", "ssid[2]", "num_sta[2]"}
		if len(k) < len(want) || !slices.Equal(k[len(k)-len(want):], want) ||
			!strings.Contains(st, "\nbss[0]=wlan0\n") || !strings.Contains(st, "\nssid[0]=main\nnum_sta[0]=2\n") ||
			!strings.Contains(st, "\nbss[1]=guest\n") || !strings.Contains(st, "\nssid[1]=guest\nnum_sta[1]=0\n") ||
			!strings.Contains(st, "\nbss[2]=iot\n") || !strings.Contains(st, "\nssid[2]=iot\nnum_sta[2]=0\n") {
			t.Errorf("status on %s's socket:\n%s", s.iface, st)
		}
		guestBSSID = statusValue(st, "bssid[1]")
	}
	if guestBSSID == "" || guestBSSID == statusValue(on(run, "wlan0", "status"), "bssid[0]") {
		t.Errorf("the guest's BSSID %q", guestBSSID)
	}
	if got := on(run, "guest", "all_sta"); got != "" {
		t.Errorf("all_sta on the guest's socket: %q, want none: both stations are wlan0's", got)
	}
	gc := on(run, "guest", "get_config")
	if statusValue(gc, "ssid") != "guest" || statusValue(gc, "bssid") != guestBSSID {
		t.Errorf("get_config on the guest's socket:\n%s", gc)
	}
	if gc := on(run, "wlan0", "get_config"); statusValue(gc, "ssid") != "main" {
		t.Errorf("get_config on wlan0's socket:\n%s", gc)
	}
	first, _, _ := strings.Cut(on(run, "wlan0", "all_sta"), "\n")
	on(run, "guest", "deauthenticate", first)
	if n := strings.Count(on(run, "wlan0", "all_sta"), "\nflags="); n != 2 {
		t.Errorf("deauthenticate on the guest's socket of wlan0's station: wlan0 has %d stations, want 2", n)
	}
	if strings.Contains(d.log(), "control socket of the first BSS only") {
		t.Errorf("the sections' ctrl_interface is still warned about:\n%s", d.log())
	}
	if err := d.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = <-d.done
	d.done <- err // for the cleanup
	for _, p := range []string{filepath.Join(run, "wlan0"), filepath.Join(run, "guest"), filepath.Join(iotRun, "iot")} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s after airqd exits: %v", p, err)
		}
	}
}

// -hostapd-testing takes a section's socket as hostapd's control socket,
// and a section's DATA_TEST_CONFIG goes to its own TAP.
func TestHostapdTestingSections(t *testing.T) {
	run := t.TempDir()
	conf := writeConf(t, "ssid=m\nbss=guest\nssid=g\nctrl_interface="+run+"\n")
	o, err := parseFlags([]string{"-radio", "sim", "-control", "", "-hostapd-testing", "-config", conf})
	if err != nil {
		t.Fatalf("a section's ctrl_interface alone: %v", err)
	}
	o.Radio, o.Tap = "nl80211", "airq-tap0" // the TAPs of a real radio
	if got := o.bssTestIfname(0); got != "airq-tap0" {
		t.Errorf("the first BSS's test interface %q", got)
	}
	if got := o.bssTestIfname(1); got != "guest" {
		t.Errorf("the guest's test interface %q, want its TAP guest", got)
	}
}
