package txq

import (
	"testing"
	"time"
)

// TestAllocs asserts the steady state allocates nothing: enqueue, a whole
// round, and a charge, in both modes.
func TestAllocs(t *testing.T) {
	for _, mode := range []Mode{Production, Trace} {
		t.Run(mode.String(), func(t *testing.T) {
			f := newAQLFake(5000, 12000)
			s := mustNew(t, Config{Mode: mode, Airtime: f, Owner: &owner{}, MaxStations: 64})
			for sta := uint16(1); sta <= 32; sta++ {
				if err := s.AddStation(sta); err != nil {
					t.Fatal(err)
				}
			}
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
			for name, fn := range map[string]func(){"enqueue": enqueue, "round": round, "charge": charge} {
				if n := testing.AllocsPerRun(100, fn); n != 0 {
					t.Errorf("%s: %v allocs", name, n)
				}
			}
		})
	}
}
