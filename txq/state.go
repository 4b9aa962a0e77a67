package txq

// setState moves q to state st and keeps its station's masks of listed and
// checked-out queues, which production mode reads instead of the queues,
// and, with GroupShares, its group's competing weight.
func (s *Scheduler) setState(q *TXQ, st uint8) {
	q.state = st
	if q.sta == 0 {
		return
	}
	a := s.airOf(q.sta, q.ac)
	was := a.listed|a.out != 0
	bit := uint8(1) << tidSlot[q.tid&7]
	a.listed &^= bit
	a.out &^= bit
	switch st {
	case stListed:
		a.listed |= bit
	case stOut:
		a.out |= bit
	}
	if is := a.listed|a.out != 0; s.shares && is != was {
		s.compete(q.sta, q.ac, is)
	}
}
