package txq

import "github.com/airq/airq/internal/ieee80211"

// Production mode: the kernel's walk without walking. See "Production mode"
// in doc.go.

func (s *Scheduler) airIndex(sta uint16, ac ieee80211.AC) int32 {
	return int32(sta)*ieee80211.NumACs + int32(ac)
}

// passes is how often the walk has passed queue q since a filing at lap
// fLap (q listed all along).
func (s *Scheduler) passes(A *acState, fLap int64, q *TXQ) int64 {
	v := A.lap - fLap
	if q.label < s.queues[A.front].label {
		v++
	}
	if q.behind {
		v--
	}
	return v
}

// refills is the credit the walk has given the station since it was filed:
// one weight per pass over any of its listed queues while in debt.
func (s *Scheduler) refills(sta uint16, ac ieee80211.AC, a *air) int64 {
	if a.need == 0 {
		return 0
	}
	A := &s.acs[ac]
	var v int64
	for i, tid := range acTIDs[ac] {
		if a.listed&(1<<i) != 0 {
			v += s.passes(A, a.fLap, &s.queues[s.queueIndex(sta, tid)])
		}
	}
	return min(v, a.need) * int64(s.stas[sta].weight)
}

// realize books the refills earned so far into the deficit. Every realize
// is followed by a file, which starts counting passes again.
func (s *Scheduler) realize(sta uint16, ac ieee80211.AC, a *air) {
	if a.need != 0 { // tested inline: most realizes have nothing to book
		a.def += s.refills(sta, ac, a)
		a.need = 0
	}
}

// file records where the walk will stop for the station: each of its listed
// queues is passed once per lap, in label order from the cursor; while its
// effective deficit is negative each pass adds a weight, and the first pass
// that finds it non-negative stops the walk, if AQL allows the station then.
// Call it, after realize, whenever the deficit, the weight, the pending
// airtime, the limits or the station's listed queues change.
func (s *Scheduler) file(sta uint16, ac ieee80211.AC, a *air) {
	// Tested inline: every checkout files a station with its queue out.
	if a.listed == 0 && a.out != 0 && a.hp >= 0 {
		return // Return files it again; until then stop skips the entry
	}
	s.fileNow(sta, ac, a)
}

// fileNow is file past its test for a checked-out queue.
func (s *Scheduler) fileNow(sta uint16, ac ieee80211.AC, a *air) {
	A := &s.acs[ac]
	if a.listed == 0 {
		// Nothing to stop at and no pass to refill on (refills counts
		// passes over listed queues), so neither the debt nor the AQL
		// answers matter until a queue is listed, and that files again.
		a.fLap, a.need = A.lap, 0
		s.heapDrop(A, s.airIndex(sta, ac))
		return
	}
	// The listed queues (one or both of the AC's two TIDs), each marked
	// behind the cursor or not; a queue is listed, so the cursor is on one.
	var qs [2]int32
	var p, r *TXQ // the first and the last of them
	m := 0
	front := s.queues[A.front].label
	tids, base := &acTIDs[ac], int32(sta)*ieee80211.NumTIDs
	if a.listed&1 != 0 {
		qs[0] = base + int32(tids[0])
		p = &s.queues[qs[0]]
		p.behind = p.label < front
		r, m = p, 1
	}
	if a.listed&2 != 0 {
		qs[m] = base + int32(tids[1])
		r = &s.queues[qs[m]]
		r.behind = r.label < front
		if m == 0 {
			p = r
		}
		m++
	}
	a.fLap, a.need = A.lap, 0
	pending, low, high := s.air.StationBelow(sta, ac)
	if eff := a.def - int64(pending); eff < 0 {
		w := int64(s.stas[sta].weight)
		a.need = (-eff + w - 1) / w
	}
	hp := int8(-1)
	switch {
	case low:
		hp = heapAllowed
	case high:
		hp = heapBelowHigh
	}
	if hp >= 0 {
		hp += a.hbase
		if m == 2 && (p.behind && !r.behind || p.behind == r.behind && r.label < p.label) {
			qs[0], qs[1], p, r = qs[1], qs[0], r, p
		}
		// Pass need+1 stops the walk; with two queues the passes alternate.
		k := a.need
		switch {
		case m == 1:
			a.kq, a.kLap = qs[0], A.lap+b2i(p.behind)+k
		case k%2 == 0:
			a.kq, a.kLap = qs[0], A.lap+b2i(p.behind)+k/2
		default:
			a.kq, a.kLap = qs[1], A.lap+b2i(r.behind)+k/2
		}
	}
	s.heapSet(A, hp, s.airIndex(sta, ac), a)
}

