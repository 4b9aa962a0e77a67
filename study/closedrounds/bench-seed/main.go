// Command bench-seed reproduces seed 000's measurements in the kernel model
// (package study/closedrounds/kernelmodel): both scheduler arms, three
// seeds, wired and TSQ-paced downloads, with the seed's AQL limits and with
// mac80211's defaults. It prints the seed's numbers beside the model's and
// ends with a RESULT line (the pre-registered model's). With -variants (the
// default) it then runs the mechanisms tested after that result was known,
// prints them after the primary tables and adds a RESULT_VARIANT line after
// RESULT; with -sweep (the default) it also sweeps the TX completion's lag
// against the TSQ wake-up rule and prints that table before the RESULT
// lines. The numbers describe mac80211's scheduler in a model, not airq's
// own radio path, which neither aggregates nor carries TSQ traffic.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/airq/airq/radio"
	"github.com/airq/airq/study/closedrounds/kernelmodel"
)

var seeds = []uint64{1, 2, 3}

// The seed's measurements (patch 000), per run.
var (
	seedWiredSkipped = [2][3]float64{{4227, 4195, 4268}, {15, 24, 41}}
	seedWiredMbps    = "99-100 either way"
	seedTSQMbps      = [2][3]float64{{35.6, 44.4, 42.8}, {94.7, 94.6, 95.0}}
)

type key struct {
	low     uint32
	traffic kernelmodel.Traffic
	arm     kernelmodel.Arm
	seed    int
}

func main() {
	dur := flag.Duration("duration", kernelmodel.DefaultDuration, "simulated time per run")
	calibrate := flag.Bool("calibrate", false, "print the link calibration table (fixed arm, paced download, seed limits) and exit")
	withVariants := flag.Bool("variants", true, "also run the post-hoc variants (printed after the primary tables; the RESULT line stays the primary's)")
	withSweep := flag.Bool("sweep", true, "also run the post-hoc sweep of TX completion lag x TSQ wake-up rule (printed after the variants)")
	flag.Parse()
	if *calibrate {
		calibration(os.Stdout, *dur)
		return
	}
	res := runAll(*dur)
	var vres map[vkey]kernelmodel.Result
	if *withVariants {
		vres = runVariants(*dur)
	}
	var sres map[skey]kernelmodel.Result
	if *withSweep {
		sres = runSweep(*dur)
	}
	report(os.Stdout, res, *dur)
	if vres != nil {
		reportVariants(os.Stdout, vres, *dur)
	}
	if sres != nil {
		reportSweep(os.Stdout, sres, *dur)
	}
	fmt.Println()
	fmt.Println(resultLine(res, *dur))
	if vres != nil {
		fmt.Println(resultVariantLine(vres, *dur))
	}
}

// runAll runs every configuration on all cores; each run is deterministic,
// so the parallelism changes only the wall time.
func runAll(dur time.Duration) map[key]kernelmodel.Result {
	var keys []key
	for _, low := range []uint32{kernelmodel.SeedLow, kernelmodel.DefaultLow} {
		for _, tr := range []kernelmodel.Traffic{kernelmodel.Wired, kernelmodel.TSQ} {
			for _, arm := range []kernelmodel.Arm{kernelmodel.Legacy, kernelmodel.Fixed} {
				for i := range seeds {
					keys = append(keys, key{low, tr, arm, i})
				}
			}
		}
	}
	return runKeyed(keys, func(k key) kernelmodel.Config { return config(k, dur) })
}

// runKeyed runs the configuration of every key on all cores and returns
// the results by key.
func runKeyed[K comparable](keys []K, config func(K) kernelmodel.Config) map[K]kernelmodel.Result {
	out := make([]kernelmodel.Result, len(keys))
	work := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range work {
				out[i] = kernelmodel.Run(config(keys[i]))
			}
		})
	}
	for i := range keys {
		work <- i
	}
	close(work)
	wg.Wait()
	m := make(map[K]kernelmodel.Result, len(keys))
	for i, k := range keys {
		m[k] = out[i]
	}
	return m
}

