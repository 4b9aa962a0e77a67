package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/shell"
	"github.com/airq/airq/tap"
)

// snapshot is what one scrape reads from the core, taken in one pass on
// the loop that owns it.
type snapshot struct {
	status   ctl.Status
	stations []ctl.Station
	aql      ctl.AQL
	sched    ctl.Scheduler
	cnt      ap.Counters
	beacons  ap.BeaconStats
	scan     *ctl.ScanStatus // nil without background scanning
}

func (s *snapshot) take(core *ap.AP, control func(ctl.Request) ctl.Reply) {
	if r := control(ctl.Request{Op: ctl.OpStatus}); r.Status != nil {
		s.status = *r.Status
	}
	s.stations = control(ctl.Request{Op: ctl.OpStationDump}).Stations
	if r := control(ctl.Request{Op: ctl.OpAQL}); r.AQL != nil {
		s.aql = *r.AQL
	}
	if r := control(ctl.Request{Op: ctl.OpScheduler}); r.Scheduler != nil {
		s.sched = *r.Scheduler
	}
	s.cnt = core.Counters()
	s.beacons = core.Beacons()
	if r := control(ctl.Request{Op: ctl.OpScan}); r.Errno == ctl.OK {
		s.scan = r.Scan
	}
}

// collector exports the core's state to Prometheus. Collect never touches
// the core: it asks the loop for a snapshot (shell.ControlServer.Inspect)
// and fails the scrape if the loop does not answer in time.
type collector struct {
	srv     *shell.ControlServer
	timeout time.Duration

	up, stations                                        *prometheus.Desc
	staAirtime, staPending, staBytes, staPackets        *prometheus.Desc
	staRetries, staFailed, staNoStatus, staSignal       *prometheus.Desc
	staWeight, staQueued                                *prometheus.Desc
	acAirtime, acPending, acLimit, acInFlight, thresh   *prometheus.Desc
	drops, schedDrops, rounds, selections, skipped      *prometheus.Desc
	echoes, noStatus, timedOut                          *prometheus.Desc
	beaconEmit, beaconEcho, beaconLateMax, beaconMissed *prometheus.Desc
	backlog, rx                                         *prometheus.Desc
	staAMSDUs, staAMSDUSubframes, staAMSDUBytes         *prometheus.Desc
	scanTrips, scanAway, scanSweeps, scanLastSweep      *prometheus.Desc
	scanMissed, scanBSSes, scanRetunes, scanProbes      *prometheus.Desc
	tapOffload                                          *prometheus.Desc

	wired *wiredView // the TAP's counters, once the radio path opened it
}

// wiredView hands the collector the TAP device once the radio path has
// opened it; the simulator has none.
type wiredView struct{ d atomic.Pointer[tap.Device] }

func (w *wiredView) set(d *tap.Device) {
	if w != nil {
		w.d.Store(d)
	}
}

func (w *wiredView) stats() (tap.Stats, bool) {
	if w == nil {
		return tap.Stats{}, false
	}
	d := w.d.Load()
	if d == nil {
		return tap.Stats{}, false
	}
	return d.Stats(), true
}

