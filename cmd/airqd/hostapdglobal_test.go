package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The global socket (-g) driven by Debian's hostapd_cli (-p DIR -i NAME
// raw, as tools without a global option do): airqd started without a BSS,
// ADD in each form, SET and ENABLE on the added BSS's socket (a key only
// a start applies restarts the radio), DISABLE, REMOVE and FLUSH; a
// second BSS on the radio is refused with the reason logged.
func TestHostapdGlobal(t *testing.T) {
	dir := t.TempDir()
	gdir, run := filepath.Join(dir, "global"), filepath.Join(dir, "run")
	conf := filepath.Join(dir, "bss.conf")
	writeFile(t, conf, "interface=wlan0\nssid=glob\nchannel=6\nctrl_interface="+run+"\n")
	d := startDaemon(t, "-g", filepath.Join(gdir, "hostapd"), "-ssid", "glob", "-channel", "6", "-sim-stations", "1", "-sim-join", "100ms")
	global := globalSocket(t, gdir)
	bss := func(args ...string) string {
		t.Helper()
		return cli(t, run, append([]string{"-i", "wlan0"}, args...)...)
	}
	joined := func() bool { return strings.Contains(bss("all_sta"), "[AUTHORIZED]") }
	wantReply(t, "PING", global("PING"), "PONG\n")
	wantReply(t, "INTERFACES before ADD", global("INTERFACES"), "")
	if _, err := os.Stat(run); !os.IsNotExist(err) {
		t.Errorf("a BSS socket before ADD: %v", err)
	}
	wantReply(t, "ADD of another radio", global("ADD bss_config=phy9:"+conf), "FAIL\n")
	wantReply(t, "ADD bss_config", global("ADD bss_config=sim:"+conf), "OK\n")
	wantReply(t, "INTERFACES ctrl", global("INTERFACES ctrl"), "wlan0 ctrl_iface="+run+"\n")
	waitUntil(t, "the station to join the added BSS", 10*time.Second, joined)
	wantReply(t, "ADD of a second BSS", global("ADD wlan1 "+run), "FAIL\n")
	// The refusal is logged after the reply, as hostapd's.
	waitUntil(t, "the second BSS's refusal in the log", 10*time.Second, func() bool {
		return strings.Contains(d.log(), "the radio's first BSS is there: REMOVE it first")
	})
	wantReply(t, "IFNAME= forwarding", strings.SplitN(global("IFNAME=wlan0 PING"), "\n", 2)[0], "PONG")

	wantReply(t, "REMOVE", global("REMOVE wlan0"), "OK\n")
	wantReply(t, "REMOVE again", global("REMOVE wlan0"), "FAIL\n")
	if _, err := os.Stat(filepath.Join(run, "wlan0")); !os.IsNotExist(err) {
		t.Errorf("the socket after REMOVE: %v", err)
	}
	wantReply(t, "ADD config=", global("ADD wlan0 config="+conf), "OK\n")
	if st := bss("status"); !strings.HasPrefix(st, "state=UNINITIALIZED\n") {
		t.Errorf("status before ENABLE:\n%s", st)
	}
	wantReply(t, "ENABLE", bss("enable"), "OK\n")
	waitUntil(t, "the station to join again", 10*time.Second, joined)

	wantReply(t, "REMOVE", global("REMOVE wlan0"), "OK\n")
	wantReply(t, "ADD IFNAME CTRL_DIR DRIVER", global("ADD wlan0 "+run+" nl80211"), "OK\n")
	wantReply(t, "SET beacon_int (another)", bss("raw", "SET beacon_int 200"), "OK\n")
	wantReply(t, "SET of an unknown key", bss("raw", "SET no_such_key 1"), "FAIL\n")
	// Another beacon interval takes a new start of the radio, as hostapd
	// builds an added interface afresh.
	wantReply(t, "ENABLE with another beacon interval", bss("enable"), "OK\n")
	waitUntil(t, "the radio's restart in the log", 10*time.Second, func() bool {
		return strings.Contains(d.log(), `msg="hostapd global control: the radio restarted with the added BSS's settings" keys=beacon_int`)
	})
	waitUntil(t, "the station to join the third time", 10*time.Second, joined)
	if st := bss("status"); !strings.Contains(st, "\nbeacon_int=200\n") {
		t.Errorf("status after the restart:\n%s", st)
	}
	wantReply(t, "DISABLE", bss("disable"), "OK\n")
	if st := bss("status"); !strings.HasPrefix(st, "state=DISABLED\n") || !strings.Contains(st, "num_sta[0]=0\n") {
		t.Errorf("status after DISABLE:\n%s", st)
	}
	wantReply(t, "FLUSH", global("FLUSH"), "OK\n")
	wantReply(t, "INTERFACES after FLUSH", global("INTERFACES"), "")
	wantReply(t, "an unknown global command", global("STATUS"), "FAIL\n")
}