func config(k key, dur time.Duration) kernelmodel.Config {
	c := kernelmodel.Config{Arm: k.arm, Traffic: k.traffic, Seed: seeds[k.seed], Duration: dur}
	if k.low == kernelmodel.DefaultLow {
		c.LimitLow, c.LimitHigh = kernelmodel.DefaultLow, kernelmodel.DefaultHigh
	}
	return c
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// per collects one field over the seeds of a configuration.
func per(res map[key]kernelmodel.Result, low uint32, tr kernelmodel.Traffic, arm kernelmodel.Arm, f func(kernelmodel.Result) float64) []float64 {
	xs := make([]float64, len(seeds))
	for i := range seeds {
		xs[i] = f(res[key{low, tr, arm, i}])
	}
	return xs
}

func row(w io.Writer, label string, xs []float64, format string) {
	fmt.Fprintf(w, "  %-30s", label)
	for _, x := range xs {
		fmt.Fprintf(w, " %10s", fmt.Sprintf(format, x))
	}
	fmt.Fprintf(w, " %10s\n", fmt.Sprintf(format, mean(xs)))
}

func report(w io.Writer, res map[key]kernelmodel.Result, dur time.Duration) {
	r := kernelmodel.DefaultRate
	fmt.Fprintf(w, "closed-round study: kernel model, 1x1 VHT80 MCS%d %s, one station, %v simulated per run, seeds %v\n",
		r.MCS, gi(r), dur, seeds)
	fmt.Fprintln(w, "(mac80211's scheduler in a model with A-MPDU and TSQ; not airq's throughput)")
	seedRows := dur == kernelmodel.DefaultDuration
	for _, low := range []uint32{kernelmodel.SeedLow, kernelmodel.DefaultLow} {
		high := uint32(kernelmodel.SeedHigh)
		if low == kernelmodel.DefaultLow {
			high = kernelmodel.DefaultHigh
		}
		fmt.Fprintf(w, "\n== BE aql_txq_limit %d/%d us ==\n", low, high)
		fmt.Fprintf(w, "  %-30s %10s %10s %10s %10s\n", "", "run 1", "run 2", "run 3", "mean")
		for _, tr := range []kernelmodel.Traffic{kernelmodel.Wired, kernelmodel.TSQ} {
			fmt.Fprintf(w, " %s download\n", map[kernelmodel.Traffic]string{kernelmodel.Wired: "wired-forwarded", kernelmodel.TSQ: "AP-generated (TSQ)"}[tr])
			for ai, arm := range []kernelmodel.Arm{kernelmodel.Legacy, kernelmodel.Fixed} {
				if seedRows && low == kernelmodel.SeedLow {
					if tr == kernelmodel.Wired {
						row(w, "seed "+arm.String()+" skipped", seedWiredSkipped[ai][:], "%.0f")
						fmt.Fprintf(w, "  %-30s %s\n", "seed "+arm.String()+" Mbit/s", seedWiredMbps)
					} else {
						row(w, "seed "+arm.String()+" Mbit/s", seedTSQMbps[ai][:], "%.1f")
					}
				}
				f := func(g func(kernelmodel.Result) float64) []float64 { return per(res, low, tr, arm, g) }
				row(w, "model "+arm.String()+" skipped", f(func(r kernelmodel.Result) float64 { return float64(r.Skipped) }), "%.0f")
				row(w, "model "+arm.String()+" skipped (stale)", f(func(r kernelmodel.Result) float64 { return float64(r.SkippedStale) }), "%.0f")
				row(w, "model "+arm.String()+" Mbit/s", f(func(r kernelmodel.Result) float64 { return r.Mbps }), "%.1f")
				row(w, "model "+arm.String()+" rounds opened", f(func(r kernelmodel.Result) float64 { return float64(r.RoundsOpened) }), "%.0f")
				row(w, "model "+arm.String()+" rounds closed", f(func(r kernelmodel.Result) float64 { return float64(r.RoundsClosed) }), "%.0f")
				row(w, "model "+arm.String()+" subframes/A-MPDU", f(func(r kernelmodel.Result) float64 { return r.AggFrames }), "%.1f")
				row(w, "model "+arm.String()+" medium idle %", f(func(r kernelmodel.Result) float64 { return 100 * r.MediumIdle }), "%.2f")
				row(w, "model "+arm.String()+" loss probes", f(func(r kernelmodel.Result) float64 { return float64(r.Probes) }), "%.0f")
				row(w, "model "+arm.String()+" RTOs", f(func(r kernelmodel.Result) float64 { return float64(r.RTOs) }), "%.0f")
			}
		}
	}
}

// resultLine summarises the seed limits: the paced ratio is the worst seed,
// the skipped counts are the wired download's (what the seed counted),
// scaled to 20 s.
func resultLine(res map[key]kernelmodel.Result, dur time.Duration) string {
	low := uint32(kernelmodel.SeedLow)
	mbps := func(r kernelmodel.Result) float64 { return r.Mbps }
	skip := func(r kernelmodel.Result) float64 { return float64(r.Skipped) }
	tl := per(res, low, kernelmodel.TSQ, kernelmodel.Legacy, mbps)
	tf := per(res, low, kernelmodel.TSQ, kernelmodel.Fixed, mbps)
	ratio := math.Inf(1)
	for i := range tl {
		ratio = min(ratio, tf[i]/tl[i])
	}
	sl := mean(per(res, low, kernelmodel.Wired, kernelmodel.Legacy, skip))
	sf := mean(per(res, low, kernelmodel.Wired, kernelmodel.Fixed, skip))
	skipRatio := 0.0
	if sl > 0 {
		skipRatio = sf / sl
	}
	wl := mean(per(res, low, kernelmodel.Wired, kernelmodel.Legacy, mbps))
	wf := mean(per(res, low, kernelmodel.Wired, kernelmodel.Fixed, mbps))
	scale := (20 * time.Second).Seconds() / dur.Seconds()
	return fmt.Sprintf("RESULT tsq_ratio=%.3f skipped_ratio=%.4f legacy_skipped=%.0f wired_delta_pct=%.2f fixed_tsq_mbps=%.1f",
		ratio, skipRatio, sl*scale, 100*math.Abs(wf-wl)/wl, mean(tf))
}

func gi(r radio.Rate) string {
	if r.ShortGI {
		return "SGI"
	}
	return "LGI"
}

// calibration prints the fixed arm's paced download for every 1x1 VHT80
// MCS and guard interval; the rule picks the one closest to 95 Mbit/s.
func calibration(w io.Writer, dur time.Duration) {
	fmt.Fprintf(w, "calibration: fixed arm, AP-generated download, BE 500/1000 us, seed %d, %v\n", seeds[0], dur)
	for _, sgi := range []bool{false, true} {
		for mcs := uint8(0); mcs <= 9; mcs++ {
			r := radio.Rate{Mode: radio.ModeVHT, MCS: mcs, NSS: 1, Bandwidth: radio.BW80, ShortGI: sgi}
			res := kernelmodel.Run(kernelmodel.Config{Arm: kernelmodel.Fixed, Traffic: kernelmodel.TSQ, Seed: seeds[0], Duration: dur, Rate: r})
			fmt.Fprintf(w, "  VHT80 MCS%d %s  PHY %5.1f Mbit/s  TCP %6.1f Mbit/s  %4.1f subframes/A-MPDU\n",
				mcs, gi(r), float64(r.Kbps())/1000, res.Mbps, res.AggFrames)
		}
	}
}
