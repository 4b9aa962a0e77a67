package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/shell"
	"github.com/airq/airq/sim"
)

// serveSim serves s on a real control socket from a loop of its own that
// moves virtual time on by step before each request, so that successive
// snapshots differ as they would on a live daemon.
func serveSim(t *testing.T, s *sim.Sim, step time.Duration) string {
	t.Helper()
	srv, err := shell.ListenControl(filepath.Join(t.TempDir(), "airqd.sock"))
	if err != nil {
		t.Fatal(err)
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case call := <-srv.Calls():
				s.Run(step)
				call.Serve(s.Core(), s.Now(), s.Control)
			case <-stop:
				return
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done; srv.Close() })
	return srv.Addr()
}

// topSim is a BSS with two stations, one near and one far (a lossy link
// that needs retries), both downloading.
func topSim(t *testing.T) *sim.Sim {
	s, err := sim.New(sim.Config{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	host := s.AddHost(sim.HostConfig{})
	near := s.AddStation(sim.StationConfig{Signal: -45})
	far := s.AddStation(sim.StationConfig{Signal: -72, Start: time.Millisecond, Loss: 0.2})
	for s.Now() < 2*time.Second && !(near.Associated() && far.Associated()) {
		s.Run(10 * time.Millisecond)
	}
	s.Bulk(host, near, sim.BulkConfig{})
	s.Bulk(host, far, sim.BulkConfig{})
	s.Run(200 * time.Millisecond)
	return s
}

// Two refreshes against the simulator in batch mode: plain frames, each
// with both stations, their shares summing to 100 %, figures that change
// from one frame to the next.
func TestTopAgainstTheSimulator(t *testing.T) {
	socket := serveSim(t, topSim(t), 300*time.Millisecond)
	code, out, errs := runCtl(socket, "top", "-b", "-n", "2", "-d", "10ms")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if strings.Contains(out, "\x1b") {
		t.Errorf("escape codes in batch mode:\n%q", out)
	}
	frames := strings.Split(out, "\n\nairq0: ")
	if len(frames) != 2 {
		t.Fatalf("%d frames:\n%s", len(frames), out)
	}
	for i, f := range frames {
		if !strings.Contains(f, "2 stations, over 0.30 s") || !strings.Contains(f, "02:00:00:00:10:01") || !strings.Contains(f, "02:00:00:00:10:02") {
			t.Errorf("frame %d:\n%s", i+1, f)
		}
	}
	if stationLines(frames[0]) == stationLines(frames[1]) {
		t.Errorf("the figures did not change:\n%s", out)
	}

	code, out, errs = runCtl(socket, "-json", "top", "-n", "2", "-d", "10ms")
	if code != 0 {
		t.Fatalf("-json: exit %d, %s", code, errs)
	}
	var got []topFrame
	for line := range strings.Lines(out) {
		var f topFrame
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatalf("%v: %q", err, line)
		}
		got = append(got, f)
	}
	if len(got) != 2 {
		t.Fatalf("%d JSON frames", len(got))
	}
	for i, f := range got {
		var share float64
		for _, s := range f.Stations {
			share += s.Share
			if s.DownMbps <= 0 || s.Airtime <= 0 || s.Rate.Mode == 0 || s.Signal == 0 {
				t.Errorf("frame %d: station %+v", i+1, s)
			}
		}
		if len(f.Stations) != 2 || share < 99.9 || share > 100.1 || f.Interval != 0.3 || f.DownMbps <= 0 {
			t.Errorf("frame %d: %+v (shares sum to %.1f)", i+1, f, share)
		}
		// The far station's lossy link costs it more airtime per bit.
		near, far := f.Stations[0], f.Stations[1]
		if near.Addr.String() != "02:00:00:00:10:01" {
			near, far = far, near
		}
		if far.Airtime/far.DownMbps <= near.Airtime/near.DownMbps {
			t.Errorf("frame %d: far %+v near %+v", i+1, far, near)
		}
	}
	if got[0].Stations[0].DownMbps == got[1].Stations[0].DownMbps {
		t.Error("the JSON figures did not change")
	}
}

// stationLines is the part of a frame that carries the figures.
func stationLines(frame string) string {
	_, rest, _ := strings.Cut(frame, "frames\n")
	return rest
}

func TestTopFrameStart(t *testing.T) {
	if got := string(frameStart(nil, true, 1)); got != "\x1b[H\x1b[2J" {
		t.Errorf("terminal: %q", got)
	}
	if got := string(frameStart(nil, false, 1)) + "|" + string(frameStart(nil, false, 2)); got != "|\n" {
		t.Errorf("plain: %q", got)
	}
}

func TestTopFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"top", "-n", "-1"}, "-n -1: want 0"},
		{[]string{"top", "-d", "0"}, "want seconds (0.5) or a duration (500ms) from 10ms to 1h"},
		{[]string{"top", "-d", "2h"}, "from 10ms to 1h"},
		{[]string{"top", "now"}, `unexpected argument "now"`},
	} {
		code, _, stderr := runCtl("/nonexistent.sock", c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "airqctl top -h") {
			t.Errorf("%v: exit %d, %q", c.args, code, stderr)
		}
	}
	for _, c := range []struct {
		in   string
		want time.Duration
	}{{"1", time.Second}, {"0.5", 500 * time.Millisecond}, {"250ms", 250 * time.Millisecond}} {
		if d, err := parseInterval(c.in); err != nil || d != c.want {
			t.Errorf("%q: %v, %v", c.in, d, err)
		}
	}
	code, _, stderr := runCtl("/nonexistent.sock", "top", "-h")
	if code != 0 || !strings.Contains(stderr, "usage: airqctl") || !strings.Contains(stderr, "-n int") {
		t.Errorf("top -h: exit %d\n%s", code, stderr)
	}
}
