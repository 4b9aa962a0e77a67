package txq

// Production mode's list is the kernel's cycle: the queues in the order the
// walk visits them, and a cursor before the one it visits next (front). The
// kernel moves a visited queue to the tail, which leaves the cyclic order as
// it was; what changes it are insertions, and those happen only at the
// cursor: at the head (before front, becoming it) or at the tail (before
// front, staying behind it). The list holds the cycle cut at an arbitrary
// point, with labels that increase along it, so that "is q before the
// cursor" is one comparison; lap counts the cursor's passes over the cut.

// cycleInsert puts queue qi in the cycle at the cursor: as the next queue
// the walk visits (head) or as the last (tail).
func (s *Scheduler) cycleInsert(A *acState, qi int32, head bool) {
	q := &s.queues[qi]
	if A.front < 0 {
		A.list.pushTail(s.queues, qi)
		q.label, A.front = 1<<63, qi
		return
	}
	f := &s.queues[A.front]
	if f.label-s.labelBefore(f) < 2 {
		s.relabel(A.front)
	}
	lo := s.labelBefore(f)
	A.list.insertBefore(s.queues, qi, A.front)
	q.label = lo + (f.label-lo)/2
	if head {
		A.front = qi
	}
}

// labelBefore is the label of q's predecessor in the list, 0 for the first.
func (s *Scheduler) labelBefore(q *TXQ) uint64 {
	if q.prev < 0 {
		return 0
	}
	return s.queues[q.prev].label
}

// cycleRemove takes queue qi out of the cycle; if the cursor stood before
// it, it now stands before the next one.
func (s *Scheduler) cycleRemove(A *acState, qi int32) {
	q := &s.queues[qi]
	if A.front == qi {
		switch {
		case q.next >= 0:
			A.front = q.next
		case A.list.first != qi:
			A.front = A.list.first
			A.lap++
		default:
			A.front = -1
		}
	}
	A.list.remove(s.queues, qi)
}

// relabelSpacing is the gap relabel leaves between neighbours: at least
// this many halvings before the same spot runs out again.
const relabelSpacing = 1 << 20

// relabel spreads the labels around queue at evenly, over the smallest
// window (doubling on each side) whose label span leaves relabelSpacing
// between neighbours, or over the whole list. Order is kept, so every
// comparison made before still holds.
func (s *Scheduler) relabel(at int32) {
	lo, hi, n := at, at, uint64(1)
	for step := 1; ; step *= 2 {
		for i := 0; i < step && s.queues[lo].prev >= 0; i++ {
			lo, n = s.queues[lo].prev, n+1
		}
		for i := 0; i < step && s.queues[hi].next >= 0; i++ {
			hi, n = s.queues[hi].next, n+1
		}
		base := s.labelBefore(&s.queues[lo])
		top := ^uint64(0)
		if nx := s.queues[hi].next; nx >= 0 {
			top = s.queues[nx].label
		}
		d := (top - base) / (n + 1)
		if d >= relabelSpacing || (s.queues[lo].prev < 0 && s.queues[hi].next < 0) {
			for qi := lo; ; qi = s.queues[qi].next {
				base += d
				s.queues[qi].label = base
				s.relabeled(&s.queues[qi], qi)
				if qi == hi {
					return
				}
			}
		}
	}
}
