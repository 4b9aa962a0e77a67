package txq

import (
	"math/bits"

	"github.com/airq/airq/internal/ieee80211"
)

// GroupAirtime is the per-group view of AQL that Config.GroupShares needs:
// the pending airtime of each group's stations (the aql package's Tracker
// sums it once told each station's group).
type GroupAirtime interface {
	// GroupPending is the µs pending, handed to the radio and not yet
	// completed, of group g's stations in ac.
	GroupPending(g uint8, ac ieee80211.AC) int64
}

// shareState is what GroupShares keeps per AC: each group's competing
// weight (the weights of its stations with a queue of the AC listed or
// checked out) and, as of the last Next, the sums InShare compares with.
type shareState struct {
	weight [MaxGroups]int64
	// competing is the number of groups with weight.
	competing int
	// As of the last groupsOpen: the competing weight and pending
	// airtime of the groups counted (competing and within their caps),
	// and each one's pending airtime then. gen counts the changes of
	// weight since (seen: gen then).
	w, p      int64
	pending   [MaxGroups]int64
	gen, seen uint32
	// last is each group's pending airtime at InShare's last ask.
	last [MaxGroups]int64
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
	S.gen++
	if now := S.weight[g] > 0; now != was {
		S.competing += int(b2i(now)) - int(b2i(was))
	}
}

// competes reports whether a station has a queue of ac listed or out.
func (s *Scheduler) competes(sta uint16, ac ieee80211.AC) bool {
	a := s.airOf(sta, ac)
	return a.listed|a.out != 0
}

// groupsOpen is the set of groups (a bit each) whose stations Next may
// serve now on ac: those within their caps and, with GroupShares and two
// or more groups competing, those whose stations' pending airtime is at
// most their share of the counted groups' by competing weight. With the
// shares held this way a group can always send (some group is at or below
// its share), and one blocked by AQL holds the others to its share of
// what it has in flight, so the radio's queue, served in order, carries
// each group's share of the air.
func (s *Scheduler) groupsOpen(ac ieee80211.AC) uint8 {
	open := uint8(0xff)
	for _, g := range s.capped[:s.ncapped] {
		if !s.groups[g].open(s.now) {
			open &^= 1 << g
		}
	}
	if !s.shares {
		return open
	}
	S := &s.share[ac]
	S.seen = S.gen
	if S.competing < 2 {
		S.w = 0 // InShare: nothing to hold
		return open
	}
	S.w, S.p = 0, 0
	for g := range uint8(MaxGroups) {
		if S.weight[g] > 0 && open&(1<<g) != 0 {
			S.pending[g] = s.gair.GroupPending(g, ac)
			S.last[g] = S.pending[g]
			S.w += S.weight[g]
			S.p += S.pending[g]
		}
	}
	for g := range uint8(MaxGroups) {
		if S.weight[g] > 0 && open&(1<<g) != 0 && S.pending[g]*S.w > S.weight[g]*S.p {
			open &^= 1 << g
		}
	}
	return open
}

// InShare reports whether the station of q, a queue Next handed out, may
// send one more frame within its group's share of the in-flight airtime
// (Config.GroupShares): the caller's dequeue loop asks it before each
// frame, beside the per-station AQL check. It may while the group's
// pending airtime is at most its share of the counted groups' plus the
// airtime of the frame it sent last. Without that frame's worth, a station
// would send one frame per selection while its group is at its share, and
// the kernel's walk, which gives credit per pass, would favour stations by
// their place in the list (of a 3-station BSS beside a 1-station one, the
// middle station got 0.18 of the air and the others 0.27 to 0.29, not
// 0.25); with it the shares hold (sim's TestAirtimeBSSStatic). Always true
// without GroupShares or with one group competing.
func (s *Scheduler) InShare(q *TXQ) bool {
	S := &s.share[q.ac]
	if !s.shares || q.sta == 0 || S.competing < 2 {
		return true
	}
	if S.seen != S.gen {
		s.groupsOpen(q.ac) // who competes changed since the Next
	}
	if S.w == 0 {
		return true
	}
	g := s.stas[q.sta].group
	pg := s.gair.GroupPending(g, q.ac)
	last := pg - S.last[g] // the frame sent since the last ask
	S.last[g] = pg
	return pg*S.w <= S.weight[g]*(S.p+pg-S.pending[g])+S.w*max(last, 0)
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

// nextOwn takes the earlier of best and the stops in the heaps of the
// groups with heaps of their own that are open.
func (s *Scheduler) nextOwn(A *acState, ac ieee80211.AC, open uint8, best *stop, found *bool) {
	below := -1 // TotalBelowThreshold, asked once
	for m := s.owned & open; m != 0; m &= m - 1 {
		base := numHeaps * (1 + bits.TrailingZeros8(m))
		if e := s.heapTop(A, ac, base+heapAllowed); e != nil && (!*found || e.before(best)) {
			*best, *found = *e, true
		}
		if len(A.heaps[base+heapBelowHigh].e) == 0 {
			continue
		}
		if below < 0 {
			below = int(b2i(s.air.TotalBelowThreshold()))
		}
		if below == 1 {
			if e := s.heapTop(A, ac, base+heapBelowHigh); e != nil && (!*found || e.before(best)) {
				*best, *found = *e, true
			}
		}
	}
}
