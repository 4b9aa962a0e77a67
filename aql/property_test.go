package aql

import (
	"math/big"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
	"pgregory.net/rapid"
)

// record is the caller's in-flight record: the token lives inside it, and a
// completed record stays in the list as a tombstone for late echoes.
type record struct {
	tok       Token
	sta       uint16
	ac        ieee80211.AC
	us        uint32
	sentAt    int
	done      bool // completed by echo, no-status or timeout
	reclaimed bool // its station was removed while it was in flight
}

var testStations = []uint16{0, 1, 2, 3, 500, MaxStation}

// model is the obviously-correct reference: sums over the live records.
type model struct {
	recs []*record
	now  int
}

func (m *model) check(t *rapid.T, tr *Tracker) {
	var ac [4]int64
	var frames [4]int
	var total int64
	sta := map[uint16]*[4]int64{}
	for _, s := range testStations {
		sta[s] = new([4]int64)
	}
	for _, r := range m.recs {
		if r.done || r.reclaimed {
			continue
		}
		ac[r.ac] += int64(r.us)
		frames[r.ac]++
		total += int64(r.us)
		sta[r.sta][r.ac] += int64(r.us)
	}
	for a := range ieee80211.AC(4) {
		if got := tr.ACPending(a); got != ac[a] {
			t.Fatalf("AC %v pending %d, want %d", a, got, ac[a])
		}
		if got := tr.InFlight(a); got != frames[a] {
			t.Fatalf("AC %v in flight %d, want %d", a, got, frames[a])
		}
		for s, p := range sta {
			if got := tr.Pending(s, a); got != p[a] {
				t.Fatalf("station %d AC %v pending %d, want %d", s, a, got, p[a])
			}
		}
	}
	if tr.Total() != total {
		t.Fatalf("total %d, want %d", tr.Total(), total)
	}
	if u := tr.Counters().Underflows; u != 0 {
		t.Fatalf("%d underflows", u)
	}
}

// complete finishes r the way the core would and checks Complete's verdict.
func (m *model) complete(t *rapid.T, tr *Tracker, r *record) {
	want := !r.done && !r.reclaimed
	if got := tr.Complete(&r.tok); got != want {
		t.Fatalf("Complete(%+v) = %v, want %v", *r, got, want)
	}
	r.done = true
}

func (m *model) live(ac ieee80211.AC) []*record {
	var out []*record
	for _, r := range m.recs {
		if r.ac == ac && !r.done {
			out = append(out, r)
		}
	}
	return out
}

// TestPendingReturnsToZero drives the tracker like the TX loop does, with
// lost echoes (no status, or the timeout backstop), late echoes after a
// timeout, and stations removed and re-added mid-flight, and checks it
// against the reference after every step and at zero at the end.
func TestPendingReturnsToZero(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tr := New(Config{})
		m := &model{}
		t.Repeat(map[string]func(*rapid.T){
			"send": func(t *rapid.T) {
				r := &record{
					sta:    rapid.SampledFrom(testStations).Draw(t, "sta"),
					ac:     ieee80211.AC(rapid.IntRange(0, 3).Draw(t, "ac")),
					us:     rapid.Uint32Range(0, 20000).Draw(t, "us"),
					sentAt: m.now,
				}
				r.tok = tr.Add(r.sta, r.ac, r.us)
				m.recs = append(m.recs, r)
			},
			"echo": func(t *rapid.T) {
				// The echo matches one record; older unmatched ones in the
				// same AC become "no status".
				live := m.live(ieee80211.AC(rapid.IntRange(0, 3).Draw(t, "ac")))
				if len(live) == 0 {
					t.Skip("nothing in flight")
				}
				j := rapid.IntRange(0, len(live)-1).Draw(t, "match")
				for _, r := range live[:j+1] {
					m.complete(t, tr, r)
				}
			},
			"tick": func(t *rapid.T) {
				m.now += rapid.IntRange(1, 50).Draw(t, "dt")
			},
			"timeout": func(t *rapid.T) {
				for _, r := range m.recs {
					if !r.done && m.now-r.sentAt > 100 {
						m.complete(t, tr, r)
					}
				}
			},
			"lateEcho": func(t *rapid.T) {
				var done []*record
				for _, r := range m.recs {
					if r.done {
						done = append(done, r)
					}
				}
				if len(done) == 0 {
					t.Skip("no tombstone")
				}
				m.complete(t, tr, rapid.SampledFrom(done).Draw(t, "tombstone"))
			},
			"remove": func(t *rapid.T) {
				s := rapid.SampledFrom(testStations).Draw(t, "sta")
				tr.RemoveStation(s)
				for _, r := range m.recs {
					if r.sta == s && !r.done {
						r.reclaimed = true
					}
				}
			},
			"": func(t *rapid.T) { m.check(t, tr) },
		})
		for _, r := range m.recs {
			if !r.done {
				m.complete(t, tr, r)
			}
		}
		m.check(t, tr)
		if tr.Total() != 0 {
			t.Fatalf("total %d after everything completed", tr.Total())
		}
		for ac := range ieee80211.AC(4) {
			if tr.ACPending(ac) != 0 || tr.InFlight(ac) != 0 {
				t.Fatalf("AC %v not empty", ac)
			}
		}
	})
}

