package shell

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/radio/radiotest"
)

// noLeaks fails the test if goroutines started during it outlive it.
func noLeaks(t *testing.T) {
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<16)
				t.Errorf("%d goroutines left, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
				return
			}
			time.Sleep(time.Millisecond)
		}
	})
}

func conns(s *ControlServer) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

func dial(t *testing.T, path string) (*ctl.Client, net.Conn) {
	t.Helper()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return ctl.NewClient(c), c
}

// startRun runs a core with in-memory devices and the control server on a
// socket in a fresh directory; stop cancels it and returns Run's result.
func startRun(t *testing.T) (path string, dev *radiotest.Device, stop func() error) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "airqd.sock")
	srv, err := ListenControl(path)
	if err != nil {
		t.Fatal(err)
	}
	core, err := ap.New(ap.Config{SSID: "rt", BSSID: bssid, Channel: 6})
	if err != nil {
		t.Fatal(err)
	}
	dev, wired := radiotest.New(), radiotest.New()
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan struct{}), make(chan error, 1)
	go func() {
		done <- Run(ctx, core, dev, wired, slog.New(slog.NewTextHandler(io.Discard, nil)), func() { close(ready) }, WithControl(srv))
	}()
	<-ready
	return path, dev, func() error { cancel(); return <-done }
}

func TestControlSocketServesTheCore(t *testing.T) {
	noLeaks(t)
	path, dev, stop := startRun(t)
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Type() != os.ModeSocket || fi.Mode().Perm() != 0o660 {
		t.Fatalf("socket %v, %v; want a socket with mode 0660", fi, err)
	}
	// A station authenticates over the radio.
	rt := radiotap.AppendRx(nil, radio.RxInfo{Freq: 2437, Signal: -50, HasSignal: true})
	dev.Inject(append(rt, ieee80211.AppendAuth(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, bssid, sta, bssid, 1), 0, 1, 0)...))

	c, _ := dial(t, path)
	waitFor(t, "the station in the table", func() bool {
		r, err := c.Do(ctl.Request{Op: ctl.OpStatus})
		return err == nil && r.Status.Counters[counter.Authenticated] == 1
	})
	r, err := c.Do(ctl.Request{Op: ctl.OpStationGet, Addr: sta})
	if err != nil || len(r.Stations) != 1 || r.Stations[0].Addr != ctl.MAC(sta) || r.Stations[0].Associated {
		t.Errorf("station get: %+v, %v", r, err)
	}
	r, err = c.DoLine("aql set BE 500 1000")
	if err != nil || r.AQL.High[ieee80211.ACBE] != 1000 {
		t.Errorf("aql set: %+v, %v", r, err)
	}
	var e *ctl.Error
	if _, err := c.DoLine("aql set XX 1 2"); !errors.As(err, &e) || e.Errno != ctl.EINVAL {
		t.Errorf("bad request: %v", err)
	}
	// Removal reaches the radio: the loop flushes after a request.
	if _, err := c.Do(ctl.Request{Op: ctl.OpStationDel, Addr: sta}); err != nil {
		t.Fatal(err)
	}
	var frames [][]byte
	waitFor(t, "the deauthentication", func() bool {
		frames = append(frames, dev.Written()...)
		return len(sent(t, frames)[ieee80211.SubtypeDeauth]) > 0
	})
	// Clients in parallel, each on its own connection.
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			c, conn := dial(t, path)
			defer conn.Close()
			_, err := c.Do(ctl.Request{Op: ctl.OpScheduler})
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket left behind: %v", err)
	}
	// The open connection was closed by the shutdown.
	if _, err := c.Do(ctl.Request{Op: ctl.OpStatus}); err == nil {
		t.Error("request answered after shutdown")
	}
}

