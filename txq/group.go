package txq

import (
	"errors"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// MaxGroups is the number of station groups: a radio's BSSes.
const MaxGroups = 8

// DefaultCapBurst is the airtime a capped group may bank while it sends
// less than its share: a few aggregates, so that a short burst after a
// quiet spell goes out at once.
const DefaultCapBurst = 20 * time.Millisecond

// MinCapBurst is the least burst: two PPDUs of aPPDUMaxTime (5.484 ms).
// A group within budget may have to wait that long behind others' frames
// in flight, and a bucket that fills up meanwhile loses what it would have
// banked: with a smaller burst a busy group gets less than its share.
const MinCapBurst = 11 * time.Millisecond

// capUnit is one µs of airtime in the bucket's units: a nanosecond of time
// refills per-mille units, so a µs of airtime is 1000 ns times 1000.
const capUnit = 1000 * 1000

// group is a set of stations (a BSS) and its optional hard cap: a token
// bucket of airtime, refilled at share per mille of elapsed time up to
// depth, charged with every completion of its stations' frames.
type group struct {
	capped bool
	share  int64 // per mille of the air
	depth  int64 // the burst, in capUnits
	credit int64 // as of last; negative: over budget
	last   time.Duration
	// hbase is the first of the group's heaps in production mode while
	// capped; 0 (the shared heaps) otherwise.
	hbase int8
}

var errGroup = errors.New("txq: group out of range")

// refill brings the bucket to now. Refilling is linear and clipped at the
// depth, so the credit at a time does not depend on how often it was asked.
func (g *group) refill(now time.Duration) {
	d := int64(now - g.last)
	if d <= 0 {
		return
	}
	g.last = now
	if d > (g.depth-g.credit)/g.share {
		g.credit = g.depth
		return
	}
	g.credit += d * g.share
}

// open reports whether the group may be served at now: uncapped, or within
// its budget.
func (g *group) open(now time.Duration) bool {
	if !g.capped {
		return true
	}
	g.refill(now)
	return g.credit >= 0
}

// SetGroup moves a station into group g (its BSS), live. Its deficits,
// weight and queues are kept. Between groups without heaps of their own
// this is O(1); into or out of a capped group, or any but group 0 with
// GroupShares, the station's place in production mode's heaps moves,
// O(log n), and the group's heaps grow if they are short of a place for
// each of its stations (the only allocation after New, at association).
// Stations start in group 0.
func (s *Scheduler) SetGroup(sta uint16, g uint8) error {
	if !s.valid(sta) || !s.stas[sta].present {
		return errSlot
	}
	if g >= MaxGroups {
		return errGroup
	}
	st := &s.stas[sta]
	moved := s.groups[g].hbase != s.groups[st.group].hbase
	s.members[st.group]--
	s.members[g]++
	s.moveCompeting(sta, g)
	st.group = g
	if moved {
		s.growHeaps(g)
		s.refileAll(sta)
	}
	return nil
}

// moveCompeting moves a station's competing weight to group g.
func (s *Scheduler) moveCompeting(sta uint16, g uint8) {
	if !s.shares {
		return
	}
	from := s.stas[sta].group
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		if s.competes(sta, ac) {
			s.stas[sta].group = from
			s.compete(sta, ac, false)
			s.stas[sta].group = g
			s.compete(sta, ac, true)
		}
	}
}

// refileAll files a station again on every AC after what decides its heap
// (its group, or its group's cap) changed. Booking its refills does not
// depend on that.
func (s *Scheduler) refileAll(sta uint16) {
	hbase := s.groups[s.stas[sta].group].hbase
	for ac := range ieee80211.NumACs {
		s.airOf(sta, ieee80211.AC(ac)).hbase = hbase
		if s.prod {
			s.refile(sta, ieee80211.AC(ac))
		}
	}
}

// Group reports the station's group.
func (s *Scheduler) Group(sta uint16) uint8 {
	if !s.valid(sta) {
		return 0
	}
	return s.stas[sta].group
}

