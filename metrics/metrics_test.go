package metrics

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/scan"
	"github.com/airq/airq/shell"
	"github.com/airq/airq/sim"
)

// serveSim answers the server's calls from a simulator that already ran a
// while, the way airqd's simulator loop does, until the test ends.
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
				call.Serve(s.Core(), s.Now(), s.Control)
			case <-stop:
				return
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done; srv.Close() })
	return srv
}

// runTraffic runs s for d in steps, starting bulk traffic and a ping to
// each station once it has associated.
func runTraffic(s *sim.Sim, host *sim.Host, d time.Duration) {
	started := map[*sim.Station]bool{}
	for end := s.Now() + d; s.Now() < end; {
		s.Run(100 * time.Millisecond)
		for _, st := range s.Stations() {
			if !started[st] && st.Associated() {
				started[st] = true
				s.Bulk(host, st, sim.BulkConfig{})
				s.Ping(st, host, time.Second, 56)
			}
		}
	}
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
	runTraffic(s, host, 2*time.Second)
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

func handler(src Source) http.Handler { return Handler(NewCollector(src, Options{})) }

// u prints a value as the exposition format does (strconv's shortest 'g').
func u(v uint64) string { return strconv.FormatFloat(float64(v), 'g', -1, 64) }

// series is the exposition line prefix of a table entry.
func series(id counter.ID) string {
	d := id.Desc()
	if d.Family.Label == "" {
		return d.Family.Name + " "
	}
	return d.Family.Name + "{" + d.Family.Label + `="` + d.Value + `"} `
}

// Every entry of the counters table is a series of /metrics, with the
// core's value.
func TestMetricsEveryCounter(t *testing.T) {
	s := busySim(t)
	srv := serveSim(t, s)
	_, body := scrape(t, handler(srv))
	want := s.Control(ctl.Request{Op: ctl.OpStatus}).Status.Counters
	nonzero := 0
	for id := range counter.NumIDs {
		line := series(id) + u(want[id]) + "\n"
		if !strings.Contains(body, "\n"+line) {
			t.Errorf("%s: no %q in the scrape", id, line)
		}
		if want[id] != 0 {
			nonzero++
		}
	}
	if nonzero < 10 {
		t.Errorf("only %d counters moved in 2 s of traffic: %v", nonzero, &want)
	}
}

// /metrics passes the Prometheus linter (what promtool check metrics runs).
func TestMetricsLint(t *testing.T) {
	var chans []scan.Channel
	for _, c := range sim.USChannels() {
		if c.Freq >= 5200 && c.Freq <= 5240 {
			chans = append(chans, c)
		}
	}
	s, err := sim.New(sim.Config{Seed: 3, AP: ap.Config{PHY: bss.PHY{HT: true}, AMSDU: 7935,
		Scan: &ap.ScanConfig{Planner: scan.Config{Channels: chans, Retune: sim.DefaultRetuneTime}}}})
	if err != nil {
		t.Fatal(err)
	}
	host := s.AddHost(sim.HostConfig{})
	s.AddStation(sim.StationConfig{HT: true})
	runTraffic(s, host, time.Second)
	c := NewCollector(serveSim(t, s), Options{})
	problems, err := testutil.CollectAndLint(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
	// The linted scrape had every kind of family: the table's, a station's,
	// the scan's, a summary.
	for _, name := range []string{"airq_rx_drops_total", "airq_stations", "airq_station_bytes_total",
		"airq_scan_trips_total", "airq_beacon_echo_delay_seconds"} {
		if testutil.CollectAndCount(c, name) == 0 {
			t.Errorf("no %s in the linted scrape", name)
		}
	}
}

// A scrape of a busy simulated BSS shows the section families with the
// values the core has, per station and per AC.
func TestMetricsFromSimulator(t *testing.T) {
	s := busySim(t)
	code, body := scrape(t, handler(serveSim(t, s)))
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
		`airq_station_bytes_total{dir="tx",mac="` + mac + `"} ` + u(st[0].TxBytes),
		`airq_airtime_seconds_total{ac="BE"} `,
		`airq_aql_pending_seconds{ac="VO"} `,
		`airq_aql_limit_seconds{ac="BE",bound="high"} 0.012`,
		"airq_aql_threshold_seconds 0.024",
		`airq_downlink_drops_total{reason="codel"} `,
		`airq_scheduler_drops_total{ac="BE",reason="overlimit"} `,
		`airq_scheduler_drops_total{ac="BE",reason="flushed"} `,
		`airq_scheduler_skipped_rounds_total{ac="BE"} `,
		`airq_scheduler_idle_selections_total{ac="BE"} `,
		`airq_echoes_by_result_total{result="acked"} `,
		"airq_beacon_emit_delay_seconds_count ",
		"airq_beacon_echo_delay_seconds_sum ",
		`airq_beacon_delay_max_seconds{stage="echo"} `,
		"airq_beacon_missed_intervals_total ",
		"go_goroutines ",
		"go_gc_heap_live_bytes ",
		"go_gc_gomemlimit_bytes ",
		"go_cpu_classes_gc_total_cpu_seconds_total ",
		`airq_stations{state="pending"} `,
		"airq_radio_filtered_total ",
	} {
		if !strings.Contains(body, "\n"+want) {
			t.Errorf("no %q in the scrape", want)
		}
	}
	// The values are the core's: the opened-rounds counter of BE matches
	// the scheduler's own, the beacon summary the status's figures.
	sched := s.Control(ctl.Request{Op: ctl.OpScheduler}).Scheduler
	status := s.Control(ctl.Request{Op: ctl.OpStatus}).Status
	for _, want := range []string{
		`airq_scheduler_rounds_total{ac="BE",state="opened"} ` + u(sched.AC[2].RoundsOpened),
		"airq_beacon_emit_delay_seconds_count " + u(status.BeaconsEmitted),
		"airq_beacon_echo_delay_seconds_sum " + strconv.FormatFloat(float64(status.BeaconEchoSum)/1e6, 'g', -1, 64),
	} {
		if !strings.Contains(body, "\n"+want+"\n") {
			t.Errorf("no %q", want)
		}
	}
	if status.Counters[counter.EchoAcked] == 0 {
		t.Error("no echo acknowledged in 2 s of traffic")
	}
	for _, old := range []string{`outcome="all"`, `why="`, `result="matched"`, `reason="queue"`} {
		if strings.Contains(body, old) {
			t.Errorf("the scrape still has %s", old)
		}
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
	code, body := scrape(t, Handler(NewCollector(srv, Options{Timeout: 50 * time.Millisecond})))
	if code != http.StatusInternalServerError || !strings.Contains(body, "did not answer") {
		t.Errorf("stuck loop: %d\n%s", code, body)
	}
}

// replying answers every request with one reply.
type replying ctl.Reply

func (r replying) Call(context.Context, ctl.Request) (ctl.Reply, error) { return ctl.Reply(r), nil }

// A snapshot without the sections the exporter reads fails the scrape.
func TestMetricsIncompleteSnapshot(t *testing.T) {
	code, body := scrape(t, handler(replying{Status: &ctl.Status{}}))
	if code != http.StatusInternalServerError || !strings.Contains(body, "lacks") {
		t.Errorf("incomplete snapshot: %d\n%s", code, body)
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
	s, err := sim.New(sim.Config{Seed: 7, AP: ap.Config{PHY: bss.PHY{HT: true}, AMSDU: 7935,
		Scan: &ap.ScanConfig{Planner: scan.Config{Channels: chans, Retune: sim.DefaultRetuneTime}}}})
	if err != nil {
		t.Fatal(err)
	}
	s.AddForeignBSS(sim.ForeignBSSConfig{Freq: 5200, SSID: "neighbour"})
	host := s.AddHost(sim.HostConfig{})
	for range 2 {
		s.AddStation(sim.StationConfig{HT: true})
	}
	runTraffic(s, host, 3*time.Second)
	code, body := scrape(t, handler(serveSim(t, s)))
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

	_, plain := scrape(t, handler(serveSim(t, busySim(t))))
	if strings.Contains(plain, "airq_scan_") || !strings.Contains(plain, "airq_station_tx_amsdus_total{") {
		t.Error("scan families without scanning, or no A-MSDU family")
	}
}

// Listen serves the handler until Close, which may be called twice.
func TestServer(t *testing.T) {
	m, err := Listen("127.0.0.1:0", serveSim(t, busySim(t)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + m.Addr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), "\nairq_up 1\n") {
		t.Errorf("status %d\n%s", resp.StatusCode, b)
	}
	if err := m.Close(); err != nil {
		t.Error(err)
	}
	if err := m.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := http.Get("http://" + m.Addr() + "/metrics"); err == nil {
		t.Error("served after Close")
	}
	if _, err := Listen("256.0.0.1:0", nil, Options{}); err == nil || !strings.HasPrefix(err.Error(), "metrics: ") {
		t.Errorf("a bad address: %v", err)
	}
}
