package ap

import (
	"math"
	"slices"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rate"
	"github.com/airq/airq/scan"
	"github.com/airq/airq/txq"
)

// Control answers one control request from the core's state at now and
// applies the set requests live. Like every other event it runs on the
// core's goroutine; the caller flushes the output afterwards, since a
// removal sends a deauthentication and new limits can release frames.
func (a *AP) Control(now time.Duration, req ctl.Request) ctl.Reply {
	of := -1 // the BSS a station request is scoped to; -1: every BSS
	if req.Dev != "" {
		i, r, ok := a.scopeToDev(req)
		if !ok {
			return r
		}
		of = i
	}
	switch req.Op {
	case ctl.OpStatus:
		st := a.ctlStatus(now)
		if of >= 0 {
			a.describeBSS(st, of) // the named BSS's, the radio's beside it
		}
		return ctl.Reply{Status: st}
	case ctl.OpDev:
		return ctl.Reply{Devs: a.ctlDevs()}
	case ctl.OpStationDump:
		if req.Page != nil {
			a.fillPage(now, req.Page, of)
			return ctl.Reply{}
		}
		return ctl.Reply{Stations: a.ctlStations(now, of)}
	case ctl.OpStationGet:
		slot, s := a.sta.lookup(req.Addr)
		if s == nil {
			return noStation(req.Addr)
		}
		return ctl.Reply{Stations: []ctl.Station{a.ctlStation(now, slot, nil)}}
	case ctl.OpStationSet:
		return a.ctlSetWeight(now, req)
	case ctl.OpStationDel:
		slot, s := a.sta.lookup(req.Addr)
		if s == nil {
			return noStation(req.Addr)
		}
		reason := req.Reason
		if reason == 0 {
			reason = ieee80211.ReasonDeauthLeaving
		}
		if req.Disassoc {
			a.disassociate(now, slot, s, reason)
			return ctl.Reply{}
		}
		why := req.Why
		if why == "" {
			why = "removed by operator"
		}
		a.disconnect(now, slot, reason, why, true)
		a.txLoop(now) // its airtime is reclaimed: others may send
		return ctl.Reply{}
	case ctl.OpAQL:
		return ctl.Reply{AQL: a.ctlAQL()}
	case ctl.OpAQLSet:
		if err := req.CheckAQLSet(); err != nil {
			return ctl.Errorf(ctl.EINVAL, "%v", err)
		}
		if err := a.air.SetLimit(req.AC, req.Low, req.High); err != nil {
			return ctl.Errorf(ctl.EINVAL, "aql set: %v", err)
		}
		a.cfg.AQL.Low[req.AC], a.cfg.AQL.High[req.AC] = req.Low, req.High
		a.sched.LimitsChanged(req.AC)
		a.txLoop(now) // higher limits release queued frames at once
		return ctl.Reply{AQL: a.ctlAQL()}
	case ctl.OpAQLThreshold:
		a.air.SetThreshold(req.Threshold)
		a.cfg.AQL.Threshold = req.Threshold
		a.txLoop(now)
		return ctl.Reply{AQL: a.ctlAQL()}
	case ctl.OpScheduler:
		return ctl.Reply{Scheduler: a.ctlScheduler()}
	case ctl.OpAirtime:
		return ctl.Reply{Airtime: a.ctlAirtime(now)}
	case ctl.OpAirtimeSet:
		return a.ctlAirtimeSet(now, req)
	case ctl.OpStationRates:
		slot, s := a.sta.lookup(req.Addr)
		if s == nil {
			return noStation(req.Addr)
		}
		return ctl.Reply{Rates: a.ctlRates(slot)}
	case ctl.OpScan, ctl.OpScanDump:
		if a.scan == nil {
			return ctl.Errorf(ctl.EOPNOTSUPP, "%v: scanning is off: start airqd with -scan", req)
		}
		if req.Op == ctl.OpScan {
			return ctl.Reply{Scan: a.ctlScan(now)}
		}
		return ctl.Reply{BSSes: a.ctlBSSes(now)}
	case ctl.OpSurveyDump:
		return ctl.Reply{Surveys: a.ctlSurveys(now)}
	case ctl.OpACS:
		return ctl.Reply{ACS: a.ctlACS()}
	case ctl.OpSnapshot:
		return a.ctlSnapshot(now)
	case ctl.OpSAQuery:
		return a.ctlSAQuery(now, req.Addr)
	case ctl.OpStationPMK:
		return a.ctlStationPMK(now, req.Addr, of)
	case ctl.OpDisable:
		if !a.Disable(now) {
			return ctl.Errorf(ctl.EBUSY, "disable: the BSS is not running (already disabled, or choosing its channel)")
		}
		return ctl.Reply{}
	case ctl.OpEnable:
		if !a.Enable(now) {
			return ctl.Errorf(ctl.EBUSY, "enable: the BSS is not disabled")
		}
		return ctl.Reply{}
	}
	return ctl.Errorf(ctl.EOPNOTSUPP, "request %v: not supported", req)
}

