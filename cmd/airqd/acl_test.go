package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
)

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func mac(t *testing.T, s string) ieee80211.MAC {
	t.Helper()
	m, err := ieee80211.ParseMAC(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// hostapd's list format: comments, blank lines, removal lines; repeated
// keys add to the list.
func TestACLFiles(t *testing.T) {
	dir := t.TempDir()
	accept, deny, deny2 := filepath.Join(dir, "accept"), filepath.Join(dir, "deny"), filepath.Join(dir, "deny2")
	writeFile(t, accept, "# trusted\n02:00:00:00:10:01\n\n  02:00:00:00:10:02  \r\n02-00-00-00-10-03\n")
	writeFile(t, deny, "02:00:00:00:10:04\n02:00:00:00:10:05\n")
	writeFile(t, deny2, "# later file\n-02:00:00:00:10:04\n02:00:00:00:10:06\n")
	conf := writeConf(t, "macaddr_acl=1\naccept_mac_file="+accept+"\ndeny_mac_file="+deny+"\ndeny_mac_file="+deny2+"\n")
	o, err := parseFlags([]string{"-radio", "sim", "-config", conf})
	if err != nil {
		t.Fatal(err)
	}
	acl := o.core.ACL
	if acl.Mode != ap.ACLDenyUnlessAccepted || len(acl.Accept) != 3 || len(acl.Deny) != 2 {
		t.Fatalf("acl %+v", acl)
	}
	for s, want := range map[string]bool{"02:00:00:00:10:01": true, "02:00:00:00:10:03": true,
		"02:00:00:00:10:04": false, "02:00:00:00:10:05": false, "02:00:00:00:10:07": false} {
		if acl.Allows(mac(t, s)) != want {
			t.Errorf("%s: allowed %v", s, !want)
		}
	}
	if _, ok := acl.Deny[mac(t, "02:00:00:00:10:06")]; !ok {
		t.Error("the second deny_mac_file's address is missing")
	}
	// Without the keys everyone is admitted.
	o, err = parseFlags([]string{"-radio", "sim"})
	if err != nil || o.core.ACL.Mode != ap.ACLAcceptUnlessDenied || !o.core.ACL.Allows(mac(t, "02:00:00:00:10:01")) {
		t.Errorf("default acl %+v, %v", o.core.ACL, err)
	}
}

// A bad entry names the configuration line, the list file, its line and
// the entry.
func TestACLFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ list, want string }{
		{"02:00:00:00:10:01\nzz:00:00:00:10:01\n", `:2: "zz:00:00:00:10:01" is not a station's MAC address`},
		{"# c\n02:00:00:00:10:01 5\n", `:2: 02:00:00:00:10:01 5: a VLAN id after the address is not supported`},
		{"02:00:00:00:10:01\tvlan7\n", `:1: 02:00:00:00:10:01 vlan7: a VLAN id`},
		{"ff:ff:ff:ff:ff:ff\n", `:1: "ff:ff:ff:ff:ff:ff" is not a station's MAC address`},
		{"02:00:00:00:10:01:\n", `:1: "02:00:00:00:10:01:" is not`},
		{"-02:00:00:00:10:01 1\n", `:1: -02:00:00:00:10:01 1: unexpected text after the address`},
	} {
		list := filepath.Join(dir, "deny")
		writeFile(t, list, c.list)
		conf := writeConf(t, "ssid=x\ndeny_mac_file="+list+"\n")
		_, err := parseFlags([]string{"-radio", "sim", "-config", conf})
		if err == nil || !strings.HasPrefix(err.Error(), conf+":2: deny_mac_file: "+list+c.want[:2]) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %s:2: deny_mac_file: %s%s", c.list, err, conf, list, c.want)
		}
	}
	conf := writeConf(t, "deny_mac_file="+dir+"\n")
	if _, err := parseFlags([]string{"-radio", "sim", "-config", conf}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
}

