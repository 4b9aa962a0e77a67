package ap

import (
	"time"

	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/txq"
)

// Control answers one control request from the core's state at now and
// applies the set requests live. Like every other event it runs on the
// core's goroutine; the caller flushes the output afterwards, since a
// removal sends a deauthentication and new limits can release frames.
func (a *AP) Control(now time.Duration, req ctl.Request) ctl.Reply {
	switch req.Op {
	case ctl.OpStatus:
		return ctl.Reply{Status: a.ctlStatus(now)}
	case ctl.OpStationDump:
		return ctl.Reply{Stations: a.ctlStations(now)}
	case ctl.OpStationGet:
		slot, s := a.sta.lookup(req.Addr)
		if s == nil {
			return noStation(req.Addr)
		}
		return ctl.Reply{Stations: []ctl.Station{a.ctlStation(now, slot)}}
	case ctl.OpStationSet:
		return a.ctlSetWeight(now, req)
	case ctl.OpStationDel:
		slot, s := a.sta.lookup(req.Addr)
		if s == nil {
			return noStation(req.Addr)
		}
		a.disconnect(now, slot, ieee80211.ReasonDeauthLeaving, "removed by operator", true)
		a.txLoop(now) // its airtime is reclaimed: others may send
		return ctl.Reply{}
	case ctl.OpAQL:
		return ctl.Reply{AQL: a.ctlAQL()}
	case ctl.OpAQLSet:
		if err := a.air.SetLimit(req.AC, req.Low, req.High); err != nil {
			return ctl.Errorf(ctl.EINVAL, "aql set: %v", err)
		}
		a.cfg.AQL.Low[req.AC], a.cfg.AQL.High[req.AC] = req.Low, req.High
		a.txLoop(now) // higher limits release queued frames at once
		return ctl.Reply{AQL: a.ctlAQL()}
	case ctl.OpAQLThreshold:
		a.air.SetThreshold(req.Threshold)
		a.cfg.AQL.Threshold = req.Threshold
		a.txLoop(now)
		return ctl.Reply{AQL: a.ctlAQL()}
	case ctl.OpScheduler:
		return ctl.Reply{Scheduler: a.ctlScheduler()}
	}
	return ctl.Errorf(ctl.EOPNOTSUPP, "request %v: not supported", req)
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
	if s.state != stateAssociated {
		return ctl.Errorf(ctl.ENOENT, "station %s: authenticated but not associated: no airtime weight yet", req.Addr)
	}
	a.sched.SetWeight(slot, req.Weight)
	a.txLoop(now)
	return ctl.Reply{Stations: []ctl.Station{a.ctlStation(now, slot)}}
}

func (a *AP) ctlStatus(now time.Duration) *ctl.Status {
	c := &a.cnt
	frames, _ := a.sched.Backlog()
	st := &ctl.Status{
		SSID: a.cfg.SSID, BSSID: ctl.MAC(a.cfg.BSSID), Channel: a.cfg.Channel, Freq: a.cfg.Freq,
		BeaconInterval: a.cfg.BeaconInterval, DTIMPeriod: a.cfg.DTIMPeriod, WMM: a.cfg.WMM,
		Scheduler: a.sched.Mode().String(), Stations: a.assoc, Authenticated: len(a.sta.byAddr) - a.assoc,
		MaxStations: a.cfg.MaxStations, Backlog: frames,
		RxFrames: c.RxFrames, RxMalformed: c.RxMalformed, RxBadFCS: c.RxBadFCS, RxFromUnknown: c.RxFromUnknown,
		RxDuplicates: c.RxDuplicates, RxToWired: c.RxToWired, RxIntraBSS: c.RxIntraBSS,
		Echoes: c.Echoes, EchoUnmatched: c.EchoUnmatched, NoStatus: c.NoStatus, TimedOut: c.TimedOut,
		Beacons: c.Beacons, ProbeResponses: c.ProbeResponses, Deauths: c.Deauths,
		WiredIn: c.WiredIn, WiredSent: c.WiredSent, DropNoStation: c.WiredDroppedNoStation,
		DropQueue: c.WiredDroppedQueue, DropMalformed: c.WiredDroppedMalformed,
		DropNoBuffer: c.WiredDroppedNoBuffer, DropFlushed: c.WiredDroppedFlushed, DropCoDel: c.WiredDroppedCoDel,
		WiredDropped: c.WiredDropped, OutputOverflow: c.OutputOverflow, EventsLost: a.eventsLost,
		AirtimePending: uint64(a.air.Total()), InFlightCap: a.cfg.InFlightPerAC,
	}
	if a.started {
		st.TSF = a.TSF(now)
	}
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		st.InFlightFrames += a.air.InFlight(ac)
	}
	return st
}

// ctlStations lists the table in AID order, as iw lists mac80211's.
func (a *AP) ctlStations(now time.Duration) []ctl.Station {
	var out []ctl.Station // nil when empty, as the wire form decodes it
	for slot := 1; slot < len(a.sta.slots); slot++ {
		if a.sta.slots[slot].state != stateNone {
			out = append(out, a.ctlStation(now, uint16(slot)))
		}
	}
	return out
}

// capShortPreamble is the Short Preamble bit of the Capability field.
const capShortPreamble = 1 << 5

func (a *AP) ctlStation(now time.Duration, slot uint16) ctl.Station {
	s := &a.sta.slots[slot]
	c := &s.StationCounters
	st := ctl.Station{
		Addr: ctl.MAC(s.addr), AID: slot, Associated: s.state == stateAssociated, WMM: s.qos,
		ShortPreamble: s.capability&capShortPreamble != 0, ListenInt: s.listenInterval,
		InactiveMs: (now - s.lastRx).Milliseconds(), Signal: s.signal, TxBitrate: a.dataRate(s).Kbps(),
		RxBytes: c.RxBytes, RxPackets: c.RxPackets, TxBytes: c.TxBytes, TxPackets: c.TxPackets,
		TxRetries: c.TxRetries, TxFailed: c.TxFailed, TxNoStatus: c.TxNoStatus, RxDuplicates: c.RxDuplicates,
		RxDropMisc: c.RxDroppedUnauthorize, TxQueueDrops: c.TxQueueDrops, TxAirtime: c.TxAirtime,
		AirtimeWeight: a.cfg.AirtimeWeight,
	}
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		st.AQLPending[ac] = a.air.Pending(slot, ac)
		lo, hi := a.air.StationLimit(slot, ac)
		st.AQLLimitLow[ac], st.AQLLimitHigh[ac] = int64(lo), int64(hi)
		st.InFlight[ac] = int64(a.air.StationInFlight(slot, ac))
	}
	if !st.Associated {
		return st // the scheduler holds nothing for it yet
	}
	st.ConnectedMs = (now - s.assocAt).Milliseconds()
	st.AirtimeWeight = a.sched.Weight(slot)
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		st.AirtimeDeficit[ac] = a.sched.Deficit(slot, ac)
		st.ACAirtime[ac] = int64(a.sched.StationAirtime(slot, ac))
	}
	for tid := range uint8(ieee80211.NumTIDs) {
		if q := a.sched.Queue(slot, tid); q != nil {
			st.QueueFramesTotal += q.Len()
		}
	}
	return st
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
