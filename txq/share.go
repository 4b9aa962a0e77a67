package txq

import (
	"math/bits"

	"github.com/airq/airq/internal/ieee80211"
)

// GroupAirtime is the per-group view of AQL that Config.GroupShares needs
// (the aql package's Tracker, once told each station's group).
type GroupAirtime interface {
	// GroupShare is the µs pending, handed to the radio and not yet
	// completed, of group g's stations in ac (group) and of every
	// station in ac (stations, as StationsPending): what GroupShares
	// weighs per decision, in one call.
	GroupShare(g uint8, ac ieee80211.AC) (group, stations int64)
	// StationsPending is the µs pending of every station in ac (the
	// non-station queue's frames, in no group, left out).
	StationsPending(ac ieee80211.AC) int64
}

// shareState is what GroupShares keeps per AC: each group's competing
// weight (the weights of its stations with a queue of the AC listed or
// checked out) and their sum.
type shareState struct {
	weight [MaxGroups]int64
	total  int64
	// competing is the number of groups with weight, mask those groups.
	competing int
	mask      uint8
}

// compete books a station's weight to its group's competing weight on ac
// when it starts (on) or stops competing there.
func (s *Scheduler) compete(sta uint16, ac ieee80211.AC, on bool) {
	S := &s.share[ac]
	g := s.stas[sta].group
	w := int64(s.stas[sta].weight)
	if !on {
		w = -w
	}
	was := S.weight[g] > 0
	S.weight[g] += w
	S.total += w
	if now := S.weight[g] > 0; now != was {
		S.competing += int(b2i(now)) - int(b2i(was))
		S.mask ^= 1 << g
		s.sharingACs &^= 1 << ac
		if S.competing >= 2 {
			s.sharingACs |= 1 << ac
		}
	}
}

// recompete books the competing weight of q's station on q's AC after
// its queues' states changed: it competes while one is listed or out.
func (s *Scheduler) recompete(q *TXQ) {
	a := s.airOf(q.sta, q.ac)
	if is := a.listed|a.out != 0; is != a.competing {
		a.competing = is
		s.compete(q.sta, q.ac, is)
	}
}

// competes reports whether a station has a queue of ac listed or out.
func (s *Scheduler) competes(sta uint16, ac ieee80211.AC) bool {
	a := s.airOf(sta, ac)
	return a.listed|a.out != 0
}

// capsOpen is the set of groups (a bit each) within their caps now.
func (s *Scheduler) capsOpen() uint8 {
	if s.ncapped == 0 {
		return 0xff
	}
	return s.capsOpenNow()
}

// capsOpenNow is capsOpen with some group capped.
func (s *Scheduler) capsOpenNow() uint8 {
	open := uint8(0xff)
	for _, g := range s.capped[:s.ncapped] {
		if !s.groups[g].open(s.now) {
			open &^= 1 << g
		}
	}
	return open
}

// sharing reports whether GroupShares holds anyone back on ac now: two or
// more groups compete.
func (s *Scheduler) sharing(ac ieee80211.AC) bool {
	return s.sharingACs&(1<<ac) != 0
}

// countedWeight is the competing weight of the groups within their caps
// (capsOpen): what a group's share is of.
func (s *Scheduler) countedWeight(ac ieee80211.AC, caps uint8) int64 {
	S := &s.share[ac]
	w := S.total
	for m := S.mask &^ caps; m != 0; m &= m - 1 {
		w -= S.weight[bits.TrailingZeros8(m)]
	}
	return w
}

// inShare reports whether group g, competing on ac with weight wg, holds
// at most its share, by competing weight among the groups within their
// caps (w), of the stations' pending airtime. Some group competing is
// always at or below its share, and one AQL holds back keeps frames in
// flight that end, so the rule holds no group back from the air.
func (s *Scheduler) inShare(g uint8, ac ieee80211.AC, w, wg int64) bool {
	pg, all := s.gair.GroupShare(g, ac)
	return pg*w <= wg*all
}

// groupsOpen is the set of groups whose stations Next may serve now on
// ac: within their caps and, while sharing, within their shares. Trace
// mode asks it once per Next; production asks inShare only of the groups
// whose stations it would stop at (nextShared), with the same answers.
func (s *Scheduler) groupsOpen(ac ieee80211.AC) uint8 {
	open := s.capsOpen()
	if !s.sharing(ac) {
		return open
	}
	w, S := s.countedWeight(ac, open), &s.share[ac]
	for m := S.mask & open; m != 0; m &= m - 1 {
		if g := uint8(bits.TrailingZeros8(m)); !s.inShare(g, ac, w, S.weight[g]) {
			open &^= 1 << g
		}
	}
	return open
}

