package policy_test

import (
	"testing"
	"time"

	"github.com/airq/airq/txq/policy"
)

// fakeScheduler holds backlogs and records weights.
type fakeScheduler struct {
	bytes  map[uint16]int
	weight map[uint16]uint16
	sets   int
}

func newFake() *fakeScheduler {
	return &fakeScheduler{bytes: map[uint16]int{}, weight: map[uint16]uint16{}}
}

func (f *fakeScheduler) StationBacklog(sta uint16) (int, int) {
	return f.bytes[sta] / 1500, f.bytes[sta]
}
func (f *fakeScheduler) SetWeight(sta uint16, w uint16) { f.weight[sta] = w; f.sets++ }

// TestDynamicWeights: the weights hostapd's update_airtime_weights gives
// (the same, or in the same ratios where its integer steps differ) for
// BSSes of 1:1 weight with counts of backlogged stations a and b.
func TestDynamicWeights(t *testing.T) {
	for _, c := range []struct {
		a, b   int
		wa, wb uint16
	}{
		{3, 1, 256, 768},   // hostapd: 256, 768
		{1, 1, 256, 256},   // hostapd: 256, 256
		{2, 3, 384, 256},   // hostapd: 768, 512
		{10, 1, 102, 1024}, // hostapd: 102, 1020
		{200, 1, 8, 1600},  // hostapd: 8, 1600
		{3, 0, 256, 256},   // one BSS backlogged: default weights
	} {
		f := newFake()
		p, err := policy.New(policy.Config{Mode: policy.Dynamic, MaxStations: 400})
		if err != nil {
			t.Fatal(err)
		}
		p.SetBSS(0, policy.BSS{Weight: 1}, f)
		p.SetBSS(1, policy.BSS{Weight: 1}, f)
		sta := uint16(1)
		for i := range c.a {
			p.AddStation(sta, 0, 0, f)
			f.bytes[sta] = 1500 * (i + 1)
			sta++
		}
		first := sta
		for range max(c.b, 1) {
			p.AddStation(sta, 1, 0, f)
			if c.b > 0 {
				f.bytes[sta] = 1500
			}
			sta++
		}
		next, ok := p.Update(time.Second, f)
		if !ok || next != time.Second+policy.DefaultInterval {
			t.Fatalf("next update %v %v", next, ok)
		}
		if p.Weight(1) != c.wa || p.Weight(first) != c.wb {
			t.Errorf("%d and %d backlogged: weights %d and %d, want %d and %d", c.a, c.b, p.Weight(1), p.Weight(first), c.wa, c.wb)
		}
	}
}

// TestBacklogExpiry: a station counts as backlogged for 2.5 intervals
// after it was last seen with frames queued, so the weights do not flap
// with a queue that empties between two polls.
func TestBacklogExpiry(t *testing.T) {
	f := newFake()
	p, _ := policy.New(policy.Config{Mode: policy.Dynamic, MaxStations: 8})
	p.SetBSS(0, policy.BSS{Weight: 1}, f)
	p.SetBSS(1, policy.BSS{Weight: 1}, f)
	for sta := uint16(1); sta <= 4; sta++ {
		p.AddStation(sta, uint8(sta/4), 0, f)
		f.bytes[sta] = 1500
	}
	now, _ := p.Update(0, f)
	f.bytes[2], f.bytes[3] = 0, 0
	for now < 500*time.Millisecond {
		now, _ = p.Update(now, f)
		if p.Backlogged(0) != 3 {
			t.Fatalf("%v: %d backlogged, want 3 until 2.5 intervals pass", now, p.Backlogged(0))
		}
	}
	p.Update(now, f)
	if p.Backlogged(0) != 1 || p.Weight(1) != 256 || p.Weight(4) != 256 {
		t.Fatalf("after 2.5 intervals: %d backlogged, weights %d %d", p.Backlogged(0), p.Weight(1), p.Weight(4))
	}
	sets := f.sets
	p.Update(now+policy.DefaultInterval, f)
	if f.sets != sets {
		t.Fatalf("%d weights set again unchanged", f.sets-sets)
	}
}

// TestStaticWeights: airtime_sta_weight, else airtime_bss_weight, else the
// default; a BSS's weight changed live moves its stations' at once, and
// Update has nothing to do.
func TestStaticWeights(t *testing.T) {
	f := newFake()
	p, _ := policy.New(policy.Config{Mode: policy.Static, MaxStations: 8})
	p.SetBSS(1, policy.BSS{Weight: 100}, f)
	p.AddStation(1, 0, 0, f)
	p.AddStation(2, 1, 0, f)
	p.AddStation(3, 1, 700, f)
	if p.Weight(1) != 256 || f.weight[2] != 100 || f.weight[3] != 700 {
		t.Fatalf("weights %d %d %d", p.Weight(1), f.weight[2], f.weight[3])
	}
	p.SetBSS(1, policy.BSS{Weight: 50}, f)
	if f.weight[2] != 50 || f.weight[3] != 700 {
		t.Fatalf("after the BSS's change: %d %d", f.weight[2], f.weight[3])
	}
	if _, ok := p.Update(0, f); ok {
		t.Fatal("static mode asks for updates")
	}
	if _, err := policy.New(policy.Config{Mode: 4, MaxStations: 8}); err == nil {
		t.Fatal("airtime_mode=4 accepted")
	}
}

// TestUpdateAllocs: a periodic update allocates nothing.
func TestUpdateAllocs(t *testing.T) {
	m := threeAndOneModel(t, policy.Dynamic, policy.BSS{Weight: 1}, policy.BSS{Weight: 3})
	m.run(time.Second)
	if n := testing.AllocsPerRun(100, func() { m.pol.Update(m.now, m.s) }); n != 0 {
		t.Errorf("Update: %v allocs", n)
	}
}

// TestNewPolicyResets: a mode changed on reload is a new policy; adding
// the stations to it gives them its weights, so nothing of the old
// policy's scaling stays behind.
func TestNewPolicyResets(t *testing.T) {
	m := threeAndOneModel(t, policy.Dynamic, policy.BSS{Weight: 1}, policy.BSS{Weight: 1})
	m.run(time.Second)
	if m.s.Weight(4) == policy.DefaultWeight {
		t.Fatal("dynamic mode left station 4 at the default weight")
	}
	var err error
	if m.pol, err = policy.New(policy.Config{Mode: policy.Off, MaxStations: 4}); err != nil {
		t.Fatal(err)
	}
	m.join()
	for sta := uint16(1); sta <= 4; sta++ {
		if w := m.s.Weight(sta); w != policy.DefaultWeight {
			t.Errorf("station %d: weight %d after the new policy, want the default", sta, w)
		}
	}
}