// SetCap holds group g to perMille thousandths of the air, measured on the
// caller's clock, even when nobody else wants the rest: the group's stations
// are passed over while its bucket is empty. burst is the airtime it may
// bank (DefaultCapBurst if 0, at least MinCapBurst); the bucket starts
// full. Changing a cap keeps the group's debt. Setting a group's first cap
// may allocate its heaps in production mode (a place for each of its
// stations); nothing else here allocates.
func (s *Scheduler) SetCap(g uint8, perMille int, burst, now time.Duration) error {
	if g >= MaxGroups {
		return errGroup
	}
	if perMille < 1 || perMille > 1000 {
		return errors.New("txq: a cap is 1 to 1000 per mille")
	}
	if burst <= 0 {
		burst = DefaultCapBurst
	}
	burst = max(burst, MinCapBurst)
	G := &s.groups[g]
	depth := int64(burst) * 1000
	if G.capped {
		G.refill(now)
		G.share, G.depth, G.credit = int64(perMille), depth, min(G.credit, depth)
		return nil
	}
	*G = group{capped: true, share: int64(perMille), depth: depth, credit: depth, last: now}
	G.hbase = s.hbaseOf(g)
	s.owned = s.ownHeaps()
	s.growHeaps(g)
	s.capped[s.ncapped] = g
	s.ncapped++
	s.refileGroup(g)
	return nil
}

// ClearCap lifts group g's cap.
func (s *Scheduler) ClearCap(g uint8) {
	if g >= MaxGroups || !s.groups[g].capped {
		return
	}
	s.groups[g] = group{}
	s.groups[g].hbase = s.hbaseOf(g)
	s.owned = s.ownHeaps()
	n := 0
	for _, c := range s.capped[:s.ncapped] {
		if c != g {
			s.capped[n] = c
			n++
		}
	}
	s.ncapped = n
	s.refileGroup(g)
}

// refileGroup files group g's stations again after its cap came or went.
func (s *Scheduler) refileGroup(g uint8) {
	for sta := range s.stas {
		if st := &s.stas[sta]; st.present && st.group == g {
			s.refileAll(uint16(sta))
		}
	}
}

// Cap reports group g's cap in per mille (0: none) and its credit at now
// in µs of airtime (negative: over budget).
func (s *Scheduler) Cap(g uint8, now time.Duration) (perMille int, creditUS int64) {
	if g >= MaxGroups || !s.groups[g].capped {
		return 0, 0
	}
	G := &s.groups[g]
	G.refill(now)
	return int(G.share), G.credit / capUnit
}

// CapDeadline is when the first capped group now over its budget is back
// within it; ok is false if none is over. A caller holding frames that Next
// did not hand out sleeps until then (or until a completion or a new frame),
// since nothing else would wake it for a group held back with the air idle.
func (s *Scheduler) CapDeadline(now time.Duration) (at time.Duration, ok bool) {
	for _, g := range s.capped[:s.ncapped] {
		G := &s.groups[g]
		if G.open(now) {
			continue
		}
		t := now + time.Duration((-G.credit+G.share-1)/G.share)
		if !ok || t < at {
			at, ok = t, true
		}
	}
	return at, ok
}

// chargeCap books a completion's airtime to the bucket of the station's
// group, if capped.
func (s *Scheduler) chargeCap(st *station, airtimeUS uint32, now time.Duration) {
	if G := &s.groups[st.group]; G.capped {
		G.refill(now)
		G.credit -= int64(airtimeUS) * capUnit
	}
}

// StationBacklog is the number of frames and bytes queued for a station on
// every TID: hostapd's backlog_bytes, which its airtime policy polls.
func (s *Scheduler) StationBacklog(sta uint16) (frames, bytes int) {
	if !s.valid(sta) {
		return 0, 0
	}
	for tid := range uint8(ieee80211.NumTIDs) {
		q := s.Queue(sta, tid)
		frames += int(q.frames)
		bytes += int(q.bytes)
	}
	return frames, bytes
}