// refile is realize then file.
func (s *Scheduler) refile(sta uint16, ac ieee80211.AC) {
	a := s.airOf(sta, ac)
	s.realize(sta, ac, a)
	s.file(sta, ac, a)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// heapTop is the first stop of heap hp at or after the cursor. Entries left
// behind are filed again first: a station whose queue is checked out (or
// was, and is listed again only through its other queue), or one filed in
// the below-high heap while the total was over the threshold, which the
// walk has since passed.
func (s *Scheduler) heapTop(A *acState, ac ieee80211.AC, hp int) *stop {
	h := &A.heaps[hp]
	for len(h.e) > 0 {
		e := &h.e[0]
		if s.current(A, e) {
			return e
		}
		sta := uint16(e.ai / ieee80211.NumACs)
		s.heapDrop(A, e.ai)
		s.refile(sta, ac)
	}
	return nil
}

// next returns where the walk would stop now: the first queue, in walk order
// from the cursor, that is the non-station queue or a station's queue with
// credit the per-station check allows, of a group within its cap. ok is
// false when there is none: the kernel's walk then finds no eligible queue
// in a whole pass and gives up. With one queue listed, nextSolo answers
// first.
func (s *Scheduler) next(A *acState, ac ieee80211.AC) (qi int32, lap int64, ok bool) {
	var best stop
	found := false
	if s.owned != 0 {
		best, found = s.nextShared(A, ac)
	} else {
		if e := s.heapTop(A, ac, heapAllowed); e != nil {
			best, found = *e, true
		}
		if len(A.heaps[heapBelowHigh].e) > 0 && s.air.TotalBelowThreshold() {
			if e := s.heapTop(A, ac, heapBelowHigh); e != nil && (!found || e.before(&best)) {
				best, found = *e, true
			}
		}
	}
	if found {
		qi = s.airs[best.ai].kq
	}
	if ns := &s.queues[ac]; ns.state == stListed {
		e := stop{lap: A.lap + b2i(ns.label < s.queues[A.front].label), label: ns.label}
		if !found || e.before(&best) {
			best, found, qi = e, true, int32(ac)
		}
	}
	return qi, best.lap, found
}

// nextSolo is next when one queue is listed, the common case of one busy
// station: that queue is the cursor's (front), so the walk stops there or
// nowhere, and the heaps, which hold at most that station, need no looking
// into. known is false in the cases it leaves to next: a stop the walk has
// passed (heapTop files it again), or heaps holding anyone else.
func (s *Scheduler) nextSolo(A *acState, ac ieee80211.AC) (qi int32, lap int64, ok, known bool) {
	qi = A.front
	q := &s.queues[qi]
	held := len(A.heaps[heapAllowed].e) + len(A.heaps[heapBelowHigh].e)
	if q.sta == 0 {
		return qi, A.lap, true, held == 0
	}
	a := &s.airs[s.airIndex(q.sta, ac)]
	switch {
	case a.hp < 0:
		return 0, 0, false, held == 0
	case held != 1 || a.kq != qi || a.kLap < A.lap:
		return 0, 0, false, false
	}
	if a.hp == heapBelowHigh && !s.air.TotalBelowThreshold() {
		return 0, 0, false, true
	}
	return qi, a.kLap, true, true
}

// current reports whether heap entry e is its station's stop: its queue
// listed, at or after the cursor.
func (s *Scheduler) current(A *acState, e *stop) bool {
	return s.queues[s.airs[e.ai].kq].state == stListed && !s.beforeCursor(A, e.lap, e.label)
}

func (s *Scheduler) beforeCursor(A *acState, lap int64, label uint64) bool {
	return lap < A.lap || lap == A.lap && label < s.queues[A.front].label
}

// prodNext moves the cursor to where the kernel's walk would stop and serves
// that queue, or ends the round at it. Every pass on the way is accounted
// for by lap and labels, not made.
func (s *Scheduler) prodNext(ac ieee80211.AC) *TXQ {
	A := &s.acs[ac]
	for A.front >= 0 {
		var qi int32
		var lap int64
		ok, known := false, false
		if A.listed == 1 {
			qi, lap, ok, known = s.nextSolo(A, ac)
		}
		if !known {
			qi, lap, ok = s.next(A, ac)
		}
		if !ok {
			// One pass over every queue, refilling those in debt.
			A.lap++
			return nil
		}
		A.lap, A.front = lap, qi
		q := &s.queues[qi]
		if q.stamp == A.round {
			s.roundEnd(A, q)
			return nil
		}
		q.stamp = A.round
		if q.frames == 0 {
			// The kernel hands out an emptied queue whose debt is paid
			// and the driver returns it unlisted; skip that step.
			s.unlist(q)
			continue
		}
		s.unlistAs(q, stOut)
		return q
	}
	return nil
}

// LimitsChanged re-files every listed station after the AQL limits of an
// AC changed, since the per-station check's answers may have.
func (s *Scheduler) LimitsChanged(ac ieee80211.AC) {
	if !s.prod {
		return
	}
	A := &s.acs[ac&3]
	for qi := A.list.first; qi >= 0; qi = s.queues[qi].next {
		if q := &s.queues[qi]; q.sta != 0 {
			s.refile(q.sta, ac&3)
		}
	}
}
