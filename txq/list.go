package txq

// Intrusive doubly linked lists over index-addressed arrays: no pointers to
// chase for the GC, nothing allocated after New.

var emptyList = qlist{-1, -1}

type qlist struct{ first, last int32 }

// flist links flows; it has the same shape as qlist.
type flist = qlist

func (l *qlist) empty() bool { return l.first < 0 }

func (l *qlist) pushTail(qs []TXQ, i int32) {
	q := &qs[i]
	q.prev, q.next = l.last, -1
	if l.last >= 0 {
		qs[l.last].next = i
	} else {
		l.first = i
	}
	l.last = i
}

func (l *qlist) pushHead(qs []TXQ, i int32) {
	q := &qs[i]
	q.prev, q.next = -1, l.first
	if l.first >= 0 {
		qs[l.first].prev = i
	} else {
		l.last = i
	}
	l.first = i
}

func (l *qlist) remove(qs []TXQ, i int32) {
	q := &qs[i]
	if q.prev >= 0 {
		qs[q.prev].next = q.next
	} else {
		l.first = q.next
	}
	if q.next >= 0 {
		qs[q.next].prev = q.prev
	} else {
		l.last = q.prev
	}
	q.prev, q.next = -1, -1
}

func (l *qlist) moveTail(qs []TXQ, i int32) {
	if l.last == i {
		return
	}
	l.remove(qs, i)
	l.pushTail(qs, i)
}

func (l *flist) fpushTail(fs []flow, i int32) {
	f := &fs[i]
	f.prev, f.next = l.last, -1
	if l.last >= 0 {
		fs[l.last].next = i
	} else {
		l.first = i
	}
	l.last = i
}

func (l *flist) fremove(fs []flow, i int32) {
	f := &fs[i]
	if f.prev >= 0 {
		fs[f.prev].next = f.next
	} else {
		l.first = f.next
	}
	if f.next >= 0 {
		fs[f.next].prev = f.prev
	} else {
		l.last = f.prev
	}
	f.prev, f.next = -1, -1
}

// Backlogged-queue list: the same shape over TXQ.bPrev/bNext.

func (l *qlist) bpush(qs []TXQ, i int32) {
	q := &qs[i]
	q.bPrev, q.bNext = l.last, -1
	if l.last >= 0 {
		qs[l.last].bNext = i
	} else {
		l.first = i
	}
	l.last = i
}

func (l *qlist) bremove(qs []TXQ, i int32) {
	q := &qs[i]
	if q.bPrev >= 0 {
		qs[q.bPrev].bNext = q.bNext
	} else {
		l.first = q.bNext
	}
	if q.bNext >= 0 {
		qs[q.bNext].bPrev = q.bPrev
	} else {
		l.last = q.bPrev
	}
	q.bPrev, q.bNext = -1, -1
}

// insertBefore links queue i in front of queue at, which is on the list.
func (l *qlist) insertBefore(qs []TXQ, i, at int32) {
	q, a := &qs[i], &qs[at]
	q.prev, q.next = a.prev, at
	if a.prev >= 0 {
		qs[a.prev].next = i
	} else {
		l.first = i
	}
	a.prev = i
}
