package txq

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// effective is mac80211's ieee80211_sta_deficit: the deficit (with any
// refill the wheel owes it) minus the airtime still pending.
func (s *Scheduler) effective(sta uint16, ac ieee80211.AC, a *air) int64 {
	d := a.def
	if v := s.acs[ac].wheel.v; a.wLevel >= 0 && v > a.vt {
		d += int64(s.stas[sta].weight) * (v - a.vt)
	}
	return d - int64(s.air.StationPending(sta, ac))
}

func (a *air) recent(now time.Duration) bool {
	return a.active && now-a.lastActive <= ActiveWindow
}

// keepActive is ieee80211_txq_keep_active: an emptied station queue stays
// listed while its station owes airtime and was active in the last 100 ms,
// so that its debt is paid before others' credit is refilled without it.
func (s *Scheduler) keepActive(q *TXQ, now time.Duration) bool {
	if q.sta == 0 {
		return false
	}
	a := s.airOf(q.sta, q.ac)
	return s.effective(q.sta, q.ac, a) < 0 && a.recent(now)
}

// Schedule puts a queue back on its AC's list if it has frames, as
// ieee80211_schedule_txq. Enqueue calls it already.
func (s *Scheduler) Schedule(q *TXQ, now time.Duration) { s.schedule(q, true, now) }

// schedule is __ieee80211_schedule_txq. Under airtime fairness a station
// queue with frames goes to the head, so that only the DRR walk moves it back
// once its deficit is negative; anything else goes to the tail.
func (s *Scheduler) schedule(q *TXQ, force bool, now time.Duration) {
	if q.state != stIdle && q.state != stOut {
		return
	}
	if q.sta != 0 && (!s.stas[q.sta].present || s.stas[q.sta].paused) {
		q.state = stIdle
		return
	}
	has := force || q.frames > 0
	if !has && !s.keepActive(q, now) {
		q.state = stIdle
		return
	}
	A := &s.acs[q.ac]
	qi := s.index(q)
	if q.sta != 0 && has {
		A.list.pushHead(s.queues, qi)
		a := s.airOf(q.sta, q.ac)
		a.lastActive, a.active = now, true
	} else {
		A.list.pushTail(s.queues, qi)
	}
	q.state = stListed
	A.listed++
}

// unlist takes a queue off whatever AC structure holds it.
func (s *Scheduler) unlist(q *TXQ) {
	A := &s.acs[q.ac]
	switch q.state {
	case stListed:
		A.list.remove(s.queues, s.index(q))
	case stBlocked:
		A.block.remove(s.queues, s.index(q))
	case stWait:
		// The station's wheel entry may outlive it; a release skips
		// queues that are no longer waiting.
	default:
		q.state = stIdle
		return
	}
	q.state = stIdle
	A.listed--
}