func TestControlStaleAndForeignFiles(t *testing.T) {
	noLeaks(t)
	dir := t.TempDir()
	// A socket left by a crash: bound, nobody listening.
	stale := filepath.Join(dir, "stale.sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: stale, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	srv, err := ListenControl(stale)
	if err != nil {
		t.Fatalf("stale socket: %v", err)
	}
	// A live one belongs to another daemon.
	if _, err := ListenControl(stale); err == nil || !strings.Contains(err.Error(), "another process") {
		t.Errorf("live socket: %v", err)
	}
	if err := srv.Close(); err != nil {
		t.Error(err)
	}
	if err := srv.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	// Any other file is not ours to delete.
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, []byte("x"), 0o600)
	if _, err := ListenControl(plain); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("regular file: %v", err)
	}
	if _, err := os.Stat(plain); err != nil {
		t.Errorf("regular file removed: %v", err)
	}
}

// Close unblocks everything: idle connections, and a request that a loop
// took but will never answer, which gets EBUSY.
func TestControlCloseUnblocks(t *testing.T) {
	noLeaks(t)
	path := filepath.Join(t.TempDir(), "airqd.sock")
	srv, err := ListenControl(path)
	if err != nil {
		t.Fatal(err)
	}
	_, idle := dial(t, path)
	c, conn := dial(t, path)
	got := make(chan error, 1)
	go func() { _, err := c.Do(ctl.Request{Op: ctl.OpStatus}); got <- err }()
	<-srv.Calls() // the loop takes it and stops before answering
	srv.Close()
	var e *ctl.Error
	if err := <-got; !errors.As(err, &e) || e.Errno != ctl.EBUSY {
		t.Errorf("pending request: %v, want EBUSY", err)
	}
	if _, err := bufio.NewReader(idle).ReadByte(); err == nil {
		t.Error("idle connection still open")
	}
	conn.Close()
}

func TestControlConnectionLimit(t *testing.T) {
	noLeaks(t)
	path := filepath.Join(t.TempDir(), "airqd.sock")
	srv, err := ListenControl(path)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for range MaxControlConns {
		dial(t, path)
	}
	waitFor(t, "the connections", func() bool { return conns(srv) == MaxControlConns })
	_, extra := dial(t, path)
	rep, err := ctl.ReadReply(bufio.NewReader(extra))
	if err != nil || rep.Errno != ctl.EBUSY || !strings.Contains(rep.Error, "at most 16 control connections and all are open") {
		t.Errorf("connection over the limit: %+v, %v", rep, err)
	}
	// A client that sends its request at once still reads why, not a
	// broken pipe.
	c, _ := dial(t, path)
	var e *ctl.Error
	if _, err := c.Do(ctl.Request{Op: ctl.OpStatus}); !errors.As(err, &e) || e.Errno != ctl.EBUSY ||
		!strings.Contains(e.Message, "an idle one closes after 1m0s without a request") {
		t.Errorf("request over the limit: %v", err)
	}
}

// A connection that sends nothing for the idle time is closed; one that
// keeps asking, or streams events, is not.
func TestControlIdleTimeout(t *testing.T) {
	// A loaded host stalls the test process, under -race, for 200 ms and
	// more, now and then for seconds: a busy connection that the stall
	// itself kept quiet for idle is rightly closed, so that run proves
	// nothing and the check runs again.
	const idle, every = time.Second, 100 * time.Millisecond
	for attempt := 1; ; attempt++ {
		gap, err := idleTimeoutRun(t, idle, every)
		if err == nil || gap < idle || attempt == 3 {
			if err != nil {
				t.Errorf("a connection asking every %v (its longest gap %v) was closed: %v", every, gap, err)
			}
			return
		}
		t.Logf("attempt %d: the host stalled the busy connection for %v, over the idle time: again", attempt, gap)
	}
}

