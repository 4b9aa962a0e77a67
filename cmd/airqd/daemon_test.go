package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/airq/airq/ctl"
)

// The binaries under test live in a directory TestMain makes and removes;
// the first test that needs them builds them (fuzzing workers, which run
// TestMain too, never do).
var (
	binDir               string
	airqdBin, airqctlBin string
	buildOnce            sync.Once
	buildErr             error
)

func TestMain(m *testing.M) {
	os.Exit(withBinDir(m))
}

func withBinDir(m *testing.M) int {
	dir, err := os.MkdirTemp("", "airqd-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binDir = dir
	return m.Run()
}

// binaries builds airqd and airqctl once.
func binaries(t *testing.T) {
	t.Helper()
	buildOnce.Do(func() {
		airqdBin, airqctlBin = filepath.Join(binDir, "airqd"), filepath.Join(binDir, "airqctl")
		for bin, pkg := range map[string]string{airqdBin: ".", airqctlBin: "../airqctl"} {
			// Without -race: the 1 s bound on SIGTERM is about the binary
			// as shipped; the package's own tests run under -race.
			if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("building %s: %v\n%s", pkg, err, out)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
}

// airqdProc is one airqd -radio sim process.
type airqdProc struct {
	cmd    *exec.Cmd
	socket string
	stderr syncWriter // exec copies airqd's stderr into it
	done   chan error
}

func (d *airqdProc) log() string { return d.stderr.String() }

// startDaemon runs airqd -radio sim with a control socket in a fresh
// directory and waits until it answers.
func startDaemon(t *testing.T, args ...string) *airqdProc {
	t.Helper()
	return startDaemonEnv(t, nil, args...)
}

// startDaemonEnv is startDaemon with env added to airqd's environment.
func startDaemonEnv(t *testing.T, env []string, args ...string) *airqdProc {
	t.Helper()
	binaries(t)
	d := &airqdProc{socket: filepath.Join(t.TempDir(), "airqd.sock"), done: make(chan error, 1)}
	d.cmd = exec.Command(airqdBin, append([]string{"-radio", "sim", "-control", d.socket}, args...)...)
	d.cmd.Env = append(os.Environ(), env...)
	d.cmd.Stderr = &d.stderr
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { d.done <- d.cmd.Wait() }()
	t.Cleanup(func() {
		d.cmd.Process.Kill()
		<-d.done
		if t.Failed() {
			t.Logf("airqd's log:\n%s", d.log())
		}
	})
	waitUntil(t, "airqd to answer", 10*time.Second, func() bool {
		_, _, err := d.ctl("status")
		return err == nil
	})
	return d
}

// ctl runs airqctl against the airqdProc.
func (d *airqdProc) ctl(args ...string) (stdout, stderr string, err error) {
	var out, errb bytes.Buffer
	c := exec.Command(airqctlBin, append([]string{"-socket", d.socket}, args...)...)
	c.Stdout, c.Stderr = &out, &errb
	err = c.Run()
	return out.String(), errb.String(), err
}

func (d *airqdProc) ctlJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	out, errs, err := d.ctl(append([]string{"-json"}, args...)...)
	if err != nil {
		t.Fatalf("airqctl %v: %v\n%s", args, err, errs)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("airqctl %v: %v\n%s", args, err, out)
	}
}

func waitUntil(t *testing.T, what string, limit time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// airqctl reads the simulated stations over the socket, an AQL limit set
// live holds the BE pending airtime under it, and SIGTERM ends the airqdProc
// within a second with the socket removed.
func TestDaemonLiveAQLAndStop(t *testing.T) {
	d := startDaemon(t)
	var stations []ctl.Station
	waitUntil(t, "4 associated stations", 10*time.Second, func() bool {
		d.ctlJSON(t, &stations, "station", "dump")
		n := 0
		for _, s := range stations {
			if s.Associated {
				n++
			}
		}
		return n == 4
	})
	out, _, err := d.ctl("station", "dump")
	if err != nil || strings.Count(out, "Station 02:") != 4 || !strings.Contains(out, "aql pending:") {
		t.Errorf("station dump: %v\n%s", err, out)
	}
	// The BSS under its name, and a streamed dump scoped to it.
	var devs []ctl.Dev
	d.ctlJSON(t, &devs, "dev")
	if len(devs) != 1 || devs[0].Name != "airq0" || devs[0].Stations != 4 || devs[0].Holder != "" {
		t.Errorf("dev: %+v", devs)
	}
	if out, _, err := d.ctl("dev", "airq0", "station", "dump"); err != nil || strings.Count(out, "(on airq0)") != 4 {
		t.Errorf("dev airq0 station dump: %v\n%s", err, out)
	}
	if _, errs, err := d.ctl("dev", "guest", "station", "dump"); err == nil || !strings.Contains(errs, "dev guest: no such BSS") {
		t.Errorf("dev guest station dump: %v %s", err, errs)
	}
	// Bulk downloads keep BE's pending airtime near the default limits.
	var q ctl.AQL
	const be = 2
	var before int64
	waitUntil(t, "BE pending airtime above 6000 µs", 10*time.Second, func() bool {
		d.ctlJSON(t, &q, "aql")
		before = max(before, q.Pending[be])
		return q.Pending[be] > 6000
	})
	if _, errs, err := d.ctl("aql", "set", "BE", "500", "1000"); err != nil {
		t.Fatalf("aql set: %v %s", err, errs)
	}
	d.ctlJSON(t, &q, "aql")
	if q.Low[be] != 500 || q.High[be] != 1000 {
		t.Fatalf("limits after aql set: %+v", q)
	}
	// With 4 stations each held to 1000 µs (500 over the threshold), the
	// BE total stays at or under 4 x 1000 µs plus one frame each, once
	// what was in flight under the old limits has drained (the simulator
	// runs behind the wall clock on a loaded machine).
	const maxFrame = 1500 // µs: a 1500-byte frame at the lowest rate in use
	waitUntil(t, "BE pending airtime within the new limits", 5*time.Second, func() bool {
		d.ctlJSON(t, &q, "aql")
		return q.Pending[be] <= 4*(1000+maxFrame)
	})
	var worst int64
	for range 20 {
		d.ctlJSON(t, &q, "aql")
		worst = max(worst, q.Pending[be])
		time.Sleep(25 * time.Millisecond)
	}
	if worst > 4*(1000+maxFrame) || worst > before/2 {
		t.Errorf("BE pending up to %d µs with a 1000 µs per-station limit", worst)
	}
	t.Logf("BE pending: %d µs with the default limits, at most %d µs after aql set BE 500 1000", before, worst)

	start := time.Now()
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-d.done:
		d.done <- err // for the cleanup
		if err != nil {
			t.Errorf("exit after SIGTERM: %v", err)
		}
	case <-time.After(time.Second):
		t.Fatal("airqd still running 1 s after SIGTERM")
	}
	t.Logf("stopped in %v", time.Since(start).Round(time.Millisecond))
	if _, err := os.Lstat(d.socket); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("control socket left behind: %v", err)
	}
	// The simulated radio's shutdown is the real one's: every station is
	// deauthenticated (sim.TestShutdownDeauthenticates: and hears it).
	if n := strings.Count(d.log(), `reason=3 why="AP shutting down"`); n != 4 {
		t.Errorf("%d stations deauthenticated at shutdown, want 4:\n%s", n, d.log())
	}
}

// SIGHUP re-reads the file: a changed aql_txq_limit is applied live, a
// changed key that needs a restart is logged as such.
func TestDaemonReload(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "airqd.conf")
	write := func(text string) {
		if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("ssid=reload\naql_txq_limit=BE=4000:8000\naql_threshold=24000\n")
	d := startDaemon(t, "-config", conf)
	var q ctl.AQL
	d.ctlJSON(t, &q, "aql")
	if q.Low[2] != 4000 || q.High[2] != 8000 {
		t.Fatalf("limits from the file: %+v", q)
	}
	write("ssid=renamed\naql_txq_limit=BE=600:1200\naql_threshold=9000\n")
	d.cmd.Process.Signal(syscall.SIGHUP)
	waitUntil(t, "the reloaded limits", 5*time.Second, func() bool {
		d.ctlJSON(t, &q, "aql")
		return q.Low[2] == 600 && q.High[2] == 1200 && q.Threshold == 9000
	})
	waitUntil(t, "the restart notice", 5*time.Second, func() bool {
		return strings.Contains(d.log(), "restart airqd to apply it") && strings.Contains(d.log(), "key=ssid")
	})
	// A broken file changes nothing and the airqdProc keeps running.
	write("ssid=renamed\naql_txq_limit=BE=1:2\nwpa=1\n")
	d.cmd.Process.Signal(syscall.SIGHUP)
	waitUntil(t, "the refusal", 5*time.Second, func() bool { return strings.Contains(d.log(), "wpa: 1: WPA (version 1, with TKIP) is not supported") })
	d.ctlJSON(t, &q, "aql")
	if q.Low[2] != 600 {
		t.Errorf("a refused file changed the limits: %+v", q)
	}
}

// airqctl events prints a line per station as the simulated ones join, one
// when a station is removed, and one when it comes back.
func TestDaemonEvents(t *testing.T) {
	d := startDaemon(t, "-sim-stations", "2", "-sim-join", "1s")
	expect := d.events(t)
	const first, second = "02:00:00:00:10:01", "02:00:00:00:10:02"
	expect("<3>AP-STA-CONNECTED " + first + " aid=1")
	expect("<3>AP-STA-CONNECTED " + second + " aid=2")
	if _, errs, err := d.ctl("station", "del", first); err != nil {
		t.Fatalf("station del: %v %s", err, errs)
	}
	expect("<3>AP-STA-DISCONNECTED " + first + " aid=1 reason=3")
	// A simulated station joins again after a deletion (reconnect=on).
	expect("<3>AP-STA-CONNECTED " + first)
}

// events runs airqctl events for the rest of the test; expect waits for
// a line starting with each of prefixes, in any order, skipping others.
func (d *airqdProc) events(t *testing.T) (expect func(prefixes ...string)) {
	t.Helper()
	cmd := exec.Command(airqctlBin, "-socket", d.socket, "events")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	return func(prefixes ...string) {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for len(prefixes) > 0 {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("stream ended; still waiting for %q", prefixes)
				}
				i := slices.IndexFunc(prefixes, func(p string) bool { return strings.HasPrefix(l, p) })
				if i < 0 {
					t.Logf("event %q", l)
					continue
				}
				prefixes = slices.Delete(prefixes, i, i+1)
			case <-timeout:
				t.Fatalf("no %q line", prefixes)
			}
		}
	}
}

// Bad flags and bad configuration: one clear line on stderr, exit 2,
// nothing left behind.
func TestDaemonBadStart(t *testing.T) {
	binaries(t)
	conf := filepath.Join(t.TempDir(), "bad.conf")
	os.WriteFile(conf, []byte("ssid=x\nbeacon_int=5\n"), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-radio", "usb"}, `airqd: -radio: "usb", want nl80211 or sim`},
		{[]string{"-bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"-radio", "sim", "-config", conf}, conf + `:2: beacon_int: "5": want 15 to 65535 TU`},
		{[]string{"-radio", "sim", "-aql-threshold", "0"}, "-aql-threshold: 0 µs"},
	} {
		cmd := exec.Command(airqdBin, c.args...)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("airqd %v: %v\n%s\nwant exit 2 and %q", c.args, err, errb.String(), c.want)
		}
	}
}