func TestFreqFlag(t *testing.T) {
	for _, c := range []struct {
		freq, channel int
	}{{2412, 1}, {2484, 14}, {5180, 36}, {5745, 149}} {
		o, err := parseFlags([]string{"-radio", "sim", "-country", "US", "-freq", strconv.Itoa(c.freq)})
		if err != nil {
			t.Errorf("-freq %d: %v", c.freq, err)
			continue
		}
		if o.channel != c.channel || o.core.Channel != c.channel || o.core.Freq != c.freq {
			t.Errorf("-freq %d: channel %d, core %d/%d MHz", c.freq, o.channel, o.core.Channel, o.core.Freq)
		}
		if _, err := ap.New(withBSSID(o.core)); err != nil {
			t.Errorf("-freq %d: the core refuses: %v", c.freq, err)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-freq", "2412", "-channel", "6"}, "-channel 6 and -freq 2412: give one of them"},
		{[]string{"-freq", "2413"}, "-freq: 2413 MHz is not a 2.4 GHz (2412-2484) or 5 GHz (5180-5885) channel's centre frequency"},
		{[]string{"-freq", "0"}, "-freq: 0 MHz is not"},
		{[]string{"-freq", "5955"}, "-freq: 5955 MHz is not"},
	} {
		if _, err := parseFlags(append([]string{"-radio", "sim"}, c.args...)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
	// -freq wins over the file's channel, as any flag over its key.
	conf := writeConf(t, "channel=6\nhw_mode=g\n")
	o, err := parseFlags([]string{"-radio", "sim", "-config", conf, "-freq", "2462"})
	if err != nil || o.core.Channel != 11 || o.core.Freq != 2462 {
		t.Errorf("-freq over channel=6: %v channel %d freq %d", err, o.core.Channel, o.core.Freq)
	}
}

func withBSSID(c ap.Config) ap.Config {
	c.BSSID = ieee80211.MAC{0x02, 0, 0, 0, 0x01, 0}
	return c
}

// SIGHUP swaps the access lists live: a station the new deny list names is
// deauthenticated, one it names that had not joined yet is refused, the
// others stay; the default airtime weight reaches stations associating
// afterwards. The simulated stations join 2 s apart and do not reconnect.
func TestDaemonReloadACL(t *testing.T) {
	dir := t.TempDir()
	conf, deny := filepath.Join(dir, "airqd.conf"), filepath.Join(dir, "deny")
	const first, second, third = "02:00:00:00:10:01", "02:00:00:00:10:02", "02:00:00:00:10:03"
	writeFile(t, deny, "# not the first yet\n"+second+"\n")
	writeFile(t, conf, "ssid=acl\nairtime_weight=300\ndeny_mac_file="+deny+"\n")
	d := startDaemon(t, "-config", conf, "-sim-stations", "3", "-sim-join", "2s")
	associated := func() map[string]ctl.Station {
		var st []ctl.Station
		d.ctlJSON(t, &st, "station", "dump")
		m := map[string]ctl.Station{}
		for _, s := range st {
			if s.Associated {
				m[s.Addr.String()] = s
			}
		}
		return m
	}
	waitUntil(t, "the first station", 5*time.Second, func() bool { _, ok := associated()[first]; return ok })
	if w := associated()[first].AirtimeWeight; w != 300 {
		t.Errorf("weight %d, want the file's 300", w)
	}

	writeFile(t, deny, first+"\n"+second+"\n")
	writeFile(t, conf, "ssid=acl\nairtime_weight=700\ndeny_mac_file="+deny+"\n")
	d.cmd.Process.Signal(syscall.SIGHUP)
	waitUntil(t, "the denied station's removal", 5*time.Second, func() bool {
		return strings.Contains(d.log(), "deauthenticated a station the access lists now refuse") &&
			strings.Contains(d.log(), "airtime_weight=700")
	})
	if _, ok := associated()[first]; ok {
		t.Error("the denied station is still associated")
	}
	waitUntil(t, "the third station", 10*time.Second, func() bool { _, ok := associated()[third]; return ok })
	if !strings.Contains(d.log(), "station refused by the access lists") || !strings.Contains(d.log(), "addr="+second) {
		t.Error("no refusal logged for the second station")
	}
	a := associated()
	if _, ok := a[second]; ok || len(a) != 1 {
		t.Errorf("associated: %v", a)
	}
	if a[third].AirtimeWeight != 700 {
		t.Errorf("weight of the station that joined after the reload: %d, want 700", a[third].AirtimeWeight)
	}
	if strings.Contains(d.log(), "restart airqd to apply it") {
		t.Error("a reloadable key asked for a restart")
	}
}
