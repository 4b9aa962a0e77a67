package txq

import "testing"

// TestGroupShares: with GroupShares, a group holding more than its share of
// the pending airtime by its stations' weights is passed over while another
// group competes, whichever comes first in the walk; InShare stops its
// station's frames at the share and one frame past it; with one group
// competing nothing is held; without GroupShares the walk's order decides.
func TestGroupShares(t *testing.T) {
	for _, mode := range []Mode{Production, Trace} {
		f := newAQLFake(50000, 100000) // AQL holds nobody back here
		s := mustNew(t, Config{Mode: mode, Airtime: f, Owner: &owner{}, MaxStations: 4, GroupShares: true})
		f.sched = s
		for sta := uint16(1); sta <= 3; sta++ {
			s.AddStation(sta)
		}
		s.SetGroup(3, 1)
		s.SetWeight(3, 512) // group 1 weighs 512 against group 0's 2 x 256: half
		h := Handle(0)
		for sta := uint16(1); sta <= 3; sta++ {
			for range 8 {
				h++
				s.Enqueue(sta, 0, Item{Handle: h, Len: 1000, Hash: uint32(sta)}, 0)
			}
		}
		f.add(1, be, 3000) // group 0: 3000 µs in flight, group 1: 1000
		f.add(3, be, 1000)
		s.StartRound(be, 0)
		q, ok := s.Next(be, 0)
		if !ok || q.Station() != 3 {
			t.Fatalf("%v: Next served %v, want station 3 (group 1, under its half)", mode, qname(q))
		}
		// Station 3 may send while group 1's pending airtime is within
		// its half of the pending airtime plus the frame it sent last.
		sent := 0
		for s.InShare(q) {
			if _, ok := s.Dequeue(q, 0); !ok {
				t.Fatalf("%v: queue ran dry", mode)
			}
			f.add(3, be, 1000)
			sent++
		}
		if sent != 5 { // up to 5000 <= (3000+5000)/2 + 1000
			t.Fatalf("%v: station 3 sent %d frames within its share, want 5", mode, sent)
		}
		s.Return(q, false, 0)
		q, ok = s.Next(be, 0)
		if !ok || q.Station() == 3 {
			t.Fatalf("%v: Next served %v, want a station of group 0", mode, qname(q))
		}
		s.Return(q, false, 0)
		s.EndRound(be)
		// Group 0 leaves: group 1 alone is never held.
		s.RemoveStation(1)
		s.RemoveStation(2)
		f.sub(1, be, 3000)
		s.StartRound(be, 0)
		if q, ok = s.Next(be, 0); !ok || q.Station() != 3 || !s.InShare(q) {
			t.Fatalf("%v: alone, group 1 got %v", mode, qname(q))
		}
	}
}
