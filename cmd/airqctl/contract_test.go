package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/metrics"
	"github.com/airq/airq/shell"
	"github.com/airq/airq/sim"
)

// The counters contract, end to end: a simulated BSS carries traffic, its
// core answers on a real control socket, and every entry of the counters
// table appears in `airqctl -json status` and in /metrics, with the same
// value.
func TestCountersContract(t *testing.T) {
	s, err := sim.New(sim.Config{Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	host := s.AddHost(sim.HostConfig{})
	sta := s.AddStation(sim.StationConfig{})
	for pinging := false; s.Now() < 2*time.Second; s.Run(100 * time.Millisecond) {
		if !pinging && sta.Associated() {
			pinging = true
			s.Bulk(host, sta, sim.BulkConfig{})
			s.Ping(sta, host, 100*time.Millisecond, 56)
		}
	}
	srv, err := shell.ListenControl(filepath.Join(t.TempDir(), "airqd.sock"))
	if err != nil {
		t.Fatal(err)
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() { // the simulator's loop, answering and no longer running
		defer close(done)
		for {
			select {
			case call := <-srv.Calls():
				call.Serve(s.Core(), s.Now(), s.Control)
			case <-stop:
				return
			}
		}
	}()
	defer func() { close(stop); <-done; srv.Close() }()

	code, out, errs := runCtl(srv.Addr(), "-json", "status")
	var status map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&status); code != 0 || err != nil {
		t.Fatalf("airqctl -json status: exit %d, %v\n%s%s", code, err, out, errs)
	}
	ts := httptest.NewServer(metrics.Handler(metrics.NewCollector(srv, metrics.Options{})))
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	scraped := parseExposition(string(body))

	core := s.Control(ctl.Request{Op: ctl.OpStatus}).Status.Counters
	moved := 0
	for id := range counter.NumIDs {
		want := strconv.FormatUint(core[id], 10)
		if got, ok := status[id.Key()].(json.Number); !ok || got.String() != want {
			t.Errorf("%s: airqctl -json status has %q (present %v), the core %s", id, got, ok, want)
		}
		d := id.Desc()
		name := d.Family.Name
		if d.Family.Label != "" {
			name += "{" + d.Family.Label + `="` + d.Value + `"}`
		}
		if got, ok := scraped[name]; !ok || got != float64(core[id]) {
			t.Errorf("%s: /metrics has %s %v (present %v), the core %s", id, name, got, ok, want)
		}
		if core[id] != 0 {
			moved++
		}
	}
	if moved < 15 {
		t.Errorf("only %d counters moved: %v", moved, &core)
	}
}

// parseExposition maps each series of a text exposition (name with its
// labels, as printed) to its value.
func parseExposition(body string) map[string]float64 {
	m := map[string]float64{}
	for line := range strings.Lines(body) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		if v, err := strconv.ParseFloat(strings.TrimSpace(line[i+1:]), 64); err == nil {
			m[line[:i]] = v
		}
	}
	return m
}
