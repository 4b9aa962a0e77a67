package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/tap"
)

const usPerSecond = 1e6

// sectionDescs are the families of the snapshot's sections other than the
// counters: per station, per AC, the scheduler, beacons, scan and TAP.
type sectionDescs struct {
	staAirtime, staPending, staBytes, staPackets      *prometheus.Desc
	staRetries, staFailed, staNoStatus, staSignal     *prometheus.Desc
	staWeight, staQueued                              *prometheus.Desc
	staAMSDUs, staAMSDUSubframes, staAMSDUBytes       *prometheus.Desc
	acAirtime, acPending, acLimit, acInFlight, thresh *prometheus.Desc
	schedDrops, rounds, selections, idle, skipped     *prometheus.Desc
	skippedStale                                      *prometheus.Desc
	beaconEmit, beaconEcho, beaconMax, beaconMissed   *prometheus.Desc
	scanTrips, scanAway, scanSweeps, scanLastSweep    *prometheus.Desc
	scanMissed, scanBSSes, scanRetunes, scanProbes    *prometheus.Desc
	tapOffload                                        *prometheus.Desc
	all                                               []*prometheus.Desc
	fixed                                             fixedPairs
}

func newSectionDescs() sectionDescs {
	s := sectionDescs{fixed: newFixedPairs()}
	d := func(name, help string, labels ...string) *prometheus.Desc {
		desc := prometheus.NewDesc("airq_"+name, help, labels, nil)
		s.all = append(s.all, desc)
		return desc
	}
	s.staAirtime = d("station_airtime_seconds_total", "Airtime charged to a station by the scheduler, per access category.", "mac", "ac")
	s.staPending = d("station_aql_pending_seconds", "A station's pending airtime (AQL), per access category.", "mac", "ac")
	s.staBytes = d("station_bytes_total", "Data bytes to (tx) and from (rx) a station.", "mac", "dir")
	s.staPackets = d("station_packets_total", "Data frames to (tx) and from (rx) a station.", "mac", "dir")
	s.staRetries = d("station_tx_retries_total", "Retransmissions to a station, from TX status.", "mac")
	s.staFailed = d("station_tx_failed_total", "Frames a station never acknowledged.", "mac")
	s.staNoStatus = d("station_tx_no_status_total", "Frames to a station completed without a TX status.", "mac")
	s.staSignal = d("station_signal_dbm", "Signal of the last frame received from a station.", "mac")
	s.staWeight = d("station_airtime_weight", "A station's airtime weight.", "mac")
	s.staQueued = d("station_queued_frames", "Frames queued for a station.", "mac")
	s.staAMSDUs = d("station_tx_amsdus_total", "A-MSDUs sent to a station.", "mac")
	s.staAMSDUSubframes = d("station_tx_amsdu_subframes_total", "MSDUs sent to a station inside A-MSDUs.", "mac")
	s.staAMSDUBytes = d("station_tx_amsdu_bytes_total", "802.3 bytes sent to a station inside A-MSDUs.", "mac")

	s.acAirtime = d("airtime_seconds_total", "Airtime charged by the scheduler, per access category.", "ac")
	s.acPending = d("aql_pending_seconds", "Pending airtime (AQL), per access category.", "ac")
	s.acLimit = d("aql_limit_seconds", "AQL per-station limits (aql_txq_limit), per access category.", "ac", "bound")
	s.acInFlight = d("inflight_frames", "Frames handed to the radio and not completed, per access category.", "ac")
	s.thresh = d("aql_threshold_seconds", "AQL threshold (aql_threshold).")

	s.schedDrops = d("scheduler_drops_total", "Frames the queues dropped, per access category and reason: "+
		"airq_downlink_drops_total's queue reasons by access category, inactivity polls included.", "ac", "reason")
	s.rounds = d("scheduler_rounds_total", "Scheduler rounds per access category: opened, or closed by the airtime check.", "ac", "state")
	s.selections = d("scheduler_selections_total", "Queues the scheduler selected, per access category.", "ac")
	s.idle = d("scheduler_idle_selections_total", "Selections of an empty queue, per access category (trace mode only).", "ac")
	s.skipped = d("scheduler_skipped_rounds_total", "Open rounds whose first selection found nothing while an eligible, "+
		"backlogged queue was listed, per access category.", "ac")
	s.skippedStale = d("scheduler_skipped_stale_rounds_total", "Skipped rounds ended by a queue stamped with the current "+
		"round number (a stamp left from an earlier round), per access category.", "ac")

	s.beaconEmit = d("beacon_emit_delay_seconds", "Delay from the target beacon transmission time to the core emitting the beacon.")
	s.beaconEcho = d("beacon_echo_delay_seconds", "Delay from the target beacon transmission time to the beacon's TX-status echo.")
	s.beaconMax = d("beacon_delay_max_seconds", "Largest beacon delay since start.", "stage")
	s.beaconMissed = d("beacon_missed_intervals_total", "Target beacon times skipped because the core ran late.")

	s.scanTrips = d("scan_trips_total", "Background scan trips off the operating channel.")
	s.scanAway = d("scan_away_seconds_total", "Time spent off the operating channel by scan trips.")
	s.scanSweeps = d("scan_sweeps_total", "Completed sweeps over every scanned channel.")
	s.scanLastSweep = d("scan_last_sweep_seconds", "Duration of the last complete sweep.")
	s.scanMissed = d("scan_missed_beacons_total", "Beacons skipped by scan trips that cross a target beacon time.")
	s.scanBSSes = d("scan_bss", "Other BSSs in the scan table, heard within the table's age.")
	s.scanRetunes = d("scan_retunes_total", "Channel changes made for scan trips.")
	s.scanProbes = d("scan_probe_requests_total", "Probe requests sent on scan trips.")

	s.tapOffload = d("tap_offload_total", "TAP offload events: GSO frames read from the host and cut into segments (gso_read, "+
		"tap_offload=tso), writes that merged TCP segments into one GSO frame (gso_written), frames from the host dropped "+
		"because their virtio-net header did not match them (bad_header).", "event")
	return s
}