// The global socket beside a file's bss= sections: INTERFACES lists every
// BSS and IFNAME= reaches a section's socket; an ADD that would take a
// section's name, or whose file has sections, is refused naming both,
// and so is REMOVE of a section while the radio runs; REMOVE of the first
// BSS takes the radio down, the sections with it, as hostapd removes the
// interface.
func TestHostapdGlobalBesideSections(t *testing.T) {
	dir := t.TempDir()
	gdir, run := filepath.Join(dir, "global"), filepath.Join(dir, "run")
	conf, other := filepath.Join(dir, "hostapd.conf"), filepath.Join(dir, "other.conf")
	writeFile(t, conf, "interface=wlan0\nssid=main\nchannel=6\nctrl_interface="+run+"\nbss=guest\nssid=guest\n")
	writeFile(t, other, "interface=wlan0\nssid=main\nchannel=6\nctrl_interface="+run+"\nbss=lab\nssid=lab\n")
	d := startDaemon(t, "-config", conf, "-g", filepath.Join(gdir, "hostapd"))
	global := globalSocket(t, gdir)
	logged := func(what, line string) {
		t.Helper()
		waitUntil(t, what, 10*time.Second, func() bool { return strings.Contains(d.log(), line) })
	}
	wantReply(t, "INTERFACES", global("INTERFACES ctrl"), "wlan0 ctrl_iface="+run+"\nguest ctrl_iface="+run+"\n")
	wantReply(t, "IFNAME=guest", strings.SplitN(global("IFNAME=guest PING"), "\n", 2)[0], "PONG")
	wantReply(t, "ADD of a section's name beside it", global("ADD guest "+run), "FAIL\n")
	logged("the name's refusal", "interface guest: the name of bss guest (line 5) of the file airqd runs")
	wantReply(t, "REMOVE of a section", global("REMOVE guest"), "FAIL\n")
	logged("the section's REMOVE refused", "interface guest is a bss= section of the file airqd runs")
	wantReply(t, "REMOVE of the first BSS", global("REMOVE wlan0"), "OK\n")
	wantReply(t, "INTERFACES after REMOVE", global("INTERFACES"), "")
	wantReply(t, "ADD of a section's name", global("ADD guest "+run), "FAIL\n")
	wantReply(t, "ADD of a file with sections", global("ADD bss_config=sim:"+other), "FAIL\n")
	logged("the sections' refusal", "bss lab (line 5): an added BSS's file has no bss= sections")
	wantReply(t, "ADD of the first BSS again", global("ADD wlan0 "+run), "OK\n")
	wantReply(t, "INTERFACES after ADD", global("INTERFACES"), "wlan0\nguest\n")
}

// globalSocket sends a command to the global socket in gdir, as
// hostapd_cli -i hostapd raw does, and returns the reply.
func globalSocket(t *testing.T, gdir string) func(cmd string) string {
	return func(cmd string) string {
		t.Helper()
		return cli(t, gdir, "-i", "hostapd", "raw", cmd)
	}
}

// wantReply fails the test, going on, when a reply is not w.
func wantReply(t *testing.T, what, got, w string) {
	t.Helper()
	if got != w {
		t.Errorf("%s: %q, want %q", what, got, w)
	}
}
