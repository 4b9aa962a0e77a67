package txq

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// effective is mac80211's ieee80211_sta_deficit: the deficit (with the
// refills production mode has not booked yet) minus the airtime still
// pending.
func (s *Scheduler) effective(sta uint16, ac ieee80211.AC, a *air) int64 {
	d := a.def
	if s.prod && a.need != 0 {
		d += s.refills(sta, ac, a)
	}
	return d - int64(s.air.StationPending(sta, ac))
}

func (a *air) recent(now time.Duration) bool {
	return a.active && now-a.lastActive <= ActiveWindow
}

// keepActive is ieee80211_txq_keep_active: an emptied station queue stays
// listed while its station owes airtime and was active in the last 100 ms,
// so that its debt is paid before others' credit is refilled without it.
// a is the station's air on q's AC, nil for the non-station queue.
func (s *Scheduler) keepActive(q *TXQ, a *air, now time.Duration) bool {
	return a != nil && s.effective(q.sta, q.ac, a) < 0 && a.recent(now)
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
		s.setState(q, stIdle)
		s.moved(q)
		return
	}
	var a *air
	if q.sta != 0 {
		a = s.airOf(q.sta, q.ac)
	}
	has := force || q.frames > 0
	if !has && !s.keepActive(q, a, now) {
		s.setStateOf(q, a, stIdle)
		s.moved(q)
		return
	}
	A := &s.acs[q.ac]
	qi := s.index(q)
	head := q.sta != 0 && has
	if a != nil {
		if head {
			a.lastActive, a.active = now, true
		}
		if s.prod {
			s.realize(q.sta, q.ac, a) // before q counts among its listed queues
		}
	}
	switch {
	case s.prod:
		s.cycleInsert(A, qi, head)
	case head:
		A.list.pushHead(s.queues, qi)
	default:
		A.list.pushTail(s.queues, qi)
	}
	s.setStateOf(q, a, stListed)
	s.moved(q)
	A.listed++
	s.listedACs |= 1 << q.ac
	if s.prod && a != nil {
		s.file(q.sta, q.ac, a)
	}
}

// unlist takes a listed queue off its AC's list.
func (s *Scheduler) unlist(q *TXQ) { s.unlistAs(q, stIdle) }

// unlistAs takes a listed queue off its AC's list into state st (idle, or
// checked out).
func (s *Scheduler) unlistAs(q *TXQ, st uint8) {
	if q.state != stListed {
		if q.state != stOut {
			s.setState(q, stIdle)
			s.moved(q)
		}
		return
	}
	A := &s.acs[q.ac]
	qi := s.index(q)
	if A.listed--; A.listed == 0 {
		s.listedACs &^= 1 << q.ac
	}
	var a *air
	if q.sta != 0 {
		a = s.airOf(q.sta, q.ac)
		if s.prod {
			s.realize(q.sta, q.ac, a) // while q still counts among its listed queues
		}
	}
	if s.prod {
		s.cycleRemove(A, qi)
	} else {
		A.list.remove(s.queues, qi)
	}
	s.setStateOf(q, a, st)
	if st != stOut { // checked out, the station competes as it did listed
		s.moved(q)
	}
	if s.prod && a != nil {
		s.file(q.sta, q.ac, a)
	}
}
