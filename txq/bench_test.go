package txq

import (
	"fmt"
	"testing"
	"time"
)

// benchRig is N stations, each with a backlogged BE queue, everything
// allowed by AQL and completing at once.
type benchRig struct {
	s      *Scheduler
	now    time.Duration
	charge uint32
}

func newBenchRig(tb testing.TB, mode Mode, n int, charge uint32) *benchRig {
	return newRig(tb, Config{Mode: mode, Airtime: openAirtime{}, Owner: &owner{}}, n, charge)
}

// newGroupRig is production's rig of 2,007 stations charged 100 µs, with
// GroupShares if shares.
func newGroupRig(tb testing.TB, shares bool) *benchRig {
	return newRig(tb, Config{Airtime: openAirtime{}, Owner: &owner{}, GroupShares: shares}, DefaultMaxStations, 100)
}

func newRig(tb testing.TB, cfg Config, n int, charge uint32) *benchRig {
	r := &benchRig{s: mustNew(tb, cfg), charge: charge}
	for sta := uint16(1); int(sta) <= n; sta++ {
		if err := r.s.AddStation(sta); err != nil {
			tb.Fatal(err)
		}
		for k := range 2 {
			r.s.Enqueue(sta, 0, Item{Handle: Handle(int(sta)*2 + k), Len: 1500, Hash: uint32(sta) * 2654435761}, r.now)
		}
	}
	return r
}

// decision is one scheduling decision: StartRound, Next, dequeue one
// frame, Return, complete (Charge); the frame is queued again so the
// station stays backlogged.
func (r *benchRig) decision() {
	s := r.s
	s.StartRound(be, r.now)
	if q, ok := s.Next(be, r.now); ok {
		f, _ := s.Dequeue(q, r.now)
		s.Return(q, false, r.now)
		sta := q.Station()
		s.Charge(sta, be, r.charge, r.now)
		s.Enqueue(sta, 0, Item{Handle: f.Handle, Len: f.Len, Hash: uint32(sta) * 2654435761}, r.now)
	}
	s.EndRound(be)
	r.now += time.Microsecond
}

var benchStations = []int{1, 100, 1000, 2007}

// BenchmarkSchedule measures one decision. charge=large is the airtime of a
// 1500-byte frame at 1 Mbit/s (12506 µs, 49 weights of refill), small a
// fast station's 100 µs.
func BenchmarkSchedule(b *testing.B) {
	for _, mode := range []Mode{Production, Trace} {
		for _, ch := range []struct {
			name string
			us   uint32
		}{{"small", 100}, {"large", 12506}} {
			for _, n := range benchStations {
				b.Run(fmt.Sprintf("mode=%s/charge=%s/stations=%d", mode, ch.name, n), func(b *testing.B) {
					r := newBenchRig(b, mode, n, ch.us)
					for range 4 * n {
						r.decision() // reach the steady state
					}
					b.ReportAllocs()
					b.ResetTimer()
					for b.Loop() {
						r.decision()
					}
				})
			}
		}
	}
}

// BenchmarkScheduleGroups measures production's decision with 2,007
// stations in one group, spread over eight, spread over eight with
// GroupShares (a radio of eight BSSes: each group's heaps and share looked
// at in every decision), and spread over eight with one capped at 10 %
// (groups=8,capped=1: over its budget most of the time in this rig, which
// charges 100 µs per µs of time, so its stations are passed over and filed
// again when it is back within budget). make bench-groups holds
// groups=8,shares to within 10 % of groups=1 in instructions.
func BenchmarkScheduleGroups(b *testing.B) {
	for _, c := range []struct {
		name           string
		groups         int
		capped, shares bool
	}{{"groups=1", 1, false, false}, {"groups=8", 8, false, false}, {"groups=8,shares", 8, false, true}, {"groups=8,capped=1", 8, true, false}} {
		b.Run(c.name, func(b *testing.B) {
			r := newGroupRig(b, c.shares)
			for sta := uint16(1); sta <= DefaultMaxStations; sta++ {
				if err := r.s.SetGroup(sta, uint8(int(sta)%c.groups)); err != nil {
					b.Fatal(err)
				}
			}
			if c.capped {
				if err := r.s.SetCap(MaxGroups-1, 100, 0, r.now); err != nil {
					b.Fatal(err)
				}
			}
			for range 4 * DefaultMaxStations {
				r.decision()
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				r.decision()
			}
		})
	}
}
