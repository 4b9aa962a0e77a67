package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

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
	rl.sockets = &hostapdSockets{socks: socks}
	t.Cleanup(rl.sockets.close)
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
// SIGHUP's sections added are logged as needing a restart, saying why,
// and the radio runs on as it is.
func TestReloadSectionsWithGlobalSocket(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "airqd.conf")
	writeFile(t, conf, reloadBSSes)
	var log strings.Builder
	rl, core := testReloaderCore(t, conf, &log)
	fake := &fakeRadio{runs: make(chan options, 1)}
	rl.radio = &radioRestarts{run: fake.run}
	writeFile(t, conf, reloadBSSes+"bss=lab\nssid=lab\n")
	if err := rl.reloadFile(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(fake.runs) != 0 || len(core.Config().BSSes) != 2 || len(rl.cur.BSSes) != 2 ||
		!strings.Contains(log.String(), `running="guest iot" file="guest iot lab" why="with -g the global socket holds the sections' sockets"`) {
		t.Errorf("restarts %d, running sections %d; log:\n%s", len(fake.runs), len(rl.cur.BSSes), log.String())
	}
}