func (s *sectionDescs) describe(ch chan<- *prometheus.Desc) {
	for _, d := range s.all {
		ch <- d
	}
}

func (s *sectionDescs) collect(e emitter, r *ctl.Reply) {
	s.collectStations(e, r.Stations)
	s.collectACs(e, r.AQL, r.Scheduler)
	s.collectBeacons(e, r.Status)
	if r.Scan != nil {
		s.collectScan(e, r.Scan)
	}
}

func (s *sectionDescs) collectACs(e emitter, q *ctl.AQL, sched *ctl.Scheduler) {
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		name := ac.String()
		a := &sched.AC[ac]
		e.counter(s.acAirtime, float64(a.Airtime)/usPerSecond, name)
		e.gauge(s.acPending, float64(q.Pending[ac])/usPerSecond, name)
		e.gauge(s.acLimit, float64(q.Low[ac])/usPerSecond, name, "low")
		e.gauge(s.acLimit, float64(q.High[ac])/usPerSecond, name, "high")
		e.gauge(s.acInFlight, float64(q.InFlight[ac]), name)
		// The reasons are the downlink's, so the two families line up.
		for _, d := range []struct {
			reason string
			n      uint64
		}{{counter.ReasonQueueFull, a.DropsQueueFull}, {counter.ReasonOverlimit, a.DropsOverlimit},
			{counter.ReasonOvermemory, a.DropsOvermem}, {counter.ReasonFlushed, a.DropsFlush},
			{counter.ReasonCoDel, a.CoDelDrops}} {
			e.counter(s.schedDrops, float64(d.n), name, d.reason)
		}
		e.counter(s.rounds, float64(a.RoundsOpened), name, "opened")
		e.counter(s.rounds, float64(a.RoundsClosed), name, "closed")
		e.counter(s.selections, float64(a.Selections), name)
		e.counter(s.idle, float64(a.IdleSelections), name)
		e.counter(s.skipped, float64(a.Skipped), name)
		e.counter(s.skippedStale, float64(a.SkippedStale), name)
	}
	e.gauge(s.thresh, float64(q.Threshold)/usPerSecond)
}

func (s *sectionDescs) collectBeacons(e emitter, st *ctl.Status) {
	e.ch <- prometheus.MustNewConstSummary(s.beaconEmit, st.BeaconsEmitted, float64(st.BeaconEmitSum)/usPerSecond, nil)
	e.ch <- prometheus.MustNewConstSummary(s.beaconEcho, st.BeaconsEchoed, float64(st.BeaconEchoSum)/usPerSecond, nil)
	e.gauge(s.beaconMax, float64(st.BeaconEmitMax)/usPerSecond, "emit")
	e.gauge(s.beaconMax, float64(st.BeaconEchoMax)/usPerSecond, "echo")
	e.counter(s.beaconMissed, float64(st.BeaconsMissed))
}

func (s *sectionDescs) collectScan(e emitter, sc *ctl.ScanStatus) {
	e.counter(s.scanTrips, float64(sc.Trips))
	e.counter(s.scanAway, float64(sc.Away)/usPerSecond)
	e.counter(s.scanSweeps, float64(sc.Sweeps))
	e.gauge(s.scanLastSweep, float64(sc.LastSweep)/usPerSecond)
	e.counter(s.scanMissed, float64(sc.MissedBeacons))
	e.gauge(s.scanBSSes, float64(sc.BSSes))
	e.counter(s.scanRetunes, float64(sc.Retunes))
	e.counter(s.scanProbes, float64(sc.ProbesSent))
}

func (s *sectionDescs) collectTAP(e emitter, t *tap.Stats) {
	e.counter(s.tapOffload, float64(t.RxGSO), "gso_read")
	e.counter(s.tapOffload, float64(t.TxGSO), "gso_written")
	e.counter(s.tapOffload, float64(t.RxBadOffload), "bad_header")
}