func newCollector(srv *shell.ControlServer, timeout time.Duration, wired *wiredView) *collector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc("airq_"+name, help, labels, nil)
	}
	return &collector{
		srv: srv, timeout: timeout, wired: wired,
		up:            d("up", "1 when the core's loop answered the scrape; a loop that does not answer fails the scrape."),
		stations:      d("stations", "Stations in the table by state.", "state"),
		staAirtime:    d("station_airtime_seconds_total", "Airtime charged to a station by the scheduler, per access category.", "mac", "ac"),
		staPending:    d("station_aql_pending_seconds", "A station's pending airtime (AQL), per access category.", "mac", "ac"),
		staBytes:      d("station_bytes_total", "Data bytes to (tx) and from (rx) a station.", "mac", "dir"),
		staPackets:    d("station_packets_total", "Data frames to (tx) and from (rx) a station.", "mac", "dir"),
		staRetries:    d("station_tx_retries_total", "Retransmissions to a station, from TX status.", "mac"),
		staFailed:     d("station_tx_failed_total", "Frames a station never acknowledged.", "mac"),
		staNoStatus:   d("station_tx_no_status_total", "Frames to a station completed without a TX status.", "mac"),
		staSignal:     d("station_signal_dbm", "Signal of the last frame received from a station.", "mac"),
		staWeight:     d("station_airtime_weight", "A station's airtime weight.", "mac"),
		staQueued:     d("station_queued_frames", "Frames queued for a station.", "mac"),
		acAirtime:     d("airtime_seconds_total", "Airtime charged by the scheduler, per access category.", "ac"),
		acPending:     d("aql_pending_seconds", "Pending airtime (AQL), per access category.", "ac"),
		acLimit:       d("aql_limit_seconds", "AQL per-station limits (aql_txq_limit), per access category.", "ac", "bound"),
		acInFlight:    d("inflight_frames", "Frames handed to the radio and not completed, per access category.", "ac"),
		thresh:        d("aql_threshold_seconds", "AQL threshold (aql_threshold)."),
		drops:         d("downlink_drops_total", "Downlink frames dropped, by reason.", "reason"),
		schedDrops:    d("scheduler_drops_total", "Frames dropped by the queues, per access category and reason.", "ac", "reason"),
		rounds:        d("scheduler_rounds_total", "Scheduler rounds per access category: opened, or closed by the airtime check.", "ac", "state"),
		selections:    d("scheduler_selections_total", "Stations selected by the scheduler, per access category.", "ac"),
		skipped:       d("scheduler_skipped_selections_total", "Selections skipped, per access category: deficit (skipped), stale round or idle queue.", "ac", "why"),
		echoes:        d("echoes_total", "TX-status echoes received: matched to a frame in flight, or not.", "result"),
		noStatus:      d("tx_no_status_total", "Frames completed without an echo (a later frame's echo came first)."),
		timedOut:      d("tx_timed_out_total", "Frames completed by the echo timeout."),
		beaconEmit:    d("beacon_emit_delay_seconds", "Delay from the target beacon transmission time to the core emitting the beacon."),
		beaconEcho:    d("beacon_echo_delay_seconds", "Delay from the target beacon transmission time to the beacon's TX-status echo."),
		beaconLateMax: d("beacon_delay_max_seconds", "Largest beacon delay since start.", "stage"),
		beaconMissed:  d("beacon_missed_intervals_total", "Target beacon times skipped because the core ran late."),
		backlog:       d("backlog_frames", "Downlink frames queued for stations."),
		rx:            d("rx_frames_total", "Frames received from the radio, by outcome.", "outcome"),

		staAMSDUs:         d("station_tx_amsdus_total", "A-MSDUs sent to a station.", "mac"),
		staAMSDUSubframes: d("station_tx_amsdu_subframes_total", "MSDUs sent to a station inside A-MSDUs.", "mac"),
		staAMSDUBytes:     d("station_tx_amsdu_bytes_total", "802.3 bytes sent to a station inside A-MSDUs.", "mac"),

		scanTrips:     d("scan_trips_total", "Background scan trips off the operating channel."),
		scanAway:      d("scan_away_seconds_total", "Time spent off the operating channel by scan trips."),
		scanSweeps:    d("scan_sweeps_total", "Completed sweeps over every scanned channel."),
		scanLastSweep: d("scan_last_sweep_seconds", "Duration of the last complete sweep."),
		scanMissed:    d("scan_missed_beacons_total", "Beacons skipped by scan trips that cross a target beacon time."),
		scanBSSes:     d("scan_bss", "Other BSSs in the scan table, heard within the table's age."),
		scanRetunes:   d("scan_retunes_total", "Channel changes made for scan trips."),
		scanProbes:    d("scan_probe_requests_total", "Probe requests sent on scan trips."),
		tapOffload: d("tap_offload_total", "TAP offload events: GSO frames read from the host and cut into segments (gso_read, tap_offload=tso), "+
			"writes that merged TCP segments into one GSO frame (gso_written), frames from the host dropped because their "+
			"virtio-net header did not match them (bad_header).", "event"),
	}
}

