package txq

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// StartRound is ieee80211_txq_schedule_start: it asks Airtime.PHYAllows
// whether the AC may be served and opens a round if so. A closed round leaves
// the round number alone unless LegacyRoundReset is set.
func (s *Scheduler) StartRound(ac ieee80211.AC, now time.Duration) {
	A := &s.acs[ac&3]
	ok := s.air.PHYAllows(ac&3, A.listed)
	switch {
	case s.cfg.LegacyRoundReset && !ok:
		A.round = 0
	case ok && s.prod:
		A.round++
	case ok:
		// u16 with 0 reserved, as schedule_round[ac].
		A.round = uint64(uint16(A.round + 1))
		if A.round == 0 {
			A.round = 1
		}
	}
	A.open, A.first = ok, ok
	if ok {
		A.stats.RoundsOpened++
	} else {
		A.stats.RoundsClosed++
	}
}

// Next is ieee80211_next_txq: the next queue to serve in the current round,
// or false when the round is closed or over. The caller dequeues from it and
// must then call Return.
func (s *Scheduler) Next(ac ieee80211.AC, now time.Duration) (*TXQ, bool) {
	A := &s.acs[ac&3]
	var q *TXQ
	if A.open {
		s.now = now
		if s.prod {
			q = s.prodNext(ac & 3)
		} else {
			q = s.traceNext(ac & 3)
		}
	}
	A.first = false
	if q == nil {
		return nil, false
	}
	A.stats.Selections++
	if q.frames == 0 {
		A.stats.IdleSelections++
	}
	return q, true
}

// checkout hands a listed queue to the caller, stamped with the round.
func (s *Scheduler) checkout(A *acState, q *TXQ) *TXQ {
	s.unlistAs(q, stOut)
	q.stamp = A.round
	return q
}

// roundEnd is reached when the first eligible queue was already served in
// this round. On a round's first Next that can only be a stale stamp.
func (s *Scheduler) roundEnd(A *acState, q *TXQ) {
	if A.first && (q.frames > 0 || s.eligibleBacklogged(q.ac)) {
		A.stats.Skipped++
		A.stats.SkippedStale++
	}
}

// Return is ieee80211_return_txq: it gives back a queue obtained from Next.
// force says the caller still holds frames of this queue (the queue is kept
// listed even if empty).
func (s *Scheduler) Return(q *TXQ, force bool, now time.Duration) {
	if q.state != stOut {
		return
	}
	s.schedule(q, force, now) // out to listed, or idle
	if s.prod && q.sta != 0 && q.state == stIdle {
		// Not listed again, but the frames just dequeued moved the
		// station's pending airtime, which its other queue's stop
		// depends on.
		s.refile(q.sta, q.ac)
	}
}

// EndRound is ieee80211_txq_schedule_end; it only ends the bookkeeping of
// the round's first Next.
func (s *Scheduler) EndRound(ac ieee80211.AC) { s.acs[ac&3].first = false }
