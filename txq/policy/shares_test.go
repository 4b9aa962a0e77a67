package policy_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/airq/airq/txq"
	"github.com/airq/airq/txq/policy"
)

// Two busy BSSes, 0 with three stations and 1 with one, frames of
// different airtimes.
var (
	threeAndOne    = []uint8{0, 0, 0, 1}
	threeAndOneEst = []int32{1000, 1500, 2000, 1200}
)

const window = 20 * time.Second

// threeAndOneModel is the model of threeAndOne with the BSSes' keys given,
// its stations joined without weights of their own.
func threeAndOneModel(t *testing.T, mode policy.Mode, b0, b1 policy.BSS) *model {
	m := newModel(t, mode, threeAndOne, threeAndOneEst)
	m.pol.SetBSS(0, b0, m.s)
	m.pol.SetBSS(1, b1, m.s)
	m.join()
	return m
}

// TestStaticModeShares: airtime_mode=1, both BSSes weighing 256 and station
// 2 its own airtime_sta_weight of 512: each station's share of the air
// follows its weight (256:512:256 | 256), whatever its frames' airtime.
func TestStaticModeShares(t *testing.T) {
	m := newModel(t, policy.Static, threeAndOne, threeAndOneEst)
	m.pol.SetBSS(0, policy.BSS{Weight: 256}, m.s)
	m.pol.SetBSS(1, policy.BSS{Weight: 256}, m.s)
	m.join(0, 512)
	m.run(window)
	sta, bss := m.shares(nil)
	for i, want := range []float64{0.2, 0.4, 0.2, 0.2} {
		if !near(sta[i+1], want, 0.02) {
			t.Errorf("station %d: share %.3f, want %.2f (weight %d)", i+1, sta[i+1], want, m.s.Weight(uint16(i+1)))
		}
	}
	t.Logf("stations %.3f, BSSes %.3f/%.3f", sta[1:], bss[0], bss[1])
}

// TestDynamicModeShares: airtime_mode=2 with BSS weights 1:1 and the same
// load: each BSS gets half the air although one has three times the
// stations (default weights would give it three quarters).
func TestDynamicModeShares(t *testing.T) {
	m := threeAndOneModel(t, policy.Dynamic, policy.BSS{Weight: 1}, policy.BSS{Weight: 1})
	m.run(window)
	_, bss := m.shares(nil)
	if !near(bss[0], 0.5, 0.05) || !near(bss[1], 0.5, 0.05) {
		t.Errorf("BSS shares %.3f/%.3f, want 0.5/0.5 within 5 %%", bss[0], bss[1])
	}
	if m.pol.Backlogged(0) != 3 || m.pol.Backlogged(1) != 1 {
		t.Errorf("backlogged %d/%d, want 3/1", m.pol.Backlogged(0), m.pol.Backlogged(1))
	}
	t.Logf("BSSes %.3f/%.3f, weights %d %d", bss[0], bss[1], m.pol.Weight(1), m.pol.Weight(4))
}

// TestDynamicModeWeights: BSS weights 1:2 with 3 and 1 stations: shares
// 1/3 and 2/3.
func TestDynamicModeWeights(t *testing.T) {
	m := threeAndOneModel(t, policy.Dynamic, policy.BSS{Weight: 1}, policy.BSS{Weight: 2})
	m.run(window)
	if _, bss := m.shares(nil); !near(bss[0], 1.0/3, 0.05) {
		t.Errorf("BSS shares %.3f/%.3f, want 1/3 and 2/3", bss[0], bss[1])
	}
}

// TestLimitMode: airtime_mode=3, weights 1:1. The limited BSS holding
// more stations is held to its half; holding fewer, nothing is scaled and
// the unlimited BSS with more stations may take more than half, as in
// hostapd.
func TestLimitMode(t *testing.T) {
	for _, limited := range []uint8{0, 1} {
		t.Run(fmt.Sprintf("limited=%d", limited), func(t *testing.T) {
			m := threeAndOneModel(t, policy.Limit, policy.BSS{Weight: 1, Limit: limited == 0}, policy.BSS{Weight: 1, Limit: limited == 1})
			m.run(window)
			_, bss := m.shares(nil)
			switch {
			case limited == 0 && bss[0] > 0.5+0.05:
				t.Errorf("limited BSS with 3 stations: share %.3f, above its half", bss[0])
			case limited == 1 && !near(bss[0], 0.75, 0.05):
				t.Errorf("unlimited BSS with 3 stations: share %.3f, want 0.75 (default weights)", bss[0])
			}
			t.Logf("BSSes %.3f/%.3f", bss[0], bss[1])
		})
	}
}

