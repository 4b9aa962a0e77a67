package scan

import (
	"errors"
	"math"
	"testing"
	"time"
)

func plan24() []Channel {
	var cs []Channel
	for ch := 1; ch <= 11; ch++ {
		cs = append(cs, Channel{Freq: 2407 + 5*ch})
	}
	return cs
}

// surveys24 gives every 2.4 GHz channel 1 s active and the busy times
// listed (ms), noise −95 dBm everywhere so the noise terms vanish
// (10^(−19) and 2^0).
func surveys24(busy map[int]int) []Survey {
	var ss []Survey
	for ch := 1; ch <= 11; ch++ {
		ss = append(ss, Survey{Freq: 2407 + 5*ch, Active: time.Second, Busy: time.Duration(busy[ch]) * ms, Noise: -95, HasNoise: true})
	}
	return ss
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// TestACSHandWorked: busy fraction 0.6 on channel 1, 0.24 on 6, 0.3 on 11,
// and a −60 dBm neighbour on 8 (penalty 0.1). Totals, weights 1 + 2×0.85
// + 2×0.55 = 3.8 in the middle and 2.4 at the edges:
//
//	ch1  0.6/2.4 = 0.25, ×0.8 bias = 0.2
//	ch4  0.55×0.24/3.8 = 0.034737 (the winner)
//	ch6  (0.24 + 0.55×0.1)/3.8 = 0.077632, ×0.8 = 0.062105
//	ch8  (0.1 + 0.55×0.24)/3.8 = 0.061053
//	ch11 0.3/2.4 = 0.125 (the neighbour on 8 is 15 MHz away), ×0.8 = 0.1
func TestACSHandWorked(t *testing.T) {
	nb := []BSS{{Freq: 2447, Signal: -60, HasSignal: true}}
	d, err := Select(plan24(), surveys24(map[int]int{1: 600, 6: 240, 11: 300}), nb, ACSConfig{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]float64{1: 0.2, 4: 0.034737, 6: 0.062105, 8: 0.061053, 11: 0.1}
	for _, s := range d.Channels {
		if w, ok := want[s.Channel]; ok && !near(s.Score, w) {
			t.Errorf("channel %d: score %.6f, want %.6f", s.Channel, s.Score, w)
		}
	}
	if d.Channel != 4 || d.Freq != 2427 || d.Method != "survey" || d.Channels[7].Neighbours != 1 {
		t.Fatalf("decision %d (%d MHz) by %s", d.Channel, d.Freq, d.Method)
	}
	// A strong operator bias on 6: 0.077632 × 0.3 = 0.023290 wins.
	d, _ = Select(plan24(), surveys24(map[int]int{1: 600, 6: 240, 11: 300}), nb, ACSConfig{Bias: []Bias{{6, 0.3}}})
	if d.Channel != 6 || !near(d.Score, 0.023290) {
		t.Fatalf("biased decision %d score %.6f", d.Channel, d.Score)
	}
}

// TestACSBSSOnly: no survey data: neighbours decide. 36 has a −50 dBm BSS
// (penalty 0.1), 44 a −90 dBm one (0.025); 40 and 48 are clean, 40 first.
func TestACSBSSOnly(t *testing.T) {
	chans := []Channel{{Freq: 5180}, {Freq: 5200}, {Freq: 5220}, {Freq: 5240}}
	nb := []BSS{{Freq: 5180, Signal: -50, HasSignal: true}, {Freq: 5220, Signal: -90, HasSignal: true}}
	d, err := Select(chans, nil, nb, ACSConfig{})
	if err != nil || d.Method != "bss" || d.Channel != 40 || !near(d.Channels[2].Score, 0.025) || !near(d.Channels[0].Score, 0.1) {
		t.Fatalf("decision %+v, %v", d, err)
	}
}

// TestACSWidth80: busy 0.4 on 40 only. The 36-48 block averages 0.1, the
// 52-64 block 0: 52 is chosen; 40 is no 80 MHz primary. A VHT80 neighbour
// centred on 58 adds 0.1 to 52-64 each: 0.1 too, so 36 wins, the first.
func TestACSWidth80(t *testing.T) {
	var chans []Channel
	var ss []Survey
	for ch := 36; ch <= 64; ch += 4 {
		chans = append(chans, Channel{Freq: 5000 + 5*ch, Passive: ch >= 52})
		b := time.Duration(0)
		if ch == 40 {
			b = 400 * ms
		}
		ss = append(ss, Survey{Freq: 5000 + 5*ch, Active: time.Second, Busy: b})
	}
	d, err := Select(chans, ss, nil, ACSConfig{Width: 80})
	if err != nil || d.Channel != 52 || !near(d.Channels[0].Score, 0.1) || d.Channels[1].Candidate {
		t.Fatalf("decision %d, %v: %+v", d.Channel, err, d.Channels[:2])
	}
	vht := []BSS{{Freq: 5260, Signal: -40, HasSignal: true, VHTOper: true, VHTWidth: 1, VHTSeg0: 58}}
	d, _ = Select(chans, ss, vht, ACSConfig{Width: 80})
	if d.Channel != 36 || d.Channels[7].Neighbours != 1 {
		t.Fatalf("decision with a VHT80 neighbour: %d %+v", d.Channel, d.Channels[7])
	}
	if _, err := Select(chans, ss, nil, ACSConfig{Width: 80, ExcludePassive: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := Select(chans[4:], ss, nil, ACSConfig{Width: 80, ExcludePassive: true}); !errors.Is(err, ErrNoChannel) {
		t.Fatalf("no candidate: %v", err)
	}
}

// TestACSNoise checks hostapd's factor with a noise floor: nf −90 against
// a minimum of −100, busy 0.5: 10^(−18) + 0.5 × 2^(10^−9 − 10^−10) ≈ 0.5.
// The factor favours quiet channels only through busy time at realistic
// floors, as in hostapd.
func TestACSNoise(t *testing.T) {
	chans := []Channel{{Freq: 5180}, {Freq: 5200}}
	ss := []Survey{
		{Freq: 5180, Active: time.Second, Busy: 500 * ms, Noise: -90, HasNoise: true},
		{Freq: 5200, Active: time.Second, Busy: 300 * ms, Tx: 100 * ms, Noise: -100, HasNoise: true},
	}
	d, _ := Select(chans, ss, nil, ACSConfig{})
	if !near(d.Channels[0].Interference, 0.5) || !near(d.Channels[1].Busy, 2.0/9) || d.Channel != 40 {
		t.Fatalf("%+v", d.Channels)
	}
}