// InShare reports whether the station of q, a queue Next handed out, may
// send one more frame within its share of the in-flight airtime
// (Config.GroupShares): the caller's dequeue loop asks it before each
// frame, beside the per-station AQL check. It may while its pending
// airtime is at most its share, by its weight among the competing
// stations of the groups within their caps, of every station's pending
// airtime; summed over a group's stations, that holds the group to its
// share (the rule Next applies). Holding the group alone let whichever
// of its stations Next handed out first when the group came back within
// its share fill the group's share, and the walk's refills, given on
// each pass to the stations in debt and not to those waiting with
// credit, kept that order: of a 3-station BSS beside a 1-station one
// under equal weights, the lone station got 0.237 of the air, or at
// another seed one of the three 0.367 and the others 0.200, depending on
// what the radio carried first (sim's TestAirtimeBSSStatic). Some
// competing station is always at or
// below its share, and one AQL holds back keeps frames in flight that
// end, so the rule holds no station back from the air for good. Always
// true without GroupShares or with one group competing: then, as on a
// radio of one BSS, on every AC, it costs one test.
func (s *Scheduler) InShare(q *TXQ) bool {
	return s.sharingACs == 0 || s.inShareNow(q)
}

// inShareNow is InShare while sharing on some AC.
func (s *Scheduler) inShareNow(q *TXQ) bool {
	if q.sta == 0 || !s.sharing(q.ac) {
		return true
	}
	w := s.countedWeight(q.ac, s.capsOpen())
	pending := int64(s.air.StationPending(q.sta, q.ac))
	return pending*w <= int64(s.stas[q.sta].weight)*s.gair.StationsPending(q.ac)
}

// hbaseOf is the first heap of group g's stations in production mode: a
// pair of its own when it is capped, or with GroupShares for every group
// but 0, whose stations keep the shared pair; the shared pair otherwise.
func (s *Scheduler) hbaseOf(g uint8) int8 {
	if s.groups[g].capped || s.shares && g != 0 {
		return int8(numHeaps * (1 + int(g)))
	}
	return 0
}

// ownHeaps is the set of groups with heaps of their own.
func (s *Scheduler) ownHeaps() uint8 {
	var m uint8
	for g := range uint8(MaxGroups) {
		if s.groups[g].hbase != 0 {
			m |= 1 << g
		}
	}
	return m
}

// growHeaps makes group g's own heaps hold all its stations (one entry per
// station and AC at most), so that filing never allocates. Only SetGroup
// and SetCap call it: a station joins its group when it associates.
func (s *Scheduler) growHeaps(g uint8) {
	base := int(s.groups[g].hbase)
	if !s.prod || base == 0 {
		return
	}
	need := s.members[g]
	for ac := range s.acs {
		for h := range numHeaps {
			H := &s.acs[ac].heaps[base+h]
			if cap(H.e) >= need {
				continue
			}
			e := make([]stop, len(H.e), min(max(need, 2*cap(H.e), 8), s.cfg.MaxStations))
			copy(e, H.e)
			H.e = e
		}
	}
}

