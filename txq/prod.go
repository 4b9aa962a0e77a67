package txq

import "github.com/airq/airq/internal/ieee80211"

// Production mode's walk of the ring: see "Production mode" in doc.go for
// the algorithm and why it keeps mac80211's long-run shares.

func (s *Scheduler) airIndex(sta uint16, ac ieee80211.AC) int32 {
	return int32(sta)*ieee80211.NumACs + int32(ac)
}

// prodNext serves the ring. A station queue found in debt gets the refill of
// this visit and is parked with its station in the wheel; one AQL refuses
// goes to the blocked list; an emptied one whose debt is paid leaves. When
// the ring runs dry, refill does what the kernel's further passes would.
func (s *Scheduler) prodNext(ac ieee80211.AC) *TXQ {
	A := &s.acs[ac]
	passed := false
	for {
		qi := A.list.first
		if qi < 0 {
			if !s.refill(ac, &passed) {
				return nil
			}
			continue
		}
		q := &s.queues[qi]
		if q.sta != 0 {
			a := &s.airs[s.airIndex(q.sta, ac)]
			ok := s.air.StationAllows(q.sta, ac)
			if eff := s.effective(q.sta, ac, a); eff < 0 {
				w := int64(s.stas[q.sta].weight)
				s.realize(q.sta, ac, a)
				a.def += w
				A.list.remove(s.queues, qi)
				q.state = stWait
				s.file(q.sta, ac, a, eff+w, ok)
				continue
			}
			if q.frames == 0 {
				s.unlist(q)
				continue
			}
			if !ok {
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