func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.up, c.stations, c.staAirtime, c.staPending, c.staBytes, c.staPackets,
		c.staRetries, c.staFailed, c.staNoStatus, c.staSignal, c.staWeight, c.staQueued, c.acAirtime, c.acPending,
		c.acLimit, c.acInFlight, c.thresh, c.drops, c.schedDrops, c.rounds, c.selections, c.skipped, c.echoes,
		c.noStatus, c.timedOut, c.beaconEmit, c.beaconEcho, c.beaconLateMax, c.beaconMissed, c.backlog, c.rx,
		c.staAMSDUs, c.staAMSDUSubframes, c.staAMSDUBytes, c.scanTrips, c.scanAway, c.scanSweeps, c.scanLastSweep, c.tapOffload,
		c.scanMissed, c.scanBSSes, c.scanRetunes, c.scanProbes} {
		ch <- d
	}
}

const usPerSecond = 1e6

func (c *collector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	s := new(snapshot) // if the wait times out the loop may still fill it; nobody reads it then
	if err := c.srv.Inspect(ctx, s.take); err != nil {
		ch <- prometheus.NewInvalidMetric(c.up, fmt.Errorf("the core's loop did not answer: %w", err))
		return
	}
	gauge := func(d *prometheus.Desc, v float64, l ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, l...)
	}
	counter := func(d *prometheus.Desc, v float64, l ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, l...)
	}
	gauge(c.up, 1)
	if t, ok := c.wired.stats(); ok {
		counter(c.tapOffload, float64(t.RxGSO), "gso_read")
		counter(c.tapOffload, float64(t.TxGSO), "gso_written")
		counter(c.tapOffload, float64(t.RxBadOffload), "bad_header")
	}
	gauge(c.stations, float64(s.status.Stations), "associated")
	gauge(c.stations, float64(s.status.Authenticated), "authenticated")
	for i := range s.stations {
		st := &s.stations[i]
		mac := st.Addr.String()
		for ac := range ieee80211.AC(ieee80211.NumACs) {
			counter(c.staAirtime, float64(st.ACAirtime[ac])/usPerSecond, mac, ac.String())
			gauge(c.staPending, float64(st.AQLPending[ac])/usPerSecond, mac, ac.String())
		}
		counter(c.staBytes, float64(st.TxBytes), mac, "tx")
		counter(c.staBytes, float64(st.RxBytes), mac, "rx")
		counter(c.staPackets, float64(st.TxPackets), mac, "tx")
		counter(c.staPackets, float64(st.RxPackets), mac, "rx")
		counter(c.staRetries, float64(st.TxRetries), mac)
		counter(c.staFailed, float64(st.TxFailed), mac)
		counter(c.staNoStatus, float64(st.TxNoStatus), mac)
		gauge(c.staSignal, float64(st.Signal), mac)
		gauge(c.staWeight, float64(st.AirtimeWeight), mac)
		gauge(c.staQueued, float64(st.QueueFramesTotal), mac)
		counter(c.staAMSDUs, float64(st.AMSDUs), mac)
		counter(c.staAMSDUSubframes, float64(st.AMSDUSubframes), mac)
		counter(c.staAMSDUBytes, float64(st.AMSDUBytes), mac)
	}
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		name := ac.String()
		a := &s.sched.AC[ac]
		counter(c.acAirtime, float64(a.Airtime)/usPerSecond, name)
		gauge(c.acPending, float64(s.aql.Pending[ac])/usPerSecond, name)
		gauge(c.acLimit, float64(s.aql.Low[ac])/usPerSecond, name, "low")
		gauge(c.acLimit, float64(s.aql.High[ac])/usPerSecond, name, "high")
		gauge(c.acInFlight, float64(s.aql.InFlight[ac]), name)
		for _, d := range []struct {
			why string
			n   uint64
		}{{"queue_full", a.DropsQueueFull}, {"overlimit", a.DropsOverlimit}, {"overmemory", a.DropsOvermem},
			{"flush", a.DropsFlush}, {"codel", a.CoDelDrops}} {
			counter(c.schedDrops, float64(d.n), name, d.why)
		}
		counter(c.rounds, float64(a.RoundsOpened), name, "opened")
		counter(c.rounds, float64(a.RoundsClosed), name, "closed")
		counter(c.selections, float64(a.Selections), name)
		counter(c.skipped, float64(a.Skipped), name, "deficit")
		counter(c.skipped, float64(a.SkippedStale), name, "stale")
		counter(c.skipped, float64(a.IdleSelections), name, "idle")
	}
	gauge(c.thresh, float64(s.aql.Threshold)/usPerSecond)
	n := &s.cnt
	for _, d := range []struct {
		why string
		n   uint64
	}{{"no_station", n.WiredDroppedNoStation}, {"queue", n.WiredDroppedQueue}, {"malformed", n.WiredDroppedMalformed},
		{"no_buffer", n.WiredDroppedNoBuffer}, {"flushed", n.WiredDroppedFlushed}, {"codel", n.WiredDroppedCoDel},
		{"tx_failed", n.WiredTxFailed}} {
		counter(c.drops, float64(d.n), d.why)
	}
	counter(c.echoes, float64(n.EchoAcked+n.EchoFailed), "matched")
	counter(c.echoes, float64(n.EchoUnmatched), "unmatched")
	counter(c.noStatus, float64(n.NoStatus))
	counter(c.timedOut, float64(n.TimedOut))
	b := &s.beacons
	ch <- prometheus.MustNewConstSummary(c.beaconEmit, b.Emitted, b.EmitLateSum.Seconds(), nil)
	ch <- prometheus.MustNewConstSummary(c.beaconEcho, b.Echoed, b.EchoLateSum.Seconds(), nil)
	gauge(c.beaconLateMax, b.EmitLateMax.Seconds(), "emit")
	gauge(c.beaconLateMax, b.EchoLateMax.Seconds(), "echo")
	counter(c.beaconMissed, float64(b.MissedIntervals))
	gauge(c.backlog, float64(s.status.Backlog))
	counter(c.rx, float64(n.RxFrames), "all")
	counter(c.rx, float64(n.RxMalformed), "malformed")
	counter(c.rx, float64(n.RxBadFCS), "bad_fcs")
	counter(c.rx, float64(n.RxDuplicates), "duplicate")
	counter(c.rx, float64(n.RxToWired), "to_wired")
	if sc := s.scan; sc != nil {
		counter(c.scanTrips, float64(sc.Trips))
		counter(c.scanAway, float64(sc.Away)/usPerSecond)
		counter(c.scanSweeps, float64(sc.Sweeps))
		gauge(c.scanLastSweep, float64(sc.LastSweep)/usPerSecond)
		counter(c.scanMissed, float64(sc.MissedBeacons))
		gauge(c.scanBSSes, float64(sc.BSSes))
		counter(c.scanRetunes, float64(sc.Retunes))
		counter(c.scanProbes, float64(sc.ProbesSent))
	}
}

