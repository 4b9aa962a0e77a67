package txq

import (
	"errors"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

var errSlot = errors.New("txq: station slot out of range")

func (s *Scheduler) valid(sta uint16) bool { return sta != 0 && int(sta) < len(s.stas) }

// AddStation makes a slot usable with the default weight and a deficit of
// one quantum per AC (as __sta_info_alloc). Adding a present station is a
// no-op.
func (s *Scheduler) AddStation(sta uint16) error {
	if !s.valid(sta) {
		return errSlot
	}
	st := &s.stas[sta]
	if st.present {
		return nil
	}
	*st = station{present: true, weight: DefaultWeight}
	for ac := range ieee80211.NumACs {
		*s.airOf(sta, ieee80211.AC(ac)) = air{def: DefaultWeight, hp: -1, hbase: s.groups[0].hbase}
	}
	s.numSta++
	s.members[0]++
	return nil
}

// RemoveStation takes the station's queues off the scheduler and gives every
// queued frame back through Owner.Drop with DropFlush. A queue the caller
// has checked out may still be passed to Return; it is ignored.
func (s *Scheduler) RemoveStation(sta uint16) {
	if !s.valid(sta) || !s.stas[sta].present {
		return
	}
	s.offList(sta)
	for tid := range uint8(ieee80211.NumTIDs) {
		q := s.Queue(sta, tid)
		s.setState(q, stIdle)
		s.moved(q)
		s.flush(q, DropFlush)
	}
	s.members[s.stas[sta].group]--
	s.stas[sta] = station{}
	s.numSta--
}

// offList takes every queue of a station off its AC's list.
func (s *Scheduler) offList(sta uint16) {
	for tid := range uint8(ieee80211.NumTIDs) {
		s.unlist(s.Queue(sta, tid))
	}
}

// SetPaused takes a dozing station's queues off the scheduler (true) and
// puts those holding frames back (false). Frames stay queued; while paused,
// frames fetched with Dequeue (PS-Poll delivery) bypass CoDel, and on waking
// the station's flows start CoDel afresh: time in a power-save buffer is not
// a standing queue.
func (s *Scheduler) SetPaused(sta uint16, paused bool, now time.Duration) {
	if !s.valid(sta) || !s.stas[sta].present || s.stas[sta].paused == paused {
		return
	}
	s.stas[sta].paused = paused
	if paused {
		s.offList(sta)
		return
	}
	for tid := range uint8(ieee80211.NumTIDs) {
		q := s.Queue(sta, tid)
		// What waited in the power-save buffer was no standing queue:
		// CoDel starts afresh for the station's flows.
		for _, l := range [2]*flist{&q.newFlows, &q.oldFlows} {
			for fi := l.first; fi >= 0; fi = s.flows[fi].next {
				s.flows[fi].cv = codelVars{recInvSqrt: s.flows[fi].cv.recInvSqrt}
			}
		}
		if q.frames > 0 {
			s.schedule(q, false, now)
		}
	}
}

// SetWeight sets the station's airtime weight (at least 1), live. As in
// mac80211 the current deficit is not rescaled.
func (s *Scheduler) SetWeight(sta uint16, weight uint16) {
	if !s.valid(sta) || !s.stas[sta].present {
		return
	}
	w := int32(max(weight, 1))
	if s.shares {
		for ac := range ieee80211.AC(ieee80211.NumACs) {
			if s.competes(sta, ac) {
				s.share[ac].weight[s.stas[sta].group] += int64(w - s.stas[sta].weight)
				s.share[ac].total += int64(w - s.stas[sta].weight)
			}
		}
	}
	if !s.prod {
		s.stas[sta].weight = w
		return
	}
	for ac := range ieee80211.NumACs {
		s.realize(sta, ieee80211.AC(ac), s.airOf(sta, ieee80211.AC(ac)))
	}
	s.stas[sta].weight = w
	for ac := range ieee80211.NumACs {
		s.file(sta, ieee80211.AC(ac), s.airOf(sta, ieee80211.AC(ac)))
	}
}

// Weight reports the station's airtime weight.
func (s *Scheduler) Weight(sta uint16) uint16 {
	if !s.valid(sta) {
		return 0
	}
	return uint16(s.stas[sta].weight)
}

// SetExpectedThroughput is ieee80211_sta_set_expected_throughput: below
// SlowThresholdKbps times the number of stations (and above 0) the
// station's flows get CoDel target 50 ms, interval 300 ms and no ECN;
// otherwise 20 ms, 100 ms and ECN.
func (s *Scheduler) SetExpectedThroughput(sta uint16, kbps uint32) {
	if !s.valid(sta) || !s.stas[sta].present {
		return
	}
	s.stas[sta].slow = !s.cfg.NoSlowStationCoDel && kbps != 0 &&
		uint64(kbps) < uint64(SlowThresholdKbps)*uint64(s.numSta)
}
