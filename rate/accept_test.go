package rate_test

import (
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/internal/readmetest"
	"github.com/airq/airq/radio"
)

var long = flag.Bool("rates.long", false, "run the full rate study (longer runs, more seeds)")

// Acceptance bounds, stated here and asserted below.
const (
	// steady state, airq's throughput over the oracle's (the best single
	// rate's expected throughput, retries included, under the same
	// airtime model), on every scenario and seed
	minOracleRatio = 0.90
	// data frames to settle after a step change of the channel (up to
	// 30 dB either way): the start of 500 frames at rates worth 90% of
	// the oracle's
	maxSettle = 1500
	maxShare  = 0.10 // sampling share, hard
)

// links returns the scenarios: four kinds of station, each on constant
// channels of several qualities, on a slowly drifting channel, and on a
// channel with step changes.
func links(scale time.Duration) []link {
	kinds := []link{
		{name: "legacy-g", band2GHz: true, width: radio.BW20, sta: capsLegacyG},
		{name: "ht1-20", band2GHz: true, width: radio.BW20, sta: capsHT1},
		{name: "ht2-40", width: radio.BW40, sta: capsHT2x40},
		{name: "vht2-80", width: radio.BW80, sta: capsVHT2},
	}
	var out []link
	for _, k := range kinds {
		for _, db := range []float64{6, 14, 22, 30, 40} {
			l := k
			l.name, l.snr = fmt.Sprintf("%s/const%.0fdB", k.name, db), constSNR(db)
			l.duration, l.warmup = 3*scale, scale/2
			out = append(out, l)
		}
		l := k
		l.name, l.snr = k.name+"/drift", driftSNR(5, 40, 10*scale)
		l.duration, l.warmup = 10*scale, scale/2
		out = append(out, l)
		l = k
		steps := []time.Duration{2 * scale, 4 * scale, 6 * scale, 8 * scale}
		l.name, l.snr, l.steps = k.name+"/steps", stepSNR([]float64{40, 12, 35, 5, 28}, steps), steps
		l.duration, l.warmup = 10*scale, 10*scale // not a steady state: settle only
		out = append(out, l)
	}
	return out
}

type summary struct {
	minRatio  float64
	minName   string
	maxSettle int
	setName   string
	maxShare  float64
	lines     []string
}

func study(errorf func(string, ...any), scale time.Duration, seeds int) summary {
	s := summary{minRatio: 10}
	for _, l := range links(scale) {
		for seed := uint64(1); seed <= uint64(seeds); seed++ {
			r := run(l, seed)
			for _, v := range r.violations {
				errorf("%s seed %d: %s", l.name, seed, v)
				break
			}
			s.maxShare = max(s.maxShare, r.maxShare)
			line := fmt.Sprintf("%-22s seed %d frames %6d samples %5.2f%%", l.name, seed, r.frames,
				100*float64(r.samples)/float64(r.frames))
			if len(l.steps) == 0 {
				line += fmt.Sprintf(" airq %6.1f oracle %6.1f Mbit/s ratio %.3f", r.delivered, r.oracleMbits, r.ratio)
				if r.ratio < s.minRatio {
					s.minRatio, s.minName = r.ratio, l.name
				}
			} else {
				line += fmt.Sprintf(" settle %v", r.settle)
				for _, n := range r.settle {
					if n > s.maxSettle {
						s.maxSettle, s.setName = n, l.name
					}
				}
			}
			s.lines = append(s.lines, line)
		}
	}
	return s
}

// TestRatesStudy runs every scenario and prints the RESULT line. With
// -rates.long it runs five seeds of each instead of one.
func TestRatesStudy(t *testing.T) {
	if raceEnabled && !*long {
		t.Skip("single-goroutine arithmetic, slow under -race; make norace runs it without it")
	}
	scale, seeds := time.Second, 1
	if *long {
		seeds = 5
	}
	s := study(t.Errorf, scale, seeds)
	if testing.Verbose() || *long {
		t.Log("\n" + strings.Join(s.lines, "\n"))
	}
	s.check(t.Errorf)
	fmt.Printf("RESULT oracle_ratio=%.3f settle_frames=%d sample_share=%.3f\n", s.minRatio, s.maxSettle, s.maxShare)
	if *long { // make bench-rates's figures, which the README quotes
		readmetest.Check(t, `reaches (\d+)% and it settles within (\d+) frames`, fmt.Sprintf("%.0f", 100*s.minRatio), fmt.Sprint(s.maxSettle))
		readmetest.Check(t, `bench-rates.: .oracle_ratio=([\d.]+) settle_frames=(\d+).`, fmt.Sprintf("%.3f", s.minRatio), fmt.Sprint(s.maxSettle))
	}
}

// check asserts the acceptance bounds.
func (s summary) check(errorf func(string, ...any)) {
	if s.minRatio < minOracleRatio {
		errorf("oracle ratio %.3f on %s, want >= %.2f", s.minRatio, s.minName, minOracleRatio)
	}
	if s.maxSettle > maxSettle {
		errorf("settled after %d frames on %s, want <= %d", s.maxSettle, s.setName, maxSettle)
	}
	if s.maxShare > maxShare {
		errorf("sampling share %.3f, want <= %.2f", s.maxShare, maxShare)
	}
}