// ctlACS reports the start-up channel selection.
func (a *AP) ctlACS() *ctl.ACS {
	r := &ctl.ACS{Scanning: a.ACSScanning()}
	d, ok := a.ACSDecision()
	if !ok {
		return r
	}
	r.Decided, r.TookMs = true, a.ACSTook().Milliseconds()
	r.Channel, r.Freq, r.Method = d.Channel, d.Freq, d.Method
	r.Text = string(scan.AppendDecision(nil, &d))
	return r
}

func noStation(addr ieee80211.MAC) ctl.Reply {
	return ctl.Errorf(ctl.ENOENT, "station %s: not authenticated or associated", addr)
}

func (a *AP) ctlSetWeight(now time.Duration, req ctl.Request) ctl.Reply {
	slot, s := a.sta.lookup(req.Addr)
	if s == nil {
		return noStation(req.Addr)
	}
	// Association gives the scheduler the station with the default weight,
	// so a weight set before it would be lost; refuse instead.
	if s.State != bss.StateAssociated {
		return ctl.Errorf(ctl.ENOENT, "station %s: authenticated but not associated: no airtime weight yet", req.Addr)
	}
	if err := a.airtimeOwnsWeights(); err != nil {
		return ctl.Errorf(ctl.EBUSY, "station %s: %v", req.Addr, err)
	}
	a.sched.SetWeight(slot, req.Weight)
	a.txLoop(now)
	return ctl.Reply{Stations: []ctl.Station{a.ctlStation(now, slot, nil)}}
}

func (a *AP) ctlStatus(now time.Duration) *ctl.Status {
	st := &ctl.Status{
		Channel: a.cfg.Channel, Freq: a.cfg.Freq, BeaconInterval: a.cfg.BeaconInterval,
		Scheduler: a.sched.Mode().String(), Counters: a.Counters(),
		AirtimePending: uint64(a.air.Total()), InFlightCap: a.cfg.InFlightPerAC, Scanning: a.scan != nil,
		Rates: ctl.Rates(slices.Clone(a.bss.Rates.IE)),
	}
	a.protectionStatus(st)
	if a.cfg.PHY.HT {
		st.SecondaryChannel = a.cfg.PHY.SecondaryAt(a.cfg.Channel)
	}
	if a.started {
		st.TSF = a.TSF(now)
	}
	a.describeBSS(st, 0)
	b := &a.beacons
	st.BeaconsEmitted, st.BeaconsEchoed, st.BeaconsMissed = b.Emitted, b.Echoed, b.MissedIntervals
	st.BeaconEmitSum, st.BeaconEchoSum = b.EmitLateSum.Microseconds(), b.EchoLateSum.Microseconds()
	st.BeaconEmitMean, st.BeaconEmitMax = meanUS(b.EmitLateSum, b.Emitted), b.EmitLateMax.Microseconds()
	st.BeaconEchoMean, st.BeaconEchoMax = meanUS(b.EchoLateSum, b.Echoed), b.EchoLateMax.Microseconds()
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		st.InFlightFrames += a.air.InFlight(ac)
	}
	if a.cfg.Advert.BSSLoadPeriod != 0 {
		l := &a.radios[0].load
		st.ChanUtil = int(l.util)
		if a.cfg.Advert.ChanUtilAvgPeriod != 0 {
			st.ChanUtilAvg = int(l.avg)
		}
	}
	return st
}

