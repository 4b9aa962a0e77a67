package txq

import (
	"testing"
	"time"
)

// TestAllocs asserts the steady state allocates nothing: enqueue, a whole
// round, and a charge, in both modes, with stations in four groups of
// which one is capped; and moving stations between groups, changing the
// cap and asking for its deadline.
func TestAllocs(t *testing.T) {
	for _, mode := range []Mode{Production, Trace} {
		t.Run(mode.String(), func(t *testing.T) {
			f := newAQLFake(5000, 12000)
			s := mustNew(t, Config{Mode: mode, Airtime: f, Owner: &owner{}, MaxStations: 64})
			for sta := uint16(1); sta <= 32; sta++ {
				if err := s.AddStation(sta); err != nil {
					t.Fatal(err)
				}
				s.SetGroup(sta, uint8(sta%4))
			}
			s.SetCap(3, 300, 0, 0)
			var h Handle
			var now time.Duration
			enqueue := func() {
				for sta := uint16(1); sta <= 32; sta++ {
					h++
					s.Enqueue(sta, uint8(h&7), Item{Handle: h, Len: 1200, Hash: uint32(h) * 40503}, now)
				}
			}
			round := func() {
				s.StartRound(be, now)
				for q, ok := s.Next(be, now); ok; q, ok = s.Next(be, now) {
					s.Dequeue(q, now)
					s.Return(q, false, now)
				}
				s.EndRound(be)
				now += time.Millisecond
			}
			charge := func() {
				for sta := uint16(1); sta <= 32; sta++ {
					s.Charge(sta, be, 700, now)
				}
			}
			for range 50 {
				enqueue()
				round()
				charge()
			}
			regroup := func() {
				for sta := uint16(1); sta <= 32; sta++ {
					s.SetGroup(sta, uint8(sta+uint16(now/time.Millisecond))%4)
				}
				s.SetCap(3, 200+int(now/time.Millisecond)%100, 0, now)
				s.CapDeadline(now)
			}
			for name, fn := range map[string]func(){"enqueue": enqueue, "round": round, "charge": charge, "regroup": regroup} {
				if n := testing.AllocsPerRun(100, fn); n != 0 {
					t.Errorf("%s: %v allocs", name, n)
				}
			}
		})
	}
}

// TestGroupDecisionAllocs: BenchmarkScheduleGroups's decision, 2,007
// stations over eight groups with one capped, with and without
// GroupShares, allocates nothing.
func TestGroupDecisionAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts under -race are the detector's; make norace runs this")
	}
	for _, shares := range []bool{false, true} {
		r := newGroupRig(t, shares)
		for sta := uint16(1); sta <= DefaultMaxStations; sta++ {
			r.s.SetGroup(sta, uint8(sta%MaxGroups))
		}
		r.s.SetCap(MaxGroups-1, 100, 0, r.now)
		for range 4 * DefaultMaxStations {
			r.decision()
		}
		if n := testing.AllocsPerRun(5000, r.decision); n != 0 {
			t.Errorf("GroupShares %v: %v allocs per decision", shares, n)
		}
	}
}
