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

func TestFreqFlag(t *testing.T) {
	for _, c := range []struct {
		freq, channel int
	}{{2412, 1}, {2484, 14}, {5180, 36}, {5745, 149}} {
		o, err := parseFlags([]string{"-radio", "sim", "-country", "US", "-freq", strconv.Itoa(c.freq)})
		if err != nil {
			t.Errorf("-freq %d: %v", c.freq, err)
			continue
		}
		if o.Channel != c.channel || o.Core.Channel != c.channel || o.Core.Freq != c.freq {
			t.Errorf("-freq %d: channel %d, core %d/%d MHz", c.freq, o.Channel, o.Core.Channel, o.Core.Freq)
		}
		if _, err := ap.New(withBSSID(o.Core)); err != nil {
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
	if err != nil || o.Core.Channel != 11 || o.Core.Freq != 2462 {
		t.Errorf("-freq over channel=6: %v channel %d freq %d", err, o.Core.Channel, o.Core.Freq)
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
		return strings.Contains(d.log(), "deauthenticated a station the access lists or the PSKs now refuse") &&
			strings.Contains(d.log(), "airtime_weight=700")
	})
	if _, ok := associated()[first]; ok {
		t.Error("the denied station is still associated")
	}
	if !strings.Contains(d.log(), `why="refused by the access lists"`) || strings.Contains(d.log(), "removed by operator") {
		t.Errorf("the removal's cause is not the access lists:\n%s", d.log())
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

// A file of one BSS with airtime_mode=1, an airtime_sta_weight line and
// airtime_bss_cap=30 starts, and the core applies them: airqctl airtime
// shows the station's weight and the cap. SIGHUP with the cap gone and a
// new weight applies both live.
func TestDaemonAirtimePolicy(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "airqd.conf")
	const sta = "02:00:00:00:10:01"
	writeFile(t, conf, "ssid=air\nairtime_mode=1\nairtime_sta_weight="+sta+" 768\nairtime_bss_cap=30\n")
	d := startDaemon(t, "-config", conf, "-sim-stations", "1", "-sim-join", "1s")
	airtime := func() ctl.Airtime {
		var a ctl.Airtime
		d.ctlJSON(t, &a, "airtime")
		return a
	}
	waitUntil(t, "the station", 5*time.Second, func() bool { return len(airtime().Stations) == 1 })
	a := airtime()
	if a.Mode != 1 || a.BSSes[0].CapPercent != 30 || a.Stations[0].Weight != 768 || a.Stations[0].StaWeight != 768 {
		t.Errorf("airtime at start: %+v", a)
	}
	writeFile(t, conf, "ssid=air\nairtime_mode=1\nairtime_sta_weight="+sta+" 100\n")
	d.cmd.Process.Signal(syscall.SIGHUP)
	waitUntil(t, "the reload", 5*time.Second, func() bool { return strings.Contains(d.log(), "airtime_bss_cap=0") })
	a = airtime()
	if a.BSSes[0].CapPercent != 100 || a.Stations[0].Weight != 100 {
		t.Errorf("airtime after the reload: %+v", a)
	}
	if strings.Contains(d.log(), "restart airqd to apply it") {
		t.Error("a reloadable key asked for a restart")
	}
}
