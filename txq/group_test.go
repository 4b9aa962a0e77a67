package txq

import (
	"testing"
	"time"
)

// groupStation puts station sta in one of spread groups (none for 1).
func groupStation(t *testing.T, s *Scheduler, sta uint16, spread int) {
	if spread <= 1 {
		return
	}
	if err := s.SetGroup(sta, uint8(int(sta)%spread)); err != nil {
		t.Fatal(err)
	}
}

// TestCapBucket: a capped group's credit refills at its share of elapsed
// time up to the burst (at least MinCapBurst), whatever the steps it is
// asked at, goes negative with a charge, and CapDeadline says when it is
// back at zero.
func TestCapBucket(t *testing.T) {
	s := mustNew(t, Config{Airtime: openAirtime{}, Owner: &owner{}, MaxStations: 4})
	s.AddStation(1)
	if err := s.SetGroup(1, 3); err != nil {
		t.Fatal(err)
	}
	if err := s.SetCap(3, 250, 12*ms, 0); err != nil {
		t.Fatal(err)
	}
	if pm, c := s.Cap(3, 0); pm != 250 || c != 12000 {
		t.Fatalf("fresh cap: %d‰ credit %d µs, want 250‰ 12000 µs", pm, c)
	}
	s.Enqueue(1, 0, Item{Handle: 1, Len: 1000}, 0)
	s.Charge(1, be, 13000, 0) // 1000 µs over
	if _, c := s.Cap(3, 0); c != -1000 {
		t.Fatalf("credit after 13000 µs: %d", c)
	}
	at, ok := s.CapDeadline(0)
	if !ok || at != 4*ms {
		t.Fatalf("deadline %v %v, want 4ms: 1000 µs of airtime at 25%%", at, ok)
	}
	s.StartRound(be, time.Millisecond)
	if q, ok := s.Next(be, time.Millisecond); ok {
		t.Fatalf("served %v over budget", qname(q))
	}
	s.EndRound(be)
	for step := time.Microsecond; step < 4*ms; step += 7 * time.Microsecond {
		s.Cap(3, step) // refilled in many small steps
	}
	if _, ok := s.CapDeadline(4 * ms); ok {
		t.Fatal("still over budget at the deadline")
	}
	s.StartRound(be, 4*ms)
	if q, ok := s.Next(be, 4*ms); !ok || q.Station() != 1 {
		t.Fatal("not served back within budget")
	}
	if _, c := s.Cap(3, time.Hour); c != 12000 {
		t.Fatalf("credit after an hour: %d µs, want the 12000 µs burst", c)
	}
	s.SetCap(2, 100, 2*ms, 0)
	if _, c := s.Cap(2, 0); c != MinCapBurst.Microseconds() {
		t.Fatalf("a 2 ms burst: credit %d µs, want MinCapBurst", c)
	}
	if err := s.SetCap(3, 0, 0, 0); err == nil {
		t.Fatal("cap of 0 accepted")
	}
	if err := s.SetGroup(1, MaxGroups); err == nil {
		t.Fatal("group out of range accepted")
	}
}

// TestGroupMovesKeepState: moving a station between groups, capped or not,
// and setting or lifting a cap keep its deficits and weight.
func TestGroupMovesKeepState(t *testing.T) {
	for _, mode := range []Mode{Production, Trace} {
		s := mustNew(t, Config{Mode: mode, Airtime: openAirtime{}, Owner: &owner{}, MaxStations: 4})
		s.AddStation(1)
		s.SetWeight(1, 300)
		s.Enqueue(1, 0, Item{Handle: 1, Len: 1000}, 0)
		s.Charge(1, be, 5000, 0)
		want := s.Deficit(1, be)
		s.SetCap(2, 100, 0, 0)
		for _, g := range []uint8{1, 2, 0, 2} {
			s.SetGroup(1, g)
			if d := s.Deficit(1, be); d != want || s.Weight(1) != 300 || s.Group(1) != g {
				t.Fatalf("%v: into group %d: deficit %d weight %d, want %d 300", mode, g, d, s.Weight(1), want)
			}
		}
		s.ClearCap(2)
		if d := s.Deficit(1, be); d != want {
			t.Fatalf("%v: cap lifted: deficit %d, want %d", mode, d, want)
		}
	}
}
