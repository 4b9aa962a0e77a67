package txq

import "testing"

// TestGroupShares: with GroupShares, a group holding more than its share of
// the pending airtime by its stations' weights is passed over while another
// group competes, whichever comes first in the walk; InShare stops its
// station's frames at the station's share, which for a group's lone
// station is the group's; with one group competing nothing is held.
func TestGroupShares(t *testing.T) {
	for _, mode := range []Mode{Production, Trace} {
		s, f := twoGroups(t, mode)
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
		// Station 3 may send while its pending airtime is within its
		// half of the pending airtime.
		sent := 0
		for s.InShare(q) {
			if _, ok := s.Dequeue(q, 0); !ok {
				t.Fatalf("%v: queue ran dry", mode)
			}
			f.add(3, be, 1000)
			sent++
		}
		if sent != 3 { // while at most (3000+3000)/2 before a frame
			t.Fatalf("%v: station 3 sent %d frames within its share, want 3", mode, sent)
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

// TestStationShares: with GroupShares, InShare holds each station to its
// own share of the pending airtime by its weight, not only its group to
// the group's: of two stations of a group within its share, one holding
// the group's whole share may send no more; holding its own, it may.
func TestStationShares(t *testing.T) {
	for _, mode := range []Mode{Production, Trace} {
		for _, c := range []struct {
			mine, other int32 // station 1's and station 2's pending µs
			want        bool
		}{{2000, 0, false}, {1000, 1000, true}} {
			s, f := twoGroups(t, mode)
			for sta := uint16(3); sta >= 1; sta-- { // a queue listed joins at the head: station 1's first
				for k := range 4 {
					s.Enqueue(sta, 0, Item{Handle: Handle(int(sta)*4 + k), Len: 1000, Hash: uint32(sta)}, 0)
				}
			}
			s.StartRound(be, 0)
			q, ok := s.Next(be, 0)
			if !ok || q.Station() != 1 {
				t.Fatalf("%v: Next served %v, want station 1", mode, qname(q))
			}
			// Group 0 at its half of 4000, station 1's share a quarter.
			f.add(1, be, c.mine)
			f.add(2, be, c.other)
			f.add(3, be, 2000)
			if got := s.InShare(q); got != c.want {
				t.Errorf("%v: station 1 holding %d µs of its group's 2000: InShare %v, want %v", mode, c.mine, got, c.want)
			}
		}
	}
}

// twoGroups is a scheduler with group shares of stations 1-3: 1 and 2 in
// group 0, 3 alone in group 1 weighing 512 against group 0's 2 x 256
// (half), AQL holding nobody back.
func twoGroups(t *testing.T, mode Mode) (*Scheduler, *aqlFake) {
	f := newAQLFake(50000, 100000)
	s := mustNew(t, Config{Mode: mode, Airtime: f, Owner: &owner{}, MaxStations: 4, GroupShares: true})
	f.sched = s
	for sta := uint16(1); sta <= 3; sta++ {
		s.AddStation(sta)
	}
	s.SetGroup(3, 1)
	s.SetWeight(3, 512)
	return s, f
}