// idleTimeoutRun checks that a quiet connection is closed after idle
// while a busy one, asking every so often, and an events subscriber stay;
// it returns the busy connection's longest gap between two requests and
// the error that ended it, if one did.
func idleTimeoutRun(t *testing.T, idle, every time.Duration) (time.Duration, error) {
	t.Helper()
	noLeaks(t)
	path := filepath.Join(t.TempDir(), "airqd.sock")
	srv, err := ListenControl(path, ControlIdle(idle))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	stop := serveCalls(srv, func(call *ControlCall) { call.Answer(ctl.Reply{Status: &ctl.Status{SSID: "idle"}}) })
	defer stop()
	_, quiet := dial(t, path)
	busy, _ := dial(t, path)
	events, _ := dial(t, path)
	if err := events.Subscribe(); err != nil {
		t.Fatal(err)
	}
	// The busy one asks until the check is over.
	type result struct {
		gap time.Duration
		err error
	}
	done, asked := make(chan struct{}), make(chan result, 1)
	go func() {
		var r result
		last := time.Now()
		defer func() { asked <- r }()
		for {
			select {
			case <-done:
				return
			case <-time.After(every):
			}
			r.gap = max(r.gap, time.Since(last))
			if _, r.err = busy.Do(ctl.Request{Op: ctl.OpStatus}); r.err != nil {
				return
			}
			last = time.Now()
		}
	}()
	time.Sleep(3 * idle)
	quiet.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := bufio.NewReader(quiet).ReadByte(); err != io.EOF {
		t.Errorf("idle connection: read %v, want EOF", err)
	}
	waitFor(t, "the idle connection's end", func() bool { return conns(srv) <= 2 })
	left := conns(srv)
	close(done)
	r := <-asked
	if r.err == nil && left != 2 {
		t.Errorf("%d connections left, want the busy and the events ones", left)
	}
	return r.gap, r.err
}

