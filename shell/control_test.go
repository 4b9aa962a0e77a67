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
	path = filepath.Join(t.TempDir(), "run", "airqd.sock")
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
	if err != nil || rep.Errno != ctl.EBUSY {
		t.Errorf("connection over the limit: %+v, %v", rep, err)
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
