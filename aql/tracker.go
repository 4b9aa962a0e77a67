package aql

import (
	"math"

	"github.com/airq/airq/internal/ieee80211"
)

// MaxStation is the highest station slot (the 802.11 AID limit). Slot 0 is
// "no station": multicast, broadcast and management frames without a peer.
const MaxStation = 2007

const numSlots = MaxStation + 1

// Config configures a Tracker. The zero value means mac80211's defaults.
type Config struct {
	// Limits are the radio-wide limits; the zero Limits means DefaultLimits.
	Limits Limits
	// FrameCap is the hard cap of frames in flight per AC; 0 means
	// DefaultFrameCap. It is the only brake on a radio that never pushes
	// back on injection, independent of airtime estimates.
	FrameCap [ieee80211.NumACs]uint16
}

// Token is the receipt of one Add. The caller keeps it inside its in-flight
// record and hands a pointer to it to Complete exactly when that record
// completes. Complete clears it, so the record itself becomes the
// tombstone: a late echo that finds the record again completes nothing.
// Tokens must not be copied after Add; a copy would be a second receipt.
type Token struct {
	us   uint32
	gen  uint32
	sta  uint16
	ac   ieee80211.AC
	live bool
}

// Airtime returns the µs the token holds, 0 once completed.
func (t *Token) Airtime() uint32 {
	if !t.live {
		return 0
	}
	return t.us
}

// Live reports whether the token still holds pending airtime and a frame.
func (t *Token) Live() bool { return t.live }

// Counters are cumulative event counts of a Tracker.
type Counters struct {
	Added       uint64 // records registered by Add
	Completed   uint64 // records subtracted by Complete
	Repeated    uint64 // Complete on a token already completed (or never live)
	Stale       uint64 // Complete for a station removed after Add: already reclaimed
	Reclaimed   uint64 // records reclaimed by RemoveStation/Reset
	ReclaimedUs uint64 // their airtime in µs
	Rejected    uint64 // Add with a station or AC out of range
	Underflows  uint64 // a subtraction that would have gone negative, clamped to 0
}

type station struct {
	pending [ieee80211.NumACs]int64
	frames  [ieee80211.NumACs]uint32
	low     [ieee80211.NumACs]uint32
	high    [ieee80211.NumACs]uint32
	custom  uint8 // bit per AC: low/high above override the radio's
	group   uint8 // SetGroup's: whose sum in Tracker.group it counts in (0: none)
	gen     uint32
}

// MaxGroups is the number of station groups (a radio's BSSes) whose
// pending airtime the Tracker sums, as the scheduler's txq.MaxGroups.
const MaxGroups = 8

// Tracker holds pending airtime and in-flight frame counts per station and
// AC, per AC and in total, and the limits checked against them. Station 0
// (multicast) counts in the per-AC sums and the total, so it uses up the
// per-PHY budget, but it is never refused by the per-station check.
// A Tracker is not safe for concurrent use.
type Tracker struct {
	lim      Limits
	frameCap [ieee80211.NumACs]uint32
	pending  [ieee80211.NumACs]int64
	inFlight [ieee80211.NumACs]uint32
	// group is the pending airtime of each group's stations per AC (what
	// the scheduler holds a BSS's in-flight share to) for groups 1 and up.
	// Group 0's, every station's on a radio of one BSS, is derived on read
	// (GroupPending) from the stations' pending airtime less the other
	// groups': its row only takes Add's sums unread, so that Add needs no
	// branch and stays small enough to inline, and Complete subtracts
	// nothing from it.
	group [MaxGroups][ieee80211.NumACs]int64
	c     Counters
	sta   [numSlots]station
}

// New returns a Tracker configured by cfg. It is the only allocation.
func New(cfg Config) *Tracker {
	t := &Tracker{lim: cfg.Limits}
	if cfg.Limits == (Limits{}) {
		t.lim = DefaultLimits()
	}
	for ac, c := range cfg.FrameCap {
		t.frameCap[ac] = uint32(c)
		if c == 0 {
			t.frameCap[ac] = DefaultFrameCap
		}
	}
	return t
}

// Add registers a frame of us µs estimated airtime to station sta in ac and
// returns its receipt. Call it when the in-flight record is created, before
// the frame is written: the echo can arrive before the write returns.
// An out-of-range station or AC is counted as Rejected and yields a dead
// token.
func (t *Tracker) Add(sta uint16, ac ieee80211.AC, us uint32) Token {
	if sta > MaxStation || ac >= ieee80211.NumACs {
		t.c.Rejected++
		return Token{}
	}
	s, u := &t.sta[sta], int64(us)
	s.pending[ac] += u
	s.frames[ac]++
	t.group[s.group][ac] += u
	t.pending[ac] += u
	t.inFlight[ac]++
	t.c.Added++
	return Token{us: us, gen: s.gen, sta: sta, ac: ac, live: true}
}

// Complete subtracts the token's airtime and frame once, whatever ended the
// record (echo, "no status", timeout backstop), and clears the token. It
// reports whether anything was subtracted: false for a cleared token (a late
// echo after a timeout) and for a token whose station was removed since
// Add (RemoveStation already reclaimed it).
func (t *Tracker) Complete(tok *Token) bool {
	if !tok.live {
		t.c.Repeated++
		return false
	}
	tok.live = false
	s := &t.sta[tok.sta]
	if s.gen != tok.gen {
		t.c.Stale++
		return false
	}
	us := int64(tok.us)
	s.pending[tok.ac] = t.sub(s.pending[tok.ac], us)
	if s.group != 0 {
		t.group[s.group][tok.ac] = t.sub(t.group[s.group][tok.ac], us)
	}
	t.pending[tok.ac] = t.sub(t.pending[tok.ac], us)
	s.frames[tok.ac] = t.sub32(s.frames[tok.ac], 1)
	t.inFlight[tok.ac] = t.sub32(t.inFlight[tok.ac], 1)
	t.c.Completed++
	return true
}