// Set requests are logged once applied, old -> new, one line each; reads
// and refused requests are not.
func TestControlLogsLiveChanges(t *testing.T) {
	noLeaks(t)
	var logs lockedBuffer
	path := filepath.Join(t.TempDir(), "airqd.sock")
	srv, err := ListenControl(path, ControlLog(slog.New(slog.NewTextHandler(&logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	core, err := ap.New(ap.Config{SSID: "log", BSSID: bssid, Channel: 1})
	if err != nil {
		t.Fatal(err)
	}
	weight := uint16(256) // a station the fake table holds
	control := func(r ctl.Request) ctl.Reply {
		switch r.Op {
		case ctl.OpStationGet, ctl.OpStationSet:
			if r.Addr != sta {
				return ctl.Errorf(ctl.ENOENT, "no station %s", r.Addr)
			}
			if r.Op == ctl.OpStationSet {
				weight = r.Weight
			}
			return ctl.Reply{Stations: []ctl.Station{{Addr: ctl.MAC(sta), AirtimeWeight: weight}}}
		}
		return core.Control(0, r)
	}
	stop := serveCalls(srv, func(call *ControlCall) { call.Serve(core, 0, control) })
	defer stop()
	c, _ := dial(t, path)
	for _, line := range []string{"aql set BE 500 1000", "aql", "aql set BE 2000 1000", "aql set VI 0 0 force",
		"aql threshold 9000", "station set 02:00:00:00:01:00 airtime_weight 512", "station set 02:00:00:00:09:09 airtime_weight 5"} {
		c.DoLine(line)
	}
	want := []string{
		`msg="control: aql set" ac=BE low_us=5000->500 high_us=12000->1000`,
		`msg="control: aql set" ac=VI low_us=5000->0 high_us=12000->0`,
		`msg="control: aql threshold" threshold_us=24000->9000`,
		`msg="control: station set" addr=02:00:00:00:01:00 airtime_weight=256->512`,
	}
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d log lines, want %d:\n%s", len(lines), len(want), logs.String())
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d: %s\nwant %s", i, lines[i], w)
		}
	}
	// The core refuses low above high from any caller, not only the parser's.
	var e *ctl.Error
	if _, err := srv.Call(context.Background(), ctl.Request{Op: ctl.OpAQLSet, AC: ieee80211.ACBE, Low: 2000, High: 1000}); !errors.As(err, &e) || e.Errno != ctl.EINVAL {
		t.Errorf("in-process low above high: %v", err)
	}
}

// An explicit path needs its directory; only one directly in a runtime
// directory is made.
func TestControlDirectory(t *testing.T) {
	noLeaks(t)
	base := t.TempDir()
	missing := filepath.Join(base, "nonexistent", "dir", "x.sock")
	if _, err := ListenControl(missing); err == nil || !strings.Contains(err.Error(), "does not exist: create it, or choose another -control path") {
		t.Errorf("missing directory: %v", err)
	}
	if _, err := os.Stat(filepath.Join(base, "nonexistent")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a directory was made: %v", err)
	}
	t.Setenv("XDG_RUNTIME_DIR", base)
	srv, err := ListenControl(filepath.Join(base, "airq", "airqd.sock"))
	if err != nil {
		t.Fatalf("under the runtime directory: %v", err)
	}
	defer srv.Close()
	if fi, err := os.Stat(filepath.Join(base, "airq")); err != nil || fi.Mode().Perm() != 0o750 {
		t.Errorf("runtime subdirectory: %v, %v", fi, err)
	}
}

// A loop other than Run's (the simulator's) serves the socket through Calls.
func TestControlCustomLoop(t *testing.T) {
	noLeaks(t)
	path := filepath.Join(t.TempDir(), "airqd.sock")
	srv, err := ListenControl(path)
	if err != nil {
		t.Fatal(err)
	}
	core, err := ap.New(ap.Config{SSID: "loop", BSSID: bssid, Channel: 1})
	if err != nil {
		t.Fatal(err)
	}
	stop := serveCalls(srv, func(call *ControlCall) { call.Answer(core.Control(0, call.Request())) })
	c, _ := dial(t, path)
	r, err := c.Do(ctl.Request{Op: ctl.OpStatus})
	if err != nil || r.Status.SSID != "loop" {
		t.Errorf("status %+v, %v", r.Status, err)
	}
	srv.Close()
	stop()
}

// serveCalls answers srv's calls with serve on a loop of its own, as the
// simulator does, until the returned stop is called.
func serveCalls(srv *ControlServer, serve func(*ControlCall)) (stop func()) {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case call := <-srv.Calls():
				serve(call)
			case <-quit:
				return
			}
		}
	}()
	return func() { close(quit); <-done }
}

// lockedBuffer is a log sink the server's goroutines may write to while
// the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A control server kept open across two loops: the first loop's end leaves
// the socket and its connections, and the next core answers them.
func TestControlOpenAcrossLoops(t *testing.T) {
	noLeaks(t)
	path := filepath.Join(t.TempDir(), "airqd.sock")
	srv, err := ListenControl(path)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	run := func(ssid string) func() error {
		core, err := ap.New(ap.Config{SSID: ssid, BSSID: bssid, Channel: 6})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		ready, done := make(chan struct{}), make(chan error, 1)
		go func() {
			done <- Run(ctx, core, radiotest.New(), radiotest.New(), slog.New(slog.NewTextHandler(io.Discard, nil)),
				func() { close(ready) }, WithControlOpen(srv))
		}()
		<-ready
		return func() error { cancel(); return <-done }
	}
	stop := run("first")
	c, _ := dial(t, path)
	if r, err := c.Do(ctl.Request{Op: ctl.OpStatus}); err != nil || r.Status.SSID != "first" {
		t.Fatalf("first loop: %+v, %v", r.Status, err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); err != nil {
		t.Fatalf("the socket went with the first loop: %v", err)
	}
	stop = run("second")
	defer stop()
	if r, err := c.Do(ctl.Request{Op: ctl.OpStatus}); err != nil || r.Status.SSID != "second" {
		t.Fatalf("second loop, same connection: %+v, %v", r.Status, err)
	}
}
