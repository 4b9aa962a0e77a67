package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/ctl"
	"github.com/airq/airq/runtime"
	"github.com/airq/airq/sim"
)

// serveSim answers the server's calls from a simulator that already ran a
// while, the way runSim's loop does, until the test ends.
func serveSim(t *testing.T, s *sim.Sim) *runtime.ControlServer {
	t.Helper()
	srv, err := runtime.ListenControl("")
	if err != nil {
		t.Fatal(err)
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case call := <-srv.Calls():
				call.Serve(s.Core(), s.Control)
			case <-stop:
				return
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done; srv.Close() })
	return srv
}

func busySim(t *testing.T) *sim.Sim {
	t.Helper()
	s, err := sim.New(sim.Config{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	host := s.AddHost(sim.HostConfig{})
	for range 3 {
		s.AddStation(sim.StationConfig{})
	}
	started := make([]bool, 3)
	for range 20 {
		s.Run(100 * time.Millisecond)
		startTraffic(s, host, started)
	}
	return s
}

func scrape(t *testing.T, h http.Handler) (int, string) {
	t.Helper()
	ts := httptest.NewServer(h)
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// A scrape of a busy simulated BSS shows every family with the values the
// core has, per station and per AC.
func TestMetricsFromSimulator(t *testing.T) {
	s := busySim(t)
	srv := serveSim(t, s)
	code, body := scrape(t, metricsHandler(srv))
	if code != http.StatusOK {
		t.Fatalf("status %d\n%s", code, body)
	}
	st := s.Control(ctl.Request{Op: ctl.OpStationDump}).Stations
	if len(st) != 3 {
		t.Fatalf("%d stations", len(st))
	}
	mac := st[0].Addr.String()
	for _, want := range []string{
		"airq_up 1",
		`airq_stations{state="associated"} 3`,
		`airq_station_airtime_seconds_total{ac="BE",mac="` + mac + `"} `,
		`airq_station_aql_pending_seconds{ac="BE",mac="` + mac + `"} `,
		`airq_station_bytes_total{dir="tx",mac="` + mac + `"} `,
		`airq_airtime_seconds_total{ac="BE"} `,
		`airq_aql_pending_seconds{ac="VO"} `,
		`airq_aql_limit_seconds{ac="BE",bound="high"} 0.012`,
		"airq_aql_threshold_seconds 0.024",
		`airq_downlink_drops_total{reason="codel"} `,
		`airq_scheduler_drops_total{ac="BE",reason="overlimit"} `,
		`airq_scheduler_rounds_total{ac="BE",state="opened"} `,
		`airq_scheduler_rounds_total{ac="BE",state="closed"} `,
		`airq_scheduler_skipped_selections_total{ac="BE",why="deficit"} `,
		`airq_echoes_total{result="matched"} `,
		"airq_tx_no_status_total ",
		"airq_tx_timed_out_total ",
		"airq_beacon_emit_delay_seconds_count ",
		"airq_beacon_echo_delay_seconds_sum ",
		`airq_beacon_delay_max_seconds{stage="echo"} `,
		"airq_beacon_missed_intervals_total ",
		"go_goroutines ",
	} {
		if !strings.Contains(body, "\n"+want) {
			t.Errorf("no %q in the scrape", want)
		}
	}
	// The values are the core's: the opened-rounds counter of BE matches
	// the scheduler's own.
	sched := s.Control(ctl.Request{Op: ctl.OpScheduler}).Scheduler
	if want := `airq_scheduler_rounds_total{ac="BE",state="opened"} ` + strconv.FormatUint(sched.AC[2].RoundsOpened, 10); !strings.Contains(body, want) {
		t.Errorf("no %q", want)
	}
	if strings.Contains(body, `airq_echoes_total{result="matched"} 0`+"\n") {
		t.Error("no echo matched in 2 s of traffic")
	}
}

// A loop that does not answer fails the scrape instead of hanging it or
// serving stale numbers.
func TestMetricsStuckLoop(t *testing.T) {
	srv, err := runtime.ListenControl("")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c := newCollector(srv, 50*time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // takes calls, never answers
		for {
			select {
			case <-srv.Calls():
			case <-ctx.Done():
				return
			}
		}
	}()
	h := metricsHandlerFor(c)
	code, body := scrape(t, h)
	if code != http.StatusInternalServerError || !strings.Contains(body, "did not answer") {
		t.Errorf("stuck loop: %d\n%s", code, body)
	}
}