// ctlSnapshot is every section a monitoring system reads, from one instant.
func (a *AP) ctlSnapshot(now time.Duration) ctl.Reply {
	r := ctl.Reply{Status: a.ctlStatus(now), Stations: a.ctlStations(now, -1), AQL: a.ctlAQL(), Scheduler: a.ctlScheduler(),
		Devs: a.ctlDevs()}
	if a.scan != nil {
		r.Scan = a.ctlScan(now)
	}
	return r
}

// meanUS is sum/n in µs, 0 for n = 0.
func meanUS(sum time.Duration, n uint64) int64 {
	if n == 0 {
		return 0
	}
	return (sum / time.Duration(n)).Microseconds()
}

func (a *AP) ctlAQL() *ctl.AQL {
	l := a.air.Limits()
	p := a.air.Snapshot()
	q := &ctl.AQL{Threshold: l.Threshold, PendingTotal: p.Total}
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		q.Low[ac], q.High[ac] = int64(l.Low[ac]), int64(l.High[ac])
		q.Pending[ac] = int64(p.AC[ac])
		q.InFlight[ac] = int64(a.air.InFlight(ac))
		q.FrameCap[ac] = int64(a.cfg.InFlightPerAC)
	}
	return q
}

func (a *AP) ctlScheduler() *ctl.Scheduler {
	frames, bytes := a.sched.Backlog()
	s := &ctl.Scheduler{Mode: a.sched.Mode().String(), BacklogFrame: frames, BacklogBytes: bytes,
		Collisions: a.sched.Collisions()}
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		st := a.sched.Stats(ac)
		round, open := a.sched.Round(ac)
		s.AC[ac] = ctl.SchedulerAC{AC: ctl.AC(ac), Round: round, Open: open, Listed: a.sched.Listed(ac),
			RoundsOpened: st.RoundsOpened, RoundsClosed: st.RoundsClosed, Selections: st.Selections,
			IdleSelections: st.IdleSelections, Skipped: st.Skipped, SkippedStale: st.SkippedStale,
			Airtime: st.Airtime, DropsQueueFull: st.Drops[txq.DropQueueFull], DropsOverlimit: st.Drops[txq.DropOverlimit],
			DropsOvermem: st.Drops[txq.DropOvermemory], DropsFlush: st.Drops[txq.DropFlush],
			CoDelDrops: st.CoDelDrops, CoDelMarks: st.CoDelMarks}
	}
	return s
}

// ctlRates is the station's rate table, or for a station without rate
// selection the fixed rate its data goes at.
func (a *AP) ctlRates(slot uint16) *ctl.RateTable {
	s := &a.sta.slots[slot]
	best := a.dataRate(s)
	t := &ctl.RateTable{Addr: ctl.MAC(s.Addr), Selector: s.rc != nil, Best: rate.Mode(best) + " " + rate.Name(best),
		BestKbps: best.Kbps()}
	if s.rc == nil {
		return t
	}
	c := s.rc.Counters()
	t.Frames, t.Samples, t.Unknown = c.Frames, c.Samples, c.Unknown
	for _, r := range s.rc.Stats() {
		t.Rows = append(t.Rows, ctlRate(&r))
	}
	return t
}

func ctlRate(r *rate.RateStats) ctl.RateStats {
	return ctl.RateStats{Mode: rate.Mode(r.Rate), Guard: rate.Guard(r.Rate), Streams: rate.Streams(r.Rate), Name: rate.Name(r.Rate),
		Kbps: r.Rate.Kbps(), Best: r.Best, Second: r.Second, Robust: r.Robust, Airtime: r.Airtime,
		MaxTP: finite(r.MaxTP), TP: finite(r.TP), Prob: finite(r.Prob), Measured: r.Measured, Retries: r.Retries,
		LastSucc: r.LastSucc, LastAtt: r.LastAtt, Successes: r.Successes, Attempts: r.Attempts, Samples: r.Samples,
		FrameBytes: r.FrameBytes}
}