// nextShared is production's next with heaps of groups' own (caps, or
// GroupShares): the first stop, in walk order from the cursor, among the
// shared heaps and those of the groups within their caps and shares. It
// takes the earliest of the heaps' tops as they stand (earliestTop), asks
// only the earliest's group whether it is within its share (a group that
// is not is left out), and checks that stop (current; heapTop files it
// again if stale, and the tops are compared again): a
// stale entry's key is before its true stop, so the earliest top is never
// later than the first true stop.
func (s *Scheduler) nextShared(A *acState, ac ieee80211.AC) (best stop, found bool) {
	open := s.capsOpen()
	sharing := s.sharing(ac)
	var w int64
	if sharing {
		w = s.countedWeight(ac, open)
	}
	// The shared heaps are group 0's with GroupShares, and without it
	// those of every uncapped group, which no share holds back.
	// A bit per heap to look at: the pairs of the open groups with heaps
	// of their own, and the shared pair, which without GroupShares holds
	// every uncapped group's stations and with it group 0's.
	heaps := pairBits[s.owned&open] << numHeaps
	if !s.shares || open&1 != 0 && s.owned&1 == 0 {
		heaps |= 3
	}
	const belowHigh = 0xaaaaaaaa // the heaps of the below-high limit answer
	if heaps&A.filled&belowHigh != 0 && !s.air.TotalBelowThreshold() {
		heaps &^= belowHigh
	}
	for first := true; ; first = false {
		var raw *stop
		hp := -1
		if m := heaps & A.filled; first {
			raw, hp = s.earliestTop(A, m)
		} else {
			raw, hp = scanTops(A, m)
		}
		if hp < 0 {
			return best, false
		}
		g := uint8(hp/numHeaps - 1)
		if hp < numHeaps {
			g = 0 // the shared pair: group 0's with GroupShares
		}
		if wg := s.share[ac].weight[g]; sharing && wg > 0 && !s.inShare(g, ac, w, wg) {
			heaps &^= 3 << (hp &^ 1)
			continue
		}
		if s.current(A, raw) {
			return *raw, true
		}
		s.heapTop(A, ac, hp) // files the stale entries again

	}
}

// topOrder is the heaps of mask with entries, by their tops (lowest heap
// first at equal stops), as nextShared last saw them: n of them in a ring
// from head, so that the first leaves and comes back last in one step.
type topOrder struct {
	mask    uint32
	head, n int
	hp      [32]int8
}

// earliestTop is the earliest top among the heaps of m and its heap (-1
// with none), as scanTops finds it. Most decisions take the top of one
// heap and file that station again, leaving every other heap as it was:
// then only that heap moves in the order kept from the last decision,
// staying first or, a station's later stop, found a place from the back.
func (s *Scheduler) earliestTop(A *acState, m uint32) (*stop, int) {
	o := &A.order
	ch := A.changed & m
	A.changed = 0
	switch {
	case o.mask != m || ch&(ch-1) != 0:
		o.mask, o.head, o.n = m, 0, 0
		for ; m != 0; m &= m - 1 {
			o.insert(A, int8(bits.TrailingZeros32(m)))
		}
	case ch != 0:
		x := int8(bits.TrailingZeros32(ch))
		if o.hp[o.head] == x {
			if o.n == 1 || o.before(A, x, o.hp[(o.head+1)&31]) {
				break
			}
			o.head = (o.head + 1) & 31
		} else {
			i := 1
			for o.hp[(o.head+i)&31] != x {
				i++
			}
			for ; i < o.n-1; i++ {
				o.hp[(o.head+i)&31] = o.hp[(o.head+i+1)&31]
			}
		}
		o.n--
		o.insert(A, x)
	}
	if o.n == 0 {
		return nil, -1
	}
	h := o.hp[o.head]
	return &A.heaps[h].e[0], int(h)
}

// before reports whether heap h's top comes before heap p's.
func (o *topOrder) before(A *acState, h, p int8) bool {
	e, f := &A.heaps[h].e[0], &A.heaps[p].e[0]
	return e.before(f) || !f.before(e) && h < p
}

// insert files heap h, with entries, in the order from the back.
func (o *topOrder) insert(A *acState, h int8) {
	i := o.n
	for ; i > 0; i-- {
		p := o.hp[(o.head+i-1)&31]
		if !o.before(A, h, p) {
			break
		}
		o.hp[(o.head+i)&31] = p
	}
	o.hp[(o.head+i)&31] = h
	o.n++
}

// scanTops is the earliest top among the heaps of m and its heap (-1 with
// none): the lowest heap's of equal tops.
func scanTops(A *acState, m uint32) (raw *stop, hp int) {
	hp = -1
	for ; m != 0; m &= m - 1 {
		h := bits.TrailingZeros32(m)
		if e := &A.heaps[h].e[0]; raw == nil || e.before(raw) {
			raw, hp = e, h
		}
	}
	return raw, hp
}

// pairBits spreads a set of groups to their pairs of heaps: bits 2g and
// 2g+1 for group g.
var pairBits = func() (t [256]uint32) {
	for m := range t {
		for g := range MaxGroups {
			if m&(1<<g) != 0 {
				t[m] |= 3 << (numHeaps * g)
			}
		}
	}
	return t
}()
