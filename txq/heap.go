package txq

// Production mode keeps the stations whose queues the walk could stop at in
// min-heaps ordered by where it would stop: the lap, then the queue's
// label. Which heap depends on the per-station AQL check: below the low
// limit a station is always allowed; below the high limit only while the
// total pending airtime is under the threshold, which Next asks each time.
// A station above both is in neither; it is re-filed when its pending
// airtime or the limits change. Stations of uncapped groups share the first
// pair of heaps; a capped group's stations have a pair of their own, which
// Next consults only while the group is within its budget, and so does
// every group but 0 with GroupShares, consulted while within its share.
const (
	heapAllowed = iota
	heapBelowHigh
	numHeaps
)

// stop is a heap entry: where the walk stops for station-AC ai. The key is
// kept in the entry (relabel updates it) and positions in Scheduler.hpos,
// so that sifting touches two small arrays.
type stop struct {
	lap   int64
	label uint64
	ai    int32
}

func (a *stop) before(b *stop) bool {
	return a.lap < b.lap || a.lap == b.lap && a.label < b.label
}

// stationHeap is a 4-ary min-heap: half the depth of a binary one, and a
// node's children share a cache line or two.
type stationHeap struct{ e []stop }

func (h *stationHeap) init(stations int) { h.e = make([]stop, 0, stations) }

// top is the station-AC the walk reaches first, or -1.
func (h *stationHeap) top() int32 {
	if len(h.e) == 0 {
		return -1
	}
	return h.e[0].ai
}

// heapSet puts station-AC ai, whose air is a, in heap hp (-1: none) at the
// stop a records, or restores the heap order after that stop moved.
func (s *Scheduler) heapSet(A *acState, hp int8, ai int32, a *air) {
	if a.hp != hp {
		s.heapDrop(A, ai)
		if hp < 0 {
			return
		}
		h := &A.heaps[hp]
		a.hp, s.hpos[ai] = hp, int32(len(h.e))
		h.e = append(h.e, stop{})
		A.filled |= heapBit(hp)
	}
	if hp >= 0 {
		A.changed |= heapBit(hp)
		h := &A.heaps[hp]
		e := stop{lap: a.kLap, label: s.queues[a.kq].label, ai: ai}
		if len(h.e) == 1 { // alone, it is in order (and at 0)
			h.e[0] = e
		} else {
			s.place(h, s.hpos[ai], e)
		}
	}
}

// heapBit is heap hp's bit in acState.filled, hp one of the heaps (not
// -1): masked so that the shift needs neither a sign check nor an
// overflow branch per filing.
func heapBit(hp int8) uint32 { return 1 << (uint8(hp) & 31) }

// The heaps fit filled's 32 bits: heapBit's mask loses none.
var _ [32 - len(acState{}.heaps)]struct{}

// heapDrop takes station-AC ai out of its heap, if any.
func (s *Scheduler) heapDrop(A *acState, ai int32) {
	if s.airs[ai].hp >= 0 { // tested inline: most filings find it in none
		s.heapRemove(A, ai)
	}
}

// heapRemove takes station-AC ai out of the heap it is in.
func (s *Scheduler) heapRemove(A *acState, ai int32) {
	a := &s.airs[ai]
	A.changed |= heapBit(a.hp)
	h := &A.heaps[a.hp]
	i, last := s.hpos[ai], int32(len(h.e)-1)
	e := h.e[last]
	h.e = h.e[:last]
	if last == 0 {
		A.filled &^= heapBit(a.hp)
	}
	if i != last {
		s.place(h, i, e)
	}
	a.hp = -1
}

// place puts e at position i, or where the heap order takes it from there,
// writing it once: the caller has left i to be overwritten.
func (s *Scheduler) place(h *stationHeap, i int32, e stop) {
	if i > 0 && e.before(&h.e[(i-1)/4]) {
		s.siftUp(h, i, e)
	} else {
		s.siftDown(h, i, e)
	}
}

// siftUp places e at i or above, moving down the parents it goes past.
func (s *Scheduler) siftUp(h *stationHeap, i int32, e stop) {
	for i > 0 {
		p := (i - 1) / 4
		if !e.before(&h.e[p]) {
			break
		}
		s.put(h, i, h.e[p])
		i = p
	}
	s.put(h, i, e)
}

// siftDown places e at i or below, moving up the children it goes past.
func (s *Scheduler) siftDown(h *stationHeap, i int32, e stop) {
	n := int32(len(h.e))
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		if c+3 < n {
			k := h.e[c : c+4 : c+4]
			j := 0
			if k[1].before(&k[0]) {
				j = 1
			}
			if k[3].before(&k[2]) {
				if k[3].before(&k[j]) {
					j = 3
				}
			} else if k[2].before(&k[j]) {
				j = 2
			}
			m = c + int32(j)
		} else {
			for j := c + 1; j < n; j++ {
				if h.e[j].before(&h.e[m]) {
					m = j
				}
			}
		}
		if !h.e[m].before(&e) {
			break
		}
		s.put(h, i, h.e[m])
		i = m
	}
	s.put(h, i, e)
}

// put stores e at position i and records the position.
func (s *Scheduler) put(h *stationHeap, i int32, e stop) {
	h.e[i] = e
	s.hpos[e.ai] = i
}

// relabeled keeps the heap key of the station stopping at queue q current.
func (s *Scheduler) relabeled(q *TXQ, qi int32) {
	if q.sta == 0 {
		return
	}
	ai := s.airIndex(q.sta, q.ac)
	if a := &s.airs[ai]; a.hp >= 0 && a.kq == qi {
		A := &s.acs[q.ac]
		A.changed |= heapBit(a.hp)
		A.heaps[a.hp].e[s.hpos[ai]].label = q.label
	}
}
