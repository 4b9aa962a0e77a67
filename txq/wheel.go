package txq

import "math/bits"

// wheel orders stations in debt by the virtual pass at which their deficit
// turns non-negative. Two levels of 256 slots: level 0 holds the passes of
// the current block of 256 exactly, level 1 one slot per following block
// (farther ones share the last slot and are re-filed when reached). Every
// operation is O(1): finding the earliest entry scans at most eight 64-bit
// occupancy words, and an entry is re-filed at most once per level it
// passes through.

const (
	wheelBits = 8
	wheelSize = 1 << wheelBits
	wheelMask = wheelSize - 1
	wheelWord = wheelSize / 64
)

type wheel struct {
	v    int64    // the AC's virtual pass counter
	n    int      // entries filed
	ok   int      // entries Airtime.StationAllows allowed when last asked
	cls  [2]qlist // entries by that answer (index 1: allowed), oldest first
	head [2][wheelSize]int32
	tail [2][wheelSize]int32
	occ  [2][wheelWord]uint64
}

func (w *wheel) init() {
	w.cls = [2]qlist{emptyList, emptyList}
	for l := range w.head {
		for i := range w.head[l] {
			w.head[l][i], w.tail[l][i] = -1, -1
		}
	}
}

// insert files entry i by its pass t, which must not be before w.v. Slots
// are FIFO, so stations due at the same pass go back to the ring in the order
// they fell into debt, as they would sit on the kernel's list.
func (w *wheel) insert(as []air, i int32) {
	a := &as[i]
	vb, tb := w.v>>wheelBits, a.t>>wheelBits
	lvl, slot := 0, int(a.t&wheelMask)
	if tb != vb {
		lvl, slot = 1, int((vb+min(tb-vb, wheelMask))&wheelMask)
	}
	a.wLevel, a.wSlot = int8(lvl), uint8(slot)
	a.wPrev, a.wNext = w.tail[lvl][slot], -1
	if a.wPrev >= 0 {
		as[a.wPrev].wNext = i
	} else {
		w.head[lvl][slot] = i
	}
	w.tail[lvl][slot] = i
	w.occ[lvl][slot>>6] |= 1 << (slot & 63)
	w.count(as, i, 1)
}

// count keeps n and ok, and the two lists of entries by wOK.
func (w *wheel) count(as []air, i int32, d int) {
	a := &as[i]
	w.n += d
	if a.wOK {
		w.ok += d
	}
	if d > 0 {
		w.link(as, i)
	} else {
		w.unlink(as, i)
	}
}

func (w *wheel) link(as []air, i int32) {
	a := &as[i]
	l := &w.cls[b2i(a.wOK)]
	a.bPrev, a.bNext = l.last, -1
	if l.last >= 0 {
		as[l.last].bNext = i
	} else {
		l.first = i
	}
	l.last = i
}

func (w *wheel) unlink(as []air, i int32) {
	a := &as[i]
	l := &w.cls[b2i(a.wOK)]
	if a.bPrev >= 0 {
		as[a.bPrev].bNext = a.bNext
	} else {
		l.first = a.bNext
	}
	if a.bNext >= 0 {
		as[a.bNext].bPrev = a.bPrev
	} else {
		l.last = a.bPrev
	}
	a.bPrev, a.bNext = -1, -1
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// oldest is the oldest entry filed as AQL-eligible (ok) or not, or -1.
func (w *wheel) oldest(ok bool) int32 { return w.cls[b2i(ok)].first }

// classify moves entry i to the back of the list of its class ok.
func (w *wheel) classify(as []air, i int32, ok bool) {
	w.unlink(as, i)
	if as[i].wOK != ok {
		as[i].wOK = ok
		if ok {
			w.ok++
		} else {
			w.ok--
		}
	}
	w.link(as, i)
}

func (w *wheel) remove(as []air, i int32) {
	a := &as[i]
	lvl, slot := int(a.wLevel), int(a.wSlot)
	if a.wPrev >= 0 {
		as[a.wPrev].wNext = a.wNext
	} else {
		w.head[lvl][slot] = a.wNext
		if a.wNext < 0 {
			w.occ[lvl][slot>>6] &^= 1 << (slot & 63)
		}
	}
	if a.wNext >= 0 {
		as[a.wNext].wPrev = a.wPrev
	} else {
		w.tail[lvl][slot] = a.wPrev
	}
	a.wLevel = -1
	w.count(as, i, -1)
}

// advance moves v to the earliest pass any entry waits for and detaches the
// entries due then; it returns the first of them (chained by wNext, still
// marked as filed so the caller can settle their refill) or -1 if empty.
func (w *wheel) advance(as []air) int32 {
	if w.n == 0 {
		return -1
	}
	for {
		if b := firstSet(&w.occ[0], 0); b >= 0 {
			w.v = w.v&^wheelMask | int64(b)
			return w.detach(as, b)
		}
		// Level 0 is empty: jump to the first occupied block and re-file it.
		vb := w.v >> wheelBits
		start := int((vb + 1) & wheelMask)
		slot := firstSet(&w.occ[1], start)
		if slot < 0 {
			slot = firstSet(&w.occ[1], 0)
		}
		w.v = (vb + int64((slot-int(vb&wheelMask))&wheelMask)) << wheelBits
		w.refile(as, slot)
	}
}

// step moves v on by exactly one pass and detaches the entries due then, as
// advance does; it returns -1 if none is due.
func (w *wheel) step(as []air) int32 {
	w.v++
	if w.v&wheelMask == 0 {
		// A new block: level 0 is empty (its passes are over), and the
		// block's level-1 slot moves down.
		w.refile(as, int((w.v>>wheelBits)&wheelMask))
	}
	if b := int(w.v & wheelMask); w.occ[0][b>>6]&(1<<(b&63)) != 0 {
		return w.detach(as, b)
	}
	return -1
}

// detach empties level-0 slot b and returns its chain.
func (w *wheel) detach(as []air, b int) int32 {
	head := w.head[0][b]
	w.head[0][b], w.tail[0][b] = -1, -1
	w.occ[0][b>>6] &^= 1 << (b & 63)
	for i := head; i >= 0; i = as[i].wNext {
		w.count(as, i, -1)
	}
	return head
}

// refile files the entries of level-1 slot again relative to v.
func (w *wheel) refile(as []air, slot int) {
	i := w.head[1][slot]
	w.head[1][slot], w.tail[1][slot] = -1, -1
	w.occ[1][slot>>6] &^= 1 << (slot & 63)
	for i >= 0 {
		next := as[i].wNext
		w.count(as, i, -1)
		w.insert(as, i)
		i = next
	}
}

// firstSet returns the lowest set bit at or after from, or -1.
func firstSet(occ *[wheelWord]uint64, from int) int {
	for k := from >> 6; k < wheelWord; k++ {
		word := occ[k]
		if k == from>>6 {
			word &^= 1<<(from&63) - 1
		}
		if word != 0 {
			return k<<6 | bits.TrailingZeros64(word)
		}
	}
	return -1
}
