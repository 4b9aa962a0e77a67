package txq

// setState moves q to state st and keeps its station's masks of listed and
// checked-out queues, which production mode reads instead of the queues.
// With GroupShares the caller then calls moved.
func (s *Scheduler) setState(q *TXQ, st uint8) {
	var a *air
	if q.sta != 0 {
		a = s.airOf(q.sta, q.ac)
	}
	s.setStateOf(q, a, st)
}

// setStateOf is setState with the station's air on q's AC already looked
// up: a, nil for the non-station queue.
func (s *Scheduler) setStateOf(q *TXQ, a *air, st uint8) {
	if a != nil {
		bit := q.bit
		a.listed &^= bit
		a.out &^= bit
		switch st {
		case stListed:
			a.listed |= bit
		case stOut:
			a.out |= bit
		}
	}
	q.state = st
}

// moved follows a setState of q: with GroupShares, a station that starts
// or stops competing on q's AC books its weight (share.go).
func (s *Scheduler) moved(q *TXQ) {
	if s.shares && q.sta != 0 {
		s.recompete(q)
	}
}
