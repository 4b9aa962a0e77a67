package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/airq/airq/ctl"
	"github.com/airq/airq/shell"
)

// syncWriter is an output read while another goroutine writes it: a
// log, or a child process's stream that exec copies.
type syncWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// SIGHUP with a bss= section added restarts the radio with both BSSes
// and opens the section's hostapd socket; with it removed again, the
// radio restarts with one and the socket is gone; a file that fails to
// start leaves the previous configuration running, and says why.
func TestReloadSectionsRestartTheRadio(t *testing.T) {
	dir := t.TempDir()
	conf, sockDir := filepath.Join(dir, "airqd.conf"), filepath.Join(dir, "ctrl")
	one := "ctrl_interface=" + sockDir + "\nssid=main\nchannel=6\n"
	two := one + "bss=guest\nssid=guest\n"
	writeFile(t, conf, one)
	args := []string{"-radio", "sim", "-config", conf}
	cur, err := parseFlags(args)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := shell.ListenControl("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	var logs syncWriter
	log := slog.New(slog.NewTextHandler(&logs, nil))
	fake := &fakeRadio{runs: make(chan options, 4)}
	rl := &reloader{args: args, cur: cur, srv: srv, level: new(slog.LevelVar), log: log, radio: &radioRestarts{run: fake.run}}
	socks, err := startHostapd(cur, srv, rl, log)
	if err != nil {
		t.Fatal(err)
	}
	hs := &hostapdSockets{socks: socks}
	rl.sockets = hs
	t.Cleanup(hs.close)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- rl.radio.loop(ctx, cur, slog.New(slog.NewTextHandler(io.Discard, nil))) }()
	<-fake.runs
	guestSock := filepath.Join(sockDir, "guest")

	writeFile(t, conf, two)
	if err := rl.reloadFile(context.Background()); err != nil {
		t.Fatal(err)
	}
	if o := restarted(t, fake); len(o.Core.BSSes) != 1 || o.Core.BSSes[0].SSID != "guest" || !o.keepControl {
		t.Errorf("a section added: the radio restarted with %d sections %+v", len(o.Core.BSSes), o.Core.BSSes)
	}
	if _, err := os.Stat(guestSock); err != nil || len(rl.cur.BSSes) != 1 {
		t.Errorf("a section added: its socket: %v; running sections %d", err, len(rl.cur.BSSes))
	}
	if !strings.Contains(logs.String(), `restarting the radio with the new file; every station of every BSS is disconnected" running="" file=guest`) {
		t.Errorf("a section added: log:\n%s", logs.String())
	}

	writeFile(t, conf, one)
	if err := rl.reloadFile(context.Background()); err != nil {
		t.Fatal(err)
	}
	if o := restarted(t, fake); len(o.Core.BSSes) != 0 || o.Core.SSID != "main" {
		t.Errorf("the section removed: the radio restarted with %d sections", len(o.Core.BSSes))
	}
	if _, err := os.Stat(guestSock); !os.IsNotExist(err) || len(rl.cur.BSSes) != 0 {
		t.Errorf("the section removed: its socket: %v; running sections %d", err, len(rl.cur.BSSes))
	}

	writeFile(t, conf, strings.Replace(two, "ssid=main", "ssid=broken", 1))
	if err := rl.reloadFile(context.Background()); err == nil || !strings.Contains(err.Error(), "refused the channel") {
		t.Errorf("a file that cannot start: %v", err)
	}
	if o := <-fake.runs; len(o.Core.BSSes) != 0 || o.Core.SSID != "main" {
		t.Errorf("after the failed start: ssid %q with %d sections, want the previous configuration", o.Core.SSID, len(o.Core.BSSes))
	}
	if _, err := os.Stat(guestSock); !os.IsNotExist(err) || rl.cur.Core.SSID != "main" || len(rl.cur.BSSes) != 0 {
		t.Errorf("after the failed start: the section's socket %v; running %q with %d sections", err, rl.cur.Core.SSID, len(rl.cur.BSSes))
	}
	if !strings.Contains(logs.String(), `msg="reload: not applied; the previous configuration runs again" err=`) ||
		!strings.Contains(logs.String(), "refused the channel") {
		t.Errorf("after the failed start: log:\n%s", logs.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Error(err)
	}
}

// restarted is the start the reload just made: the fake radio reports it
// before it is ready, so before the reload returns.
func restarted(t *testing.T, fake *fakeRadio) options {
	t.Helper()
	select {
	case o := <-fake.runs:
		return o
	default:
		t.Fatal("the reload did not restart the radio")
		return options{}
	}
}

// With -g the global socket's slot holds the sections' sockets: a
// SIGHUP's section added restarts the radio (every station disconnected,
// joining again), its socket opens and INTERFACES lists it, IFNAME=
// reaches it; removed (by RELOAD on its own socket), it is gone from
// both. With the first BSS removed
// through the global socket, an added section's radio restarts with the
// BSS off, and the next ADD and ENABLE bring both.
func TestReloadSectionsWithGlobalSocket(t *testing.T) {
	dir := t.TempDir()
	gdir, run, conf := filepath.Join(dir, "global"), filepath.Join(dir, "run"), filepath.Join(dir, "airqd.conf")
	one := "interface=wlan0\nssid=main\nchannel=6\nctrl_interface=" + run + "\n"
	two := one + "bss=guest\nssid=guest\n"
	writeFile(t, conf, one)
	d := startDaemon(t, "-config", conf, "-g", filepath.Join(gdir, "hostapd"), "-sim-stations", "2", "-sim-join", "100ms")
	expect := d.events(t)
	waitAssociated(t, d, 2, 10*time.Second)
	global := globalSocket(t, gdir)
	const first, second = "02:00:00:00:10:01", "02:00:00:00:10:02"
	guestSock := filepath.Join(run, "guest")
	wantReply(t, "INTERFACES", global("INTERFACES ctrl"), "wlan0 ctrl_iface="+run+"\n")

	writeFile(t, conf, two)
	d.cmd.Process.Signal(syscall.SIGHUP)
	expect("<3>AP-STA-DISCONNECTED "+first, "<3>AP-STA-DISCONNECTED "+second)
	expect("IFNAME=wlan0 <3>AP-STA-CONNECTED "+first, "IFNAME=wlan0 <3>AP-STA-CONNECTED "+second)
	wantReply(t, "INTERFACES with the section added", global("INTERFACES ctrl"), "wlan0 ctrl_iface="+run+"\nguest ctrl_iface="+run+"\n")
	wantReply(t, "IFNAME=guest", strings.SplitN(global("IFNAME=guest PING"), "\n", 2)[0], "PONG")
	if _, err := os.Stat(guestSock); err != nil {
		t.Errorf("the section added: its socket: %v", err)
	}

	// RELOAD on the section's own socket, which the file no longer has:
	// the socket closes once its command is answered.
	writeFile(t, conf, one)
	wantReply(t, "RELOAD on the removed section's socket", cli(t, run, "-i", "guest", "raw", "RELOAD"), "OK\n")
	expect("IFNAME=wlan0 <3>AP-STA-DISCONNECTED "+first, "IFNAME=wlan0 <3>AP-STA-DISCONNECTED "+second)
	expect("<3>AP-STA-CONNECTED "+first, "<3>AP-STA-CONNECTED "+second)
	wantReply(t, "INTERFACES with the section removed", global("INTERFACES ctrl"), "wlan0 ctrl_iface="+run+"\n")
	wantReply(t, "IFNAME=guest removed", global("IFNAME=guest PING"), "FAIL\n")
	waitUntil(t, "the removed section's socket to close", 10*time.Second, func() bool {
		_, err := os.Stat(guestSock)
		return os.IsNotExist(err)
	})

	wantReply(t, "REMOVE of the first BSS", global("REMOVE wlan0"), "OK\n")
	expect("<3>AP-STA-DISCONNECTED "+first, "<3>AP-STA-DISCONNECTED "+second)
	writeFile(t, conf, two)
	d.cmd.Process.Signal(syscall.SIGHUP)
	waitUntil(t, "the radio's restart with the section, the first BSS off", 10*time.Second, func() bool {
		return strings.Contains(d.log(), `msg="reload: the radio restarted with the file's bss= sections" bss=guest`) &&
			strings.Count(d.log(), `msg="reload: the radio restarted with the file's bss= sections"`) == 3
	})
	wantReply(t, "INTERFACES with the first BSS removed", global("INTERFACES"), "")
	wantReply(t, "ADD of the first BSS", global("ADD wlan0 "+run), "OK\n")
	wantReply(t, "INTERFACES after ADD", global("INTERFACES"), "wlan0\nguest\n")
	// ENABLE fails on a radio already on: the restart kept it off.
	wantReply(t, "ENABLE", cli(t, run, "enable"), "OK\n")
	expect("IFNAME=wlan0 <3>AP-STA-CONNECTED "+first, "IFNAME=wlan0 <3>AP-STA-CONNECTED "+second)
}

// On the simulated radio a SIGHUP's bss= sections added, then removed
// (by RELOAD on the section's own socket), restart the radio as on a
// real one: every station disconnected, the
// section's BSS and hostapd socket made, then closed; the simulation's
// stations join the first BSS again, and its virtual clock goes on from
// where it stopped. A file that fails to start (no channel for automatic
// selection) is logged with its reason and the previous configuration
// runs again, its section's socket open, its stations back.
func TestReloadSectionsOnTheSimulatedRadio(t *testing.T) {
	dir := t.TempDir()
	conf, run := filepath.Join(dir, "airqd.conf"), filepath.Join(dir, "run")
	one := "interface=wlan0\nssid=main\nchannel=6\nctrl_interface=" + run + "\n"
	two := one + "bss=guest\nssid=guest\n"
	writeFile(t, conf, one)
	d := startDaemon(t, "-config", conf, "-sim-stations", "2", "-sim-join", "100ms")
	expect := d.events(t)
	waitAssociated(t, d, 2, 10*time.Second)
	const first, second = "02:00:00:00:10:01", "02:00:00:00:10:02"
	guestSock := filepath.Join(run, "guest")
	restarts := 0
	// before and after prefix the events of the BSSes before the reload
	// and after it: with several, their lines name the BSS, as hostapd's
	// global socket's do. by makes the reload: SIGHUP, or RELOAD on a
	// socket.
	hup := func() { d.cmd.Process.Signal(syscall.SIGHUP) }
	reload := func(what, file, before, after string, by func()) {
		t.Helper()
		writeFile(t, conf, file)
		by()
		expect(before+"<3>AP-STA-DISCONNECTED "+first, before+"<3>AP-STA-DISCONNECTED "+second)
		expect(after+"<3>AP-STA-CONNECTED "+first, after+"<3>AP-STA-CONNECTED "+second)
		restarts++
		waitUntil(t, what+": the simulation's new start", 10*time.Second, func() bool {
			return len(simClock(t, d.log(), "simulated radio up")) > restarts
		})
	}
	devs := func() []string {
		var ds []ctl.Dev
		d.ctlJSON(t, &ds, "dev")
		var names []string
		for _, x := range ds {
			names = append(names, x.Name+"/"+x.SSID)
		}
		return names
	}
	inFirst := func(what string) {
		t.Helper()
		waitAssociated(t, d, 2, 10*time.Second)
		var st []ctl.Station
		d.ctlJSON(t, &st, "station", "dump")
		for _, s := range st {
			if s.BSS == "guest" {
				t.Errorf("%s: station %v joined the guest BSS, not the first it was in", what, s.Addr)
			}
		}
	}

	reload("a section added", two, "", "IFNAME=wlan0 ", hup)
	if got := strings.Join(devs(), " "); got != "wlan0/main guest/guest" {
		t.Errorf("a section added: the BSSes %q", got)
	}
	if _, err := os.Stat(guestSock); err != nil {
		t.Errorf("a section added: its socket: %v", err)
	}
	inFirst("a section added")

	reload("a file that cannot start", strings.Replace(one, "channel=6", "channel=0\nchanlist=15", 1), "IFNAME=wlan0 ", "IFNAME=wlan0 ", hup)
	if !strings.Contains(d.log(), `msg="reload: not applied; the previous configuration runs again" err="restarting the radio with bss= sections \"\": sim: channel: 0 (automatic selection) needs a candidate channel`) {
		t.Errorf("a file that cannot start: log:\n%s", d.log())
	}
	if got := strings.Join(devs(), " "); got != "wlan0/main guest/guest" {
		t.Errorf("a file that cannot start: the BSSes %q", got)
	}
	if _, err := os.Stat(guestSock); err != nil {
		t.Errorf("a file that cannot start: the running section's socket: %v", err)
	}
	inFirst("after the failed start")

	// RELOAD on the section's own socket, which the file no longer has:
	// the socket closes once its command is answered.
	reload("the section removed", one, "IFNAME=wlan0 ", "", func() {
		if got := cli(t, run, "-i", "guest", "raw", "RELOAD"); got != "OK\n" {
			t.Errorf("RELOAD on the removed section's socket: %q", got)
		}
	})
	if got := strings.Join(devs(), " "); got != "wlan0/main" {
		t.Errorf("the section removed: the BSSes %q", got)
	}
	waitUntil(t, "the removed section's socket to close", 10*time.Second, func() bool {
		_, err := os.Stat(guestSock)
		return os.IsNotExist(err)
	})
	inFirst("the section removed")

	// Each start of the simulation takes up its clock where the one
	// before stopped.
	ups, stops := simClock(t, d.log(), "simulated radio up"), simClock(t, d.log(), "simulation stopped")
	if len(ups) != 4 || len(stops) != 3 {
		t.Fatalf("%d starts and %d stops of the simulation, want 4 and 3", len(ups), len(stops))
	}
	for i, stop := range stops {
		if ups[i+1] != stop || stop < ups[i] {
			t.Errorf("start %d at %v, after a stop at %v; the start before at %v", i+2, ups[i+1], stop, ups[i])
		}
	}
}

// simClock is the virtual time of each log line with msg.
func simClock(t *testing.T, log, msg string) []time.Duration {
	t.Helper()
	var out []time.Duration
	for _, m := range regexp.MustCompile(`msg="`+msg+`" .*virtual=(\S+)`).FindAllStringSubmatch(log, -1) {
		v, err := time.ParseDuration(m[1])
		if err != nil {
			t.Fatalf("%s: virtual=%s: %v", msg, m[1], err)
		}
		out = append(out, v)
	}
	return out
}

// A simulated station of a bss= section (the scenario's bss=) rejoins its
// section after a restart: a file without the section leaves it
// disconnected, looking for its network, while the first BSS's station
// joins again; the section back, under another SSID, the station joins it.
func TestReloadSectionsSimStationOfASection(t *testing.T) {
	dir := t.TempDir()
	conf, scn := filepath.Join(dir, "airqd.conf"), filepath.Join(dir, "guest.scn")
	one := "interface=wlan0\nssid=main\nchannel=6\nctrl_interface=" + filepath.Join(dir, "run") + "\n"
	writeFile(t, conf, one+"bss=guest\nssid=guest\n")
	writeFile(t, scn, "traffic=ping\nbss=guest traffic=ping\n")
	d := startDaemon(t, "-config", conf, "-sim-scenario", scn, "-sim-join", "100ms")
	expect := d.events(t)
	waitAssociated(t, d, 2, 10*time.Second)
	const first, second = "02:00:00:00:10:01", "02:00:00:00:10:02"

	writeFile(t, conf, one)
	d.cmd.Process.Signal(syscall.SIGHUP)
	expect("IFNAME=wlan0 <3>AP-STA-DISCONNECTED "+first, "IFNAME=guest <3>AP-STA-DISCONNECTED "+second)
	expect("<3>AP-STA-CONNECTED " + first)
	var st []ctl.Station
	d.ctlJSON(t, &st, "station", "dump")
	if len(st) != 1 || st[0].Addr.String() != first {
		t.Errorf("without the section: stations %+v, want %s alone", st, first)
	}

	writeFile(t, conf, one+"bss=guest\nssid=guest2\n")
	d.cmd.Process.Signal(syscall.SIGHUP)
	expect("<3>AP-STA-DISCONNECTED " + first)
	expect("IFNAME=wlan0 <3>AP-STA-CONNECTED "+first, "IFNAME=guest <3>AP-STA-CONNECTED "+second)
}
