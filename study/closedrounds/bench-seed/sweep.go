package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/airq/airq/study/closedrounds/kernelmodel"
)

// The sweep: the TX completion's lag behind the BlockAck against the TSQ
// wake-up rule, at the seed's limits. It was added after the primary
// result was known, to test a mechanism found by reading the kernel; no lag
// is picked, all are printed.
var sweepLags = []time.Duration{0, 50, 100, 125, 150, 175, 200, 250, 300, 350, 400, 450, 500, 750, 1000}

// sweepCol is one column group of the sweep table: a traffic type and, for
// the AP's own sender, the wake-up rule of tcp_wfree.
type sweepCol struct {
	name    string
	traffic kernelmodel.Traffic
	drain   bool
}

var sweepCols = []sweepCol{
	{"AP-generated, wake on every completion", kernelmodel.TSQ, false},
	{"AP-generated, no wake while queued (ksoftirqd)", kernelmodel.TSQ, true},
	{"wired-forwarded (the AP's wake rule does not apply)", kernelmodel.Wired, false},
}

type skey struct {
	lag, col int
	arm      kernelmodel.Arm
	seed     int
}

func runSweep(dur time.Duration) map[skey]kernelmodel.Result {
	var keys []skey
	for li := range sweepLags {
		for ci := range sweepCols {
			for _, arm := range []kernelmodel.Arm{kernelmodel.Legacy, kernelmodel.Fixed} {
				for i := range seeds {
					keys = append(keys, skey{li, ci, arm, i})
				}
			}
		}
	}
	return runKeyed(keys, func(k skey) kernelmodel.Config {
		c := sweepCols[k.col]
		return kernelmodel.Config{Arm: k.arm, Traffic: c.traffic, Seed: seeds[k.seed], Duration: dur,
			Variant: kernelmodel.Variant{CompletionDelay: sweepLags[k.lag] * time.Microsecond, TSQDrain: c.drain}}
	})
}

// cell is one lag and column: means over the seeds, and the worst seed's
// fixed/legacy ratio (as the RESULT line takes it).
type cell struct {
	legacy, fixed, skipL, skipF, ratio float64
}

func sweepCell(res map[skey]kernelmodel.Result, li, ci int, dur time.Duration) cell {
	var c cell
	c.ratio = math.Inf(1)
	scale := (20 * time.Second).Seconds() / dur.Seconds()
	for i := range seeds {
		l, f := res[skey{li, ci, kernelmodel.Legacy, i}], res[skey{li, ci, kernelmodel.Fixed, i}]
		c.legacy += l.Mbps / float64(len(seeds))
		c.fixed += f.Mbps / float64(len(seeds))
		c.skipL += float64(l.Skipped) * scale / float64(len(seeds))
		c.skipF += float64(f.Skipped) * scale / float64(len(seeds))
		c.ratio = min(c.ratio, f.Mbps/l.Mbps)
	}
	return c
}

func reportSweep(w io.Writer, res map[skey]kernelmodel.Result, dur time.Duration) {
	fmt.Fprintf(w, "\n== Sweep (chosen AFTER the primary result; not the pre-registered model): TX completion lag x TSQ wake-up rule ==\n")
	fmt.Fprintf(w, "BE 500/1000 us, %v per run, seeds %v. lag: the driver processes a TX completion this long after the BlockAck;\n", dur, seeds)
	fmt.Fprintf(w, "the station's TCP ACK reaches the AP 135-270 us after it (AIFS 43 + 0-15 slots + 92 us).\n")
	fmt.Fprintf(w, "Mbit/s and skipped (per 20 s): means over the seeds; ratio: fixed/legacy Mbit/s of the worst seed.\n")
	for ci, c := range sweepCols {
		fmt.Fprintf(w, "  [%c] %s\n", 'A'+ci, c.name)
	}
	fmt.Fprintf(w, "  %6s", "lag_us")
	for ci := range sweepCols {
		fmt.Fprintf(w, " | [%c] %6s %6s %6s %6s %6s", 'A'+ci, "legacy", "fixed", "skip_l", "skip_f", "ratio")
	}
	fmt.Fprintln(w)
	for li, lag := range sweepLags {
		fmt.Fprintf(w, "  %6d", lag)
		for ci := range sweepCols {
			c := sweepCell(res, li, ci, dur)
			fmt.Fprintf(w, " |     %6.1f %6.1f %6.0f %6.0f %6.3f", c.legacy, c.fixed, c.skipL, c.skipF, c.ratio)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\n  subframes per A-MPDU and medium idle %%, means over the seeds\n  %6s", "lag_us")
	for ci := range sweepCols {
		fmt.Fprintf(w, " | [%c] %6s %6s %6s %6s", 'A'+ci, "agg_l", "agg_f", "idle_l", "idle_f")
	}
	fmt.Fprintln(w)
	for li, lag := range sweepLags {
		fmt.Fprintf(w, "  %6d", lag)
		for ci := range sweepCols {
			var agg, idle [2]float64
			for ai, arm := range []kernelmodel.Arm{kernelmodel.Legacy, kernelmodel.Fixed} {
				for i := range seeds {
					r := res[skey{li, ci, arm, i}]
					agg[ai] += r.AggFrames / float64(len(seeds))
					idle[ai] += 100 * r.MediumIdle / float64(len(seeds))
				}
			}
			fmt.Fprintf(w, " |     %6.1f %6.1f %6.1f %6.1f", agg[0], agg[1], idle[0], idle[1])
		}
		fmt.Fprintln(w)
	}
	lags := func(ci int, keep func(cell) bool) string {
		var xs []string
		for li, lag := range sweepLags {
			if keep(sweepCell(res, li, ci, dur)) {
				xs = append(xs, fmt.Sprint(int64(lag)))
			}
		}
		if len(xs) == 0 {
			return "none"
		}
		return strings.Join(xs, " ")
	}
	fmt.Fprintln(w)
	for ci := range sweepCols {
		fmt.Fprintf(w, "  [%c] lags (us) with ratio >= 2: %s\n", 'A'+ci, lags(ci, func(c cell) bool { return c.ratio >= 2 }))
		fmt.Fprintf(w, "  [%c] lags (us) where legacy's mean beats fixed's: %s\n", 'A'+ci, lags(ci, func(c cell) bool { return c.legacy > c.fixed }))
	}
	fmt.Fprintf(w, "  [C] lags (us) where the wired arms' means differ by more than 5 %%: %s\n",
		lags(2, func(c cell) bool { return math.Abs(c.fixed-c.legacy) > 0.05*c.legacy }))
}
