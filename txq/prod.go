package txq

import "github.com/airq/airq/internal/ieee80211"

// Production mode: see "Production mode" in doc.go for the algorithm and why
// it keeps mac80211's long-run shares.

func (s *Scheduler) airIndex(sta uint16, ac ieee80211.AC) int32 {
	return int32(sta)*ieee80211.NumACs + int32(ac)
}

// prodNext serves the ring. Queues found in debt are parked with their
// station in the wheel, queues AQL refuses go to the blocked list, emptied
// queues whose debt is paid leave; when the ring runs dry the wheel jumps
// to the next pass at which a station has credit again, which is the
// kernel's repeated passes done in one step.
func (s *Scheduler) prodNext(ac ieee80211.AC) *TXQ {
	A := &s.acs[ac]
	for {
		qi := A.list.first
		if qi < 0 {
			if !s.release(ac) {
				return nil
			}
			continue
		}
		q := &s.queues[qi]
		if q.sta != 0 {
			a := &s.airs[s.airIndex(q.sta, ac)]
			if eff := s.effective(q.sta, ac, a); eff < 0 {
				A.list.remove(s.queues, qi)
				q.state = stWait
				s.file(q.sta, ac, a, eff)
				continue
			}
			if q.frames == 0 {
				s.unlist(q)
				continue
			}
			if !s.air.StationAllows(q.sta, ac) {
				A.list.remove(s.queues, qi)
				q.state = stBlocked
				A.block.pushTail(s.queues, qi)
				continue
			}
		} else if q.frames == 0 {
			s.unlist(q)
			continue
		}
		if q.stamp == A.round {
			s.roundEnd(A, q)
			return nil
		}
		return s.checkout(A, q)
	}
}

// file puts a station in debt into the wheel at the pass where the refills
// it is owed (one weight per pass) cover the debt. Its refills start one
// pass late: in the kernel the visit that serves a station earns it no
// refill, so a debt repaid in k refills costs k+1 passes.
func (s *Scheduler) file(sta uint16, ac ieee80211.AC, a *air, eff int64) {
	W := &s.acs[ac].wheel
	if a.wLevel >= 0 {
		s.realize(sta, ac, a)
		W.remove(s.airs, s.airIndex(sta, ac))
	} else {
		a.vt = W.v + 1
	}
	w := int64(s.stas[sta].weight)
	a.t = a.vt + (-eff+w-1)/w
	W.insert(s.airs, s.airIndex(sta, ac))
}

// realize credits a filed station with the refills of the passes since its
// refills started, so that def is current; it stays filed.
func (s *Scheduler) realize(sta uint16, ac ieee80211.AC, a *air) {
	if v := s.acs[ac].wheel.v; a.wLevel >= 0 && v > a.vt {
		a.def += int64(s.stas[sta].weight) * (v - a.vt)
		a.vt = v
	}
}

// reschedule re-files a filed station after its deficit or pending airtime
// changed, or releases it if it now has credit.
func (s *Scheduler) reschedule(sta uint16, ac ieee80211.AC, a *air) {
	s.realize(sta, ac, a)
	eff := a.def - int64(s.air.StationPending(sta, ac))
	if eff < 0 {
		s.file(sta, ac, a, eff)
		return
	}
	s.acs[ac].wheel.remove(s.airs, s.airIndex(sta, ac))
	s.wake(sta, ac)
}

// release advances the AC's wheel to its next due pass and puts the due
// stations' parked queues on the ring tail.
func (s *Scheduler) release(ac ieee80211.AC) bool {
	W := &s.acs[ac].wheel
	i := W.advance(s.airs)
	if i < 0 {
		return false
	}
	for i >= 0 {
		a := &s.airs[i]
		next := a.wNext
		sta := uint16(i / ieee80211.NumACs)
		s.realize(sta, ac, a)
		a.wLevel = -1
		s.wake(sta, ac)
		i = next
	}
	return true
}

// wake moves a station's parked queues of one AC to the ring tail.
func (s *Scheduler) wake(sta uint16, ac ieee80211.AC) {
	A := &s.acs[ac]
	for _, tid := range acTIDs[ac] {
		qi := s.queueIndex(sta, tid)
		if q := &s.queues[qi]; q.state == stWait {
			q.state = stListed
			A.list.pushTail(s.queues, qi)
		}
	}
}

// prodCharged follows a completion: the station's place in the wheel moves
// with its deficit and pending airtime, and its AQL-blocked queues go back to
// the ring to be checked again (its pending airtime just fell).
func (s *Scheduler) prodCharged(sta uint16, ac ieee80211.AC, a *air) {
	if a.wLevel >= 0 {
		s.reschedule(sta, ac, a)
	}
	A := &s.acs[ac]
	for _, tid := range acTIDs[ac] {
		qi := s.queueIndex(sta, tid)
		if q := &s.queues[qi]; q.state == stBlocked {
			A.block.remove(s.queues, qi)
			q.state = stListed
			A.list.pushTail(s.queues, qi)
		}
	}
}

// recheckBlocked gives the longest-blocked queue another look at each round
// start, so that a station unblocked by others' completions (the AQL
// threshold is on the total) is never stranded even without a Charge of
// its own.
func (s *Scheduler) recheckBlocked(ac ieee80211.AC) {
	A := &s.acs[ac]
	if qi := A.block.first; qi >= 0 {
		A.block.remove(s.queues, qi)
		s.queues[qi].state = stListed
		A.list.pushTail(s.queues, qi)
	}
}