// TestHardCap: BSS 1 capped at 20 % stays there with BSS 0 idle (the air
// free otherwise) and with BSS 0 busy, which then gets the rest. Without
// the cap it would get all, or half.
func TestHardCap(t *testing.T) {
	for _, otherBusy := range []bool{false, true} {
		t.Run(fmt.Sprintf("other-busy=%v", otherBusy), func(t *testing.T) {
			m := newModel(t, policy.Off, []uint8{0, 1, 1}, []int32{1500, 1000, 2500})
			m.busy[1] = otherBusy
			if err := m.s.SetCap(1, 200, 0, 0); err != nil {
				t.Fatal(err)
			}
			m.run(window)
			capped := float64(m.bssAirtime(1)) / float64(m.now/time.Microsecond)
			// The burst and one frame in flight each way are the slack.
			if capped > 0.2+float64(txq.DefaultCapBurst+5*time.Millisecond)/float64(window) || capped < 0.19 {
				t.Errorf("capped BSS used %.4f of the time, want 0.2", capped)
			}
			other := float64(m.bssAirtime(0)) / float64(m.now/time.Microsecond)
			if otherBusy && other < 0.79 {
				t.Errorf("the other BSS used %.4f of the time, want the remaining 0.8", other)
			}
			t.Logf("capped %.4f, other %.4f of %v", capped, other, m.now)
		})
	}
}

// TestLiveChanges: in static mode, BSS 1's weight raised from 256 to 512
// mid-run changes no station's deficit at that moment, and from then on
// the shares follow the new weights (0.2 each for BSS 0's three, 0.4 for
// BSS 1's one). In dynamic mode, two of BSS 0's stations going idle
// leaves the BSSes at half each.
func TestLiveChanges(t *testing.T) {
	m := threeAndOneModel(t, policy.Static, policy.BSS{Weight: 256}, policy.BSS{Weight: 256})
	m.run(window / 2)
	var before [5]int64
	for sta := uint16(1); sta <= 4; sta++ {
		before[sta] = m.s.Deficit(sta, be)
	}
	m.pol.SetBSS(1, policy.BSS{Weight: 512}, m.s)
	for sta := uint16(1); sta <= 4; sta++ {
		if d := m.s.Deficit(sta, be); d != before[sta] {
			t.Fatalf("station %d: deficit %d after the change, %d before", sta, d, before[sta])
		}
	}
	from := m.snapshot()
	m.run(window)
	sta, _ := m.shares(from)
	for i, want := range []float64{0.2, 0.2, 0.2, 0.4} {
		if !near(sta[i+1], want, 0.02) {
			t.Errorf("station %d: share %.3f after the change, want %.2f", i+1, sta[i+1], want)
		}
	}

	m = threeAndOneModel(t, policy.Dynamic, policy.BSS{Weight: 1}, policy.BSS{Weight: 1})
	m.run(window / 2)
	m.busy[2], m.busy[3] = false, false
	m.run(time.Second) // their queues drain and their backlog expires
	from = m.snapshot()
	m.run(window / 2)
	if _, bss := m.shares(from); !near(bss[0], 0.5, 0.05) {
		t.Errorf("one station left busy in each BSS: shares %.3f/%.3f", bss[0], bss[1])
	}
	if m.pol.Backlogged(0) != 1 {
		t.Errorf("%d of BSS 0 backlogged, want 1", m.pol.Backlogged(0))
	}
}

// TestCapWithDynamicMode: the cap holds below what the BSS weights would
// give: 1:1 weights and BSS 1 capped at 30 % leave BSS 0 the other 70 %.
func TestCapWithDynamicMode(t *testing.T) {
	m := threeAndOneModel(t, policy.Dynamic, policy.BSS{Weight: 1}, policy.BSS{Weight: 1})
	if err := m.s.SetCap(1, 300, 0, 0); err != nil {
		t.Fatal(err)
	}
	m.run(window)
	if _, bss := m.shares(nil); !near(bss[1], 0.3, 0.01) || !near(bss[0], 0.7, 0.01) {
		t.Errorf("BSS shares %.3f/%.3f, want 0.7/0.3", bss[0], bss[1])
	}
}
