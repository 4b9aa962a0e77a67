package aql

import (
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// airtimeChecker is the scheduler's view of AQL (package txq declares the
// same interface; package ap asserts the fit).
type airtimeChecker interface {
	PHYAllows(ac ieee80211.AC, listed int) bool
	StationAllows(sta uint16, ac ieee80211.AC) bool
	StationPending(sta uint16, ac ieee80211.AC) int32
}

var _ airtimeChecker = (*Tracker)(nil)

// noUnderflow fails the test if the tracker ever clamped a subtraction.
func noUnderflow(t testing.TB, tr *Tracker) {
	t.Helper()
	if u := tr.Counters().Underflows; u != 0 {
		t.Fatalf("%d pending-airtime underflows", u)
	}
}

func TestTrackerAddComplete(t *testing.T) {
	tr := New(Config{})
	a := tr.Add(1, ieee80211.ACBE, 300)
	b := tr.Add(2, ieee80211.ACBE, 200)
	m := tr.Add(0, ieee80211.ACBE, 50)
	if tr.Pending(1, ieee80211.ACBE) != 300 || tr.ACPending(ieee80211.ACBE) != 550 || tr.Total() != 550 {
		t.Fatalf("pending %d ac %d total %d", tr.Pending(1, ieee80211.ACBE), tr.ACPending(ieee80211.ACBE), tr.Total())
	}
	if tr.InFlight(ieee80211.ACBE) != 3 || tr.Pending(0, ieee80211.ACBE) != 50 {
		t.Fatal("in flight / multicast")
	}
	if !tr.Complete(&a) || tr.Complete(&a) {
		t.Fatal("first completion must count, the second must not")
	}
	if a.Live() || a.Airtime() != 0 {
		t.Fatal("completed token still live")
	}
	tr.Complete(&b)
	tr.Complete(&m)
	if tr.Total() != 0 || tr.ACPending(ieee80211.ACBE) != 0 || tr.InFlight(ieee80211.ACBE) != 0 {
		t.Fatal("not back to zero")
	}
	c := tr.Counters()
	if c.Added != 3 || c.Completed != 3 || c.Repeated != 1 {
		t.Fatalf("counters %+v", c)
	}
	noUnderflow(t, tr)
}

func TestTrackerRemoveStation(t *testing.T) {
	tr := New(Config{})
	a := tr.Add(7, ieee80211.ACVI, 1000)
	b := tr.Add(7, ieee80211.ACBE, 500)
	c := tr.Add(8, ieee80211.ACBE, 400)
	tr.SetStationLimit(7, ieee80211.ACBE, 1, 2)
	tr.RemoveStation(7)
	if tr.Total() != 400 || tr.InFlight(ieee80211.ACVI) != 0 || tr.InFlight(ieee80211.ACBE) != 1 {
		t.Fatalf("after removal total %d", tr.Total())
	}
	if lo, hi := tr.StationLimit(7, ieee80211.ACBE); lo != DefaultLimitLow || hi != DefaultLimitHigh {
		t.Fatal("override survived removal")
	}
	// The slot is reused before the old frames' echoes arrive.
	d := tr.Add(7, ieee80211.ACBE, 100)
	if tr.Complete(&a) || tr.Complete(&b) {
		t.Fatal("stale tokens subtracted")
	}
	if tr.Pending(7, ieee80211.ACBE) != 100 {
		t.Fatal("new station's pending disturbed by old echoes")
	}
	tr.Complete(&c)
	tr.Complete(&d)
	if tr.Total() != 0 {
		t.Fatalf("total %d", tr.Total())
	}
	if s := tr.Counters(); s.Stale != 2 || s.Reclaimed != 2 || s.ReclaimedUs != 1500 {
		t.Fatalf("counters %+v", s)
	}
	noUnderflow(t, tr)
}

func TestTrackerRejects(t *testing.T) {
	tr := New(Config{})
	bad := tr.Add(MaxStation+1, ieee80211.ACBE, 10)
	bad2 := tr.Add(1, 4, 10)
	if bad.Live() || bad2.Live() || tr.Counters().Rejected != 2 || tr.Total() != 0 {
		t.Fatal("out-of-range Add accepted")
	}
	ok := tr.Add(MaxStation, ieee80211.ACBK, 10)
	tr.Complete(&ok)
	noUnderflow(t, tr)
}

func TestUnderflowCounted(t *testing.T) {
	tr := New(Config{})
	a := tr.Add(1, ieee80211.ACBE, 100)
	dup := a // the forbidden copy: a second receipt
	tr.Complete(&a)
	tr.Complete(&dup)
	if tr.Total() != 0 || tr.Pending(1, ieee80211.ACBE) != 0 {
		t.Fatal("went below zero")
	}
	if tr.Counters().Underflows == 0 {
		t.Fatal("underflow not counted")
	}
}

func TestFrameCap(t *testing.T) {
	tr := New(Config{FrameCap: [4]uint16{ieee80211.ACVO: 2}})
	var toks [3]Token
	for i := range 2 {
		if !tr.CanSend(ieee80211.ACVO) {
			t.Fatal("cap reached early")
		}
		toks[i] = tr.Add(0, ieee80211.ACVO, 1)
	}
	if tr.CanSend(ieee80211.ACVO) {
		t.Fatal("cap not enforced")
	}
	if !tr.CanSend(ieee80211.ACBE) {
		t.Fatal("default cap on BE")
	}
	tr.Complete(&toks[0])
	if !tr.CanSend(ieee80211.ACVO) {
		t.Fatal("completion did not free a slot")
	}
	tr.SetFrameCap(ieee80211.ACBE, 1)
	toks[2] = tr.Add(3, ieee80211.ACBE, 1)
	if tr.CanSend(ieee80211.ACBE) {
		t.Fatal("SetFrameCap ignored")
	}
}

func TestPHYLimitWorked(t *testing.T) {
	l := DefaultLimits()
	for _, tc := range []struct {
		n    int
		want uint64
	}{{1, 12000}, {2, 14500}, {3, 17000}, {10, 34500}} {
		if got, _ := l.PHYLimit(ieee80211.ACBE, tc.n); got != tc.want {
			t.Errorf("n=%d: %d, want %d", tc.n, got, tc.want)
		}
	}
	l.Low[ieee80211.ACBE], l.High[ieee80211.ACBE] = 500, 1000
	for _, tc := range []struct {
		n    int
		want uint64
	}{{1, 1000}, {2, 1250}, {3, 1500}} {
		if got, _ := l.PHYLimit(ieee80211.ACBE, tc.n); got != tc.want {
			t.Errorf("seed n=%d: %d, want %d", tc.n, got, tc.want)
		}
	}
	tr := New(Config{})
	tr.Add(0, ieee80211.ACBE, 1<<31) // multicast alone fills the PHY budget
	if tr.PHYAllows(ieee80211.ACBE, 2007) {
		t.Error("over the limit but allowed")
	}
	if !tr.PHYAllows(ieee80211.ACBE, 0) {
		t.Error("empty list must always allow (kernel wrap)")
	}
	if tr.PHYAllows(4, 0) {
		t.Error("bad AC allowed")
	}
}

func TestStationAllowsKernelCases(t *testing.T) {
	tr := New(Config{})
	ac := ieee80211.ACBE
	tr.Add(1, ac, 4999)
	if !tr.StationAllows(1, ac) {
		t.Fatal("below low")
	}
	tr.Add(1, ac, 1) // 5000: not < low, total 5000 < 24000, < high
	if !tr.StationAllows(1, ac) {
		t.Fatal("below high under threshold")
	}
	tr.Add(2, ieee80211.ACVI, 19000) // total 24000: not < threshold
	if tr.StationAllows(1, ac) {
		t.Fatal("over low with total at threshold")
	}
	if !tr.StationAllows(0, ac) {
		t.Fatal("station 0 must always pass")
	}
	tr.SetStationLimit(1, ac, 6000, 7000)
	if !tr.StationAllows(1, ac) {
		t.Fatal("override ignored")
	}
	tr.ClearStationLimit(1, ac)
	if tr.StationAllows(1, ac) {
		t.Fatal("override not cleared")
	}
	if err := tr.SetStationLimit(0, ac, 1, 1); err == nil {
		t.Fatal("station 0 override accepted")
	}
}

// TestGroupShare: GroupShare answers GroupPending and StationsPending in
// one call, for group 0 (the stations in no other group), another group and
// one out of range.
func TestGroupShare(t *testing.T) {
	tr := New(Config{})
	be := ieee80211.ACBE
	tr.SetGroup(3, 2)
	tr.Add(3, be, 400)
	tr.Add(4, be, 300)
	tr.Add(0, be, 1000)
	for _, c := range []struct {
		g               uint8
		group, stations int64
	}{{0, 300, 700}, {2, 400, 700}, {5, 0, 700}, {MaxGroups, 0, 0}} {
		if g, s := tr.GroupShare(c.g, be); g != c.group || s != c.stations {
			t.Errorf("group %d: %d and %d µs, want %d and %d", c.g, g, s, c.group, c.stations)
		}
	}
}

// TestGroupPending: a station's pending airtime counts in its group's from
// Add to Complete, moves with it on SetGroup, leaves with RemoveStation,
// and multicast (slot 0) is in no group.
func TestGroupPending(t *testing.T) {
	tr := New(Config{})
	be := ieee80211.ACBE
	tr.SetGroup(3, 2)
	a := tr.Add(3, be, 400)
	b := tr.Add(4, be, 300)
	m := tr.Add(0, be, 1000)
	if g2, g0 := tr.GroupPending(2, be), tr.GroupPending(0, be); g2 != 400 || g0 != 300 {
		t.Fatalf("groups 2 and 0: %d and %d µs, want 400 and 300", g2, g0)
	}
	if p := tr.StationsPending(be); p != 700 {
		t.Fatalf("stations' pending %d µs, want 700 (multicast's left out)", p)
	}
	tr.SetGroup(4, 2)
	if g2, g0 := tr.GroupPending(2, be), tr.GroupPending(0, be); g2 != 700 || g0 != 0 {
		t.Fatalf("after the move: %d and %d µs, want 700 and 0", g2, g0)
	}
	tr.Complete(&a)
	tr.Complete(&m)
	if g := tr.GroupPending(2, be); g != 300 {
		t.Fatalf("after a completion: %d µs, want 300", g)
	}
	tr.RemoveStation(4)
	tr.Complete(&b) // stale: already reclaimed
	if g := tr.GroupPending(2, be); g != 0 || tr.Counters().Underflows != 0 {
		t.Fatalf("after the removal: %d µs, %d underflows", g, tr.Counters().Underflows)
	}
	if tr.GroupPending(MaxGroups, be) != 0 {
		t.Fatal("a group out of range has pending airtime")
	}
}