// sub returns v-d, clamped at 0 and counted when it would go negative, as
// mac80211 clamps and warns on "pending airtime underflow".
func (t *Tracker) sub(v, d int64) int64 {
	if v < d {
		t.c.Underflows++
		return 0
	}
	return v - d
}

func (t *Tracker) sub32(v, d uint32) uint32 {
	if v < d {
		t.c.Underflows++
		return 0
	}
	return v - d
}

// RemoveStation forgets station sta: its pending airtime and frames leave
// the per-AC sums and the total now, its limit overrides are dropped, and
// tokens issued to it before become stale, so their completions (which may
// still come) subtract nothing. The slot can be reused at once. Slot 0 drops
// every multicast record the same way (e.g. after a retune flushed them).
// mac80211 instead waits for each frame's status and leaks when it never
// comes; airq does not depend on every echo arriving.
func (t *Tracker) RemoveStation(sta uint16) {
	if sta > MaxStation {
		return
	}
	s := &t.sta[sta]
	for ac := range s.pending {
		p, f := s.pending[ac], s.frames[ac]
		if s.group != 0 {
			t.group[s.group][ac] = t.sub(t.group[s.group][ac], p)
		}
		t.pending[ac] = t.sub(t.pending[ac], p)
		t.inFlight[ac] = t.sub32(t.inFlight[ac], f)
		t.c.Reclaimed += uint64(f)
		t.c.ReclaimedUs += uint64(p)
	}
	*s = station{gen: s.gen + 1}
}

// SetGroup moves station sta into group g (its BSS; stations start in 0),
// with its pending airtime: GroupPending follows. Slot 0 and groups out of
// range are ignored.
func (t *Tracker) SetGroup(sta uint16, g uint8) {
	if sta == 0 || sta > MaxStation || g >= MaxGroups {
		return
	}
	s := &t.sta[sta]
	for ac, p := range s.pending {
		if s.group != 0 {
			t.group[s.group][ac] -= p
		}
		if g != 0 {
			t.group[g][ac] += p
		}
	}
	s.group = g
}

// GroupPending returns the µs pending for group g's stations in ac
// (multicast, slot 0, is in none).
func (t *Tracker) GroupPending(g uint8, ac ieee80211.AC) int64 {
	p, _ := t.GroupShare(g, ac)
	return p
}

// GroupShare returns GroupPending(g, ac) and StationsPending(ac).
func (t *Tracker) GroupShare(g uint8, ac ieee80211.AC) (group, stations int64) {
	if g >= MaxGroups || ac >= ieee80211.NumACs {
		return 0, 0
	}
	stations = t.StationsPending(ac)
	if g != 0 {
		return t.group[g][ac], stations
	}
	group = stations
	for _, o := range t.group[1:] {
		group -= o[ac]
	}
	return group, stations
}

// StationsPending returns the µs pending for every station in ac: the
// AC's pending airtime without multicast (slot 0).
func (t *Tracker) StationsPending(ac ieee80211.AC) int64 {
	if ac >= ieee80211.NumACs {
		return 0
	}
	return t.pending[ac] - t.sta[0].pending[ac]
}

// Reset removes every station including slot 0: all pending airtime and
// frames are reclaimed and every outstanding token goes stale. O(MaxStation).
func (t *Tracker) Reset() {
	for sta := range t.sta {
		t.RemoveStation(uint16(sta))
	}
}

// Pending returns the µs pending for station sta in ac (slot 0: multicast).
func (t *Tracker) Pending(sta uint16, ac ieee80211.AC) int64 {
	if sta > MaxStation || ac >= ieee80211.NumACs {
		return 0
	}
	return t.sta[sta].pending[ac]
}

// StationPending is Pending clamped to int32, the µs that count against the
// station's deficit (mac80211's ieee80211_sta_deficit).
func (t *Tracker) StationPending(sta uint16, ac ieee80211.AC) int32 {
	return int32(min(t.Pending(sta, ac), math.MaxInt32))
}

// ACPending returns the µs pending in ac over all stations and multicast.
func (t *Tracker) ACPending(ac ieee80211.AC) int64 {
	if ac >= ieee80211.NumACs {
		return 0
	}
	return t.pending[ac]
}

// Total returns the µs pending over all ACs: their sum, taken when asked
// rather than kept beside them per frame.
func (t *Tracker) Total() (sum int64) {
	for _, p := range t.pending[:] { // the slice: ranging the array copies it
		sum += p
	}
	return sum
}

// InFlight returns the frames in flight in ac.
func (t *Tracker) InFlight(ac ieee80211.AC) int {
	if ac >= ieee80211.NumACs {
		return 0
	}
	return int(t.inFlight[ac])
}

// StationInFlight returns station sta's frames in flight in ac.
func (t *Tracker) StationInFlight(sta uint16, ac ieee80211.AC) int {
	if sta > MaxStation || ac >= ieee80211.NumACs {
		return 0
	}
	return int(t.sta[sta].frames[ac])
}

// Counters returns a snapshot of the counters.
func (t *Tracker) Counters() Counters { return t.c }
