package txq

import "github.com/airq/airq/internal/ieee80211"

// traceNext is ieee80211_next_txq line by line. A station queue whose
// effective deficit is negative gets one weight of credit and goes to the
// tail; so does one its AQL refuses. found tracks AQL eligibility only, so
// while every queue is AQL-eligible but in debt the walk keeps going round,
// one refill per queue per pass, until one has credit. The round ends at the
// first eligible queue already stamped with the round number.
func (s *Scheduler) traceNext(ac ieee80211.AC) *TXQ {
	A := &s.acs[ac]
	head, found := int32(-1), false
	open := s.groupsOpen(ac)
	for {
		qi := A.list.first
		if qi < 0 {
			return nil
		}
		if qi == head {
			if !found {
				return nil
			}
			found = false
		}
		if head < 0 {
			head = qi
		}
		q := &s.queues[qi]
		if q.sta != 0 {
			ok := s.air.StationAllows(q.sta, ac) && open&(1<<s.stas[q.sta].group) != 0
			if ok {
				found = true
			}
			a := s.airOf(q.sta, ac)
			eff := int32(a.def) - s.air.StationPending(q.sta, ac)
			if eff < 0 {
				a.def = int64(int32(a.def) + s.stas[q.sta].weight)
			}
			if eff < 0 || !ok {
				A.list.moveTail(s.queues, qi)
				continue
			}
		}
		if uint16(q.stamp) == uint16(A.round) {
			s.roundEnd(A, q)
			return nil
		}
		return s.checkout(A, q)
	}
}

// eligibleBacklogged reports whether a listed queue holds frames and could
// be served now. It walks the list; it only runs when a round's first Next
// comes back empty.
func (s *Scheduler) eligibleBacklogged(ac ieee80211.AC) bool {
	A := &s.acs[ac]
	open := s.groupsOpen(ac)
	for qi := A.list.first; qi >= 0; qi = s.queues[qi].next {
		q := &s.queues[qi]
		if q.frames == 0 {
			continue
		}
		if q.sta == 0 || (s.air.StationAllows(q.sta, ac) && open&(1<<s.stas[q.sta].group) != 0 &&
			s.effective(q.sta, ac, s.airOf(q.sta, ac)) >= 0) {
			return true
		}
	}
	return false
}