// metricsHandler serves the registry of the core's collector, Go's and the
// process's.
func metricsHandler(srv *shell.ControlServer, wired *wiredView) http.Handler {
	return metricsHandlerFor(newCollector(srv, 2*time.Second, wired))
}

func metricsHandlerFor(c *collector) http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(c,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.HTTPErrorOnError}))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte("airqd: metrics at /metrics\n"))
	})
	return mux
}

// metricsServer serves /metrics on addr until Close.
type metricsServer struct {
	hs   *http.Server
	ln   net.Listener
	wg   sync.WaitGroup
	once sync.Once
}

func startMetrics(addr string, srv *shell.ControlServer, wired *wiredView) (*metricsServer, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("-metrics: %w", err)
	}
	m := &metricsServer{ln: ln, hs: &http.Server{Handler: metricsHandler(srv, wired), ReadHeaderTimeout: 5 * time.Second}}
	m.wg.Go(func() { m.hs.Serve(ln) }) // ends with http.ErrServerClosed at Close
	return m, nil
}

// Addr is the address the server listens on (the port chosen for ":0").
func (m *metricsServer) Addr() string { return m.ln.Addr().String() }

// Close stops the server, letting scrapes in progress finish for a second.
func (m *metricsServer) Close() error {
	var err error
	m.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if err = m.hs.Shutdown(ctx); err != nil {
			err = m.hs.Close()
		}
		m.wg.Wait()
	})
	return err
}