// finite keeps a figure the wire can carry: NaN and infinities become 0.
func finite(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

func us(d time.Duration) uint64 { return uint64(max(d, 0) / time.Microsecond) }

func (a *AP) ctlScan(now time.Duration) *ctl.ScanStatus {
	sc := a.scan
	st := a.ScanStats()
	p := &st.Planner
	cfg := sc.planner.Config()
	on, done, total := sc.planner.Sweeping()
	ts := sc.table.Stats()
	out := &ctl.ScanStatus{Mode: cfg.Mode.String(), Channels: len(cfg.Channels), TripLimit: us(sc.planner.Limit()),
		Sweeping: on, SweepVisited: done, SweepChannels: total, Trips: p.Trips, ActiveVisits: p.ActiveVisits,
		PassiveVisits: p.PassiveVisits, Sweeps: p.Sweeps, SweepAge: -1, LastSweep: us(p.LastSweep),
		LongestSweep: us(p.LongestSweep), LongestTrip: us(p.LongestTrip), Deferred: p.Deferred, Forced: p.Forced,
		MissedBeacons: p.MissedBeacons, NoRoom: p.NoRoom, Retunes: st.Retunes, RetuneMax: us(st.RetuneMax),
		RetuneTooSlow: st.RetuneTooSlow, Away: us(st.Away), RxWhileAway: st.RxWhileAway, ProbesSent: st.ProbesSent,
		TableUpdates: ts.Updates, TableAdded: ts.Added, TableEvicted: ts.Evicted, TableExpired: ts.Expired,
		TableMalformed: ts.Malformed}
	if p.Trips > 0 {
		out.SweepAge = (now - p.SweepStart).Milliseconds()
	}
	out.BSSes = len(sc.table.All(nil, now))
	return out
}

// ctlBSSes lists the table by frequency, then BSSID.
func (a *AP) ctlBSSes(now time.Duration) []ctl.BSS {
	all := a.ScanResults(nil, now)
	var out []ctl.BSS // nil when empty, as the wire form decodes it
	for i := range all {
		e := &all[i]
		b := ctl.BSS{BSSID: ctl.MAC(e.BSSID), SSID: string(e.SSID[:e.SSIDLen]), Hidden: e.Hidden, Freq: e.Freq,
			HeardFreq: e.HeardFreq, Signal: e.Signal, HasSignal: e.HasSignal,
			LastSeen: (now - e.LastSeen).Milliseconds(), FirstSeen: (now - e.FirstSeen).Milliseconds(),
			Capability: e.Capability, BeaconInterval: e.BeaconInterval, TSF: e.TSF, Beacons: e.Beacons,
			ProbeResps: e.ProbeResps, FromProbe: e.FromProbe, DSChannel: e.DSChannel, HT: e.HT,
			HTCapInfo: e.HTCapInfo, HTOper: e.HTOper, HTPrimary: e.HTPrimary, HTSecondary: e.HTSecondary,
			HTAnyWidth: e.HTAnyWidth, VHT: e.VHT, VHTCapInfo: e.VHTCapInfo, VHTOper: e.VHTOper,
			VHTWidth: e.VHTWidth, VHTSeg0: e.VHTSeg0, VHTSeg1: e.VHTSeg1, VHTBasicMCS: e.VHTBasicMCS, RSN: e.RSN}
		if e.NRates > 0 {
			b.Rates = ctl.Rates(slices.Clone(e.Rates[:e.NRates]))
		}
		out = append(out, b)
	}
	return out
}

// ctlSurveys lists the channels in the table's configuration order.
func (a *AP) ctlSurveys(now time.Duration) []ctl.Survey {
	var out []ctl.Survey
	for _, s := range a.Surveys(nil, now) {
		out = append(out, ctl.Survey{Freq: s.Freq, InUse: s.InUse, Noise: s.Noise, HasNoise: s.HasNoise,
			Active: us(s.Active), Busy: us(s.Busy), Rx: us(s.Rx), Tx: us(s.Tx), Dwell: us(s.Dwell),
			Visits: s.Visits, Beacons: s.Beacons, ProbeResps: s.ProbeResps, BSSes: s.BSSes})
	}
	return out
}
