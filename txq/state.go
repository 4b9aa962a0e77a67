package txq

// setState moves q to state st and keeps its station's masks of listed and
// checked-out queues, which production mode reads instead of the queues.
func (s *Scheduler) setState(q *TXQ, st uint8) {
	if q.sta != 0 {
		a := s.airOf(q.sta, q.ac)
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
