package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopacket/gopacket/pcapgo"
)

// airqd run as `airqd | tee log` and stopped with Ctrl-C, which ends tee
// first: with its stdout and stderr pipes closed under it, SIGINT still
// runs the whole shutdown (the stations deauthenticated, the capture
// flushed with those frames, the control socket removed) and airqd exits
// 0 rather than dying of SIGPIPE at its first line of shutdown log.
func TestDaemonStopsWithItsReaderGone(t *testing.T) {
	binaries(t)
	dir := t.TempDir()
	socket, capture := filepath.Join(dir, "airqd.sock"), filepath.Join(dir, "f.pcap")
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(airqdBin, "-radio", "sim", "-control", socket, "-pcap", capture, "-sim-stations", "2", "-sim-join", "5ms")
	cmd.Stdout, cmd.Stderr = outW, errW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	outW.Close()
	errW.Close()
	go io.Copy(io.Discard, outR)

	// The log, until both stations are in: then tee goes. A daemon whose
	// stations never join is killed, which ends the log.
	stuck := time.AfterFunc(20*time.Second, func() { cmd.Process.Kill() })
	var log strings.Builder
	lines := bufio.NewScanner(errR)
	for n := 0; n < 2 && lines.Scan(); {
		log.WriteString(lines.Text() + "\n")
		if strings.Contains(lines.Text(), "msg=AP-STA-CONNECTED") {
			n++
		}
	}
	if strings.Count(log.String(), "AP-STA-CONNECTED") != 2 {
		t.Fatalf("the stations did not join:\n%s", log.String())
	}
	stuck.Stop()
	outR.Close()
	errR.Close()

	cmd.Process.Signal(syscall.SIGINT)
	select {
	case err = <-done:
		done <- err // for the cleanup
	case <-time.After(10 * time.Second):
		t.Fatal("airqd still running 10 s after SIGINT")
	}
	if err != nil {
		t.Errorf("airqd after SIGINT with its pipes closed: %v (want exit 0)", err)
	}
	if _, err := os.Lstat(socket); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("control socket left behind: %v", err)
	}
	if n := deauthsCaptured(t, capture); n != 3 {
		t.Errorf("%d deauthentications in the capture, want 3 (each station, then broadcast)", n)
	}
}

// deauthsCaptured counts the addresses airq deauthenticated (reason 3,
// leaving) in a capture; a frame and its TX-status echo count once.
func deauthsCaptured(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	if err != nil {
		t.Fatalf("the capture was not flushed: %v", err)
	}
	to := map[string]bool{}
	for {
		data, _, err := r.ReadPacketData()
		if err != nil {
			return len(to)
		}
		if len(data) < 4 || int(binary.LittleEndian.Uint16(data[2:])) > len(data) {
			continue
		}
		fr := data[binary.LittleEndian.Uint16(data[2:]):]
		if len(fr) >= 26 && fr[0] == 0xc0 && binary.LittleEndian.Uint16(fr[24:]) == 3 {
			to[string(fr[4:10])] = true
		}
	}
}

// A write that meets EPIPE marks the stream gone: it and every later write
// succeed without reaching the pipe; other errors still come back.
func TestReaderGone(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r.Close()
	out := &readerGone{w: w}
	for i := range 2 {
		if n, err := out.Write([]byte("line\n")); n != 5 || err != nil {
			t.Errorf("write %d: %d, %v", i, n, err)
		}
	}
	if !out.gone.Load() {
		t.Error("not marked gone")
	}
	w.Close()
	if _, err := (&readerGone{w: w}).Write([]byte("x")); err == nil {
		t.Error("a closed file's error was swallowed")
	}
}
