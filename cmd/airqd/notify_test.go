//go:build linux

package main

import (
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// systemd's side of the notify protocol, faked: a unixgram socket named by
// NOTIFY_SOCKET. airqd says READY=1 once up, RELOADING=1 with
// MONOTONIC_USEC (CLOCK_MONOTONIC, taken during the reload) and READY=1
// again around a SIGHUP, and STOPPING=1 on SIGTERM.
func TestSystemdNotify(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	msgs := make(chan string, 64)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				close(msgs)
				return
			}
			msgs <- string(buf[:n])
		}
	}()
	expect := func(prefix string) string {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for {
			select {
			case m, ok := <-msgs:
				if !ok {
					t.Fatalf("socket closed waiting for %q", prefix)
				}
				if strings.HasPrefix(m, prefix) {
					return m
				}
				t.Logf("notify: %q", m)
			case <-timeout:
				t.Fatalf("no %q", prefix)
			}
		}
	}
	conf := writeConf(t, "ssid=notify\naql_threshold=9000\n")
	d := startDaemonEnv(t, []string{"NOTIFY_SOCKET=" + sock}, "-config", conf, "-sim-stations", "0")
	expect("READY=1")

	writeFile(t, conf, "ssid=notify\naql_threshold=8000\n")
	before, _ := monotonicUsec()
	d.cmd.Process.Signal(syscall.SIGHUP)
	m := expect("RELOADING=1")
	after, _ := monotonicUsec()
	v, ok := strings.CutPrefix(m, "RELOADING=1\nMONOTONIC_USEC=")
	us, err := strconv.ParseInt(v, 10, 64)
	if !ok || err != nil || us < before || us > after {
		t.Errorf("%q: want MONOTONIC_USEC between %d and %d", m, before, after)
	}
	expect("READY=1")
	waitUntil(t, "the reload's log", 2*time.Second, func() bool { return strings.Contains(d.log(), "aql_threshold=8000") })

	d.cmd.Process.Signal(syscall.SIGTERM)
	expect("STOPPING=1")
	if err := <-d.done; err != nil {
		t.Errorf("exit: %v", err)
	}
	d.done <- nil // for the cleanup
}