// TestLimitsAgainstReference compares the checks with a direct big-number
// evaluation of mac80211's formulas.
func TestLimitsAgainstReference(t *testing.T) {
	u32 := rapid.Uint32Range(0, 1<<32-1)
	small := rapid.Uint32Range(0, 40000)
	rapid.Check(t, func(t *rapid.T) {
		var l Limits
		for ac := range 4 {
			l.Low[ac] = rapid.OneOf(u32, small).Draw(t, "low")
			l.High[ac] = rapid.OneOf(u32, small).Draw(t, "high")
		}
		l.Threshold = rapid.OneOf(u32, small).Draw(t, "threshold")
		tr := New(Config{Limits: l})
		tr.SetLimits(l)
		pend := map[[2]int]int64{}
		var acSum [4]int64
		var total int64
		for range rapid.IntRange(0, 20).Draw(t, "adds") {
			s := int(rapid.SampledFrom(testStations).Draw(t, "sta"))
			ac := rapid.IntRange(0, 3).Draw(t, "ac")
			us := rapid.OneOf(small, u32).Draw(t, "us")
			tr.Add(uint16(s), ieee80211.AC(ac), us)
			pend[[2]int{s, ac}] += int64(us)
			acSum[ac] += int64(us)
			total += int64(us)
		}
		over := map[[2]int][2]uint32{}
		if rapid.Bool().Draw(t, "override") {
			s := rapid.SampledFrom(testStations[1:]).Draw(t, "osta")
			ac := rapid.IntRange(0, 3).Draw(t, "oac")
			lo, hi := small.Draw(t, "olow"), small.Draw(t, "ohigh")
			tr.SetStationLimit(s, ieee80211.AC(ac), lo, hi)
			over[[2]int{int(s), ac}] = [2]uint32{lo, hi}
		}
		for ac := range 4 {
			listed := rapid.IntRange(-1, MaxStation).Draw(t, "listed")
			want := true
			if listed > 0 {
				lim := new(big.Int).Mul(big.NewInt(int64(listed-1)), big.NewInt(int64(l.Low[ac])))
				lim.Div(lim, big.NewInt(2)).Add(lim, big.NewInt(int64(l.High[ac])))
				want = big.NewInt(acSum[ac]).Cmp(lim) < 0
			}
			if got := tr.PHYAllows(ieee80211.AC(ac), listed); got != want {
				t.Fatalf("PHYAllows(%d, %d) = %v, want %v", ac, listed, got, want)
			}
			for _, s := range testStations {
				lo, hi := l.Low[ac], l.High[ac]
				if o, ok := over[[2]int{int(s), ac}]; ok {
					lo, hi = o[0], o[1]
				}
				p := pend[[2]int{int(s), ac}]
				want := s == 0 || p < int64(lo) || (total < int64(l.Threshold) && p < int64(hi))
				if got := tr.StationAllows(s, ieee80211.AC(ac)); got != want {
					t.Fatalf("StationAllows(%d, %d) = %v, want %v", s, ac, got, want)
				}
				if got := tr.StationPending(s, ieee80211.AC(ac)); int64(got) != min(p, 1<<31-1) {
					t.Fatalf("StationPending(%d, %d) = %d, want %d", s, ac, got, p)
				}
				wantLow, wantHigh := s == 0 || p < int64(lo), s == 0 || p < int64(hi)
				if got, low, high := tr.StationBelow(s, ieee80211.AC(ac)); int64(got) != min(p, 1<<31-1) || low != wantLow || high != wantHigh {
					t.Fatalf("StationBelow(%d, %d) = %d, %v, %v, want %d, %v, %v", s, ac, got, low, high, p, wantLow, wantHigh)
				}
			}
		}
	})
}
