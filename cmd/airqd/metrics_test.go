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

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/scan"
	"github.com/airq/airq/shell"
	"github.com/airq/airq/sim"
)

// serveSim answers the server's calls from a simulator that already ran a
// while, the way runSim's loop does, until the test ends.
func serveSim(t *testing.T, s *sim.Sim) *shell.ControlServer {
	t.Helper()
	srv, err := shell.ListenControl("")
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
	code, body := scrape(t, metricsHandler(srv, nil))
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
	srv, err := shell.ListenControl("")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c := newCollector(srv, 50*time.Millisecond, nil)
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

// A scanning HT BSS exports the scan families and the stations' A-MSDU
// counters, with the core's values; without scanning the scan families are
// absent rather than zero.
func TestMetricsScanAndAMSDU(t *testing.T) {
	var chans []scan.Channel
	for _, c := range sim.USChannels() {
		if c.Freq >= 5180 && c.Freq <= 5240 && c.Freq != 5180 {
			chans = append(chans, c)
		}
	}
	s, err := sim.New(sim.Config{Seed: 7, AP: ap.Config{PHY: ap.PHY{HT: true}, AMSDU: 7935,
		Scan: &ap.ScanConfig{Planner: scan.Config{Channels: chans, Retune: sim.DefaultRetuneTime}}}})
	if err != nil {
		t.Fatal(err)
	}
	s.AddForeignBSS(sim.ForeignBSSConfig{Freq: 5200, SSID: "neighbour"})
	host := s.AddHost(sim.HostConfig{})
	for range 2 {
		s.AddStation(sim.StationConfig{HT: true})
	}
	started := make([]bool, 2)
	for range 30 {
		s.Run(100 * time.Millisecond)
		startTraffic(s, host, started)
	}
	code, body := scrape(t, metricsHandler(serveSim(t, s), nil))
	if code != http.StatusOK {
		t.Fatalf("status %d\n%s", code, body)
	}
	sc := s.Control(ctl.Request{Op: ctl.OpScan}).Scan
	st := s.Control(ctl.Request{Op: ctl.OpStationDump}).Stations
	if sc == nil || sc.Trips == 0 || sc.BSSes == 0 || len(st) != 2 {
		t.Fatalf("scan %+v, %d stations", sc, len(st))
	}
	var amsdus uint64
	for _, x := range st {
		amsdus += x.AMSDUs
	}
	if amsdus == 0 {
		t.Error("no A-MSDU sent in 3 s of bulk traffic")
	}
	mac := st[0].Addr.String()
	// The exposition format prints values as strconv's shortest 'g' form.
	u := func(v uint64) string { return strconv.FormatFloat(float64(v), 'g', -1, 64) }
	for _, want := range []string{
		"airq_scan_trips_total " + u(sc.Trips),
		"airq_scan_away_seconds_total " + strconv.FormatFloat(float64(sc.Away)/1e6, 'g', -1, 64),
		"airq_scan_sweeps_total " + u(sc.Sweeps),
		"airq_scan_last_sweep_seconds ",
		"airq_scan_missed_beacons_total " + u(sc.MissedBeacons),
		"airq_scan_bss " + u(uint64(sc.BSSes)),
		"airq_scan_retunes_total " + u(sc.Retunes),
		"airq_scan_probe_requests_total ",
		`airq_station_tx_amsdus_total{mac="` + mac + `"} ` + u(st[0].AMSDUs),
		`airq_station_tx_amsdu_subframes_total{mac="` + mac + `"} ` + u(st[0].AMSDUSubframes),
		`airq_station_tx_amsdu_bytes_total{mac="` + mac + `"} ` + u(st[0].AMSDUBytes),
	} {
		if !strings.Contains(body, "\n"+want) {
			t.Errorf("no %q in the scrape", want)
		}
	}

	_, plain := scrape(t, metricsHandler(serveSim(t, busySim(t)), nil))
	if strings.Contains(plain, "airq_scan_") || !strings.Contains(plain, "airq_station_tx_amsdus_total{") {
		t.Error("scan families without scanning, or no A-MSDU family")
	}
}
