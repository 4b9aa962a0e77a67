package main

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/airq/airq/study/closedrounds/kernelmodel"
)

// variant is a mechanism tested after the primary result was known; see
// kernelmodel.Variant and docs/closed-rounds.md. None of them changes the
// primary table or the RESULT line.
type variant struct {
	name string
	v    kernelmodel.Variant
}

const us = time.Microsecond

// variants, at the seed's limits. The worker latency and the TSQ delay are
// not measured on the seed's AP; each is swept over a range instead of
// picked, and the worker variant is summarised at zero latency.
var variants = []variant{
	{"a1 worker+loop W=0", kernelmodel.Variant{Worker: true, WorkerLoop: true}},
	{"a1 worker+loop W=10us", kernelmodel.Variant{Worker: true, WorkerLoop: true, WorkerDelay: 10 * us}},
	{"a1 worker+loop W=30us", kernelmodel.Variant{Worker: true, WorkerLoop: true, WorkerDelay: 30 * us}},
	{"a1 worker+loop W=100us", kernelmodel.Variant{Worker: true, WorkerLoop: true, WorkerDelay: 100 * us}},
	{"a1 worker+loop W=300us", kernelmodel.Variant{Worker: true, WorkerLoop: true, WorkerDelay: 300 * us}},
	{"a2 worker W=0", kernelmodel.Variant{Worker: true}},
	{"a2 worker W=100us", kernelmodel.Variant{Worker: true, WorkerDelay: 100 * us}},
	{"a3 busy-gated wake", kernelmodel.Variant{BusyGate: true}},
	{"a4 no completion round", kernelmodel.Variant{NoCompletionRound: true}},
	{"b1 TSQ delay 10us", kernelmodel.Variant{TSQDelay: 10 * us}},
	{"b1 TSQ delay 100us", kernelmodel.Variant{TSQDelay: 100 * us}},
	{"b1 TSQ delay 300us", kernelmodel.Variant{TSQDelay: 300 * us}},
	{"b1 TSQ delay 1000us", kernelmodel.Variant{TSQDelay: 1000 * us}},
	{"b2 TSQ drain (ksoftirqd)", kernelmodel.Variant{TSQDrain: true}},
	{"c1 TSQ before completion", kernelmodel.Variant{TSQFirst: true}},
	{"d1 station low limit only", kernelmodel.Variant{StationLowOnly: true}},
}

// resultVariant is the variant summarised on the RESULT_VARIANT line.
const resultVariant = 0

type vkey struct {
	variant int
	traffic kernelmodel.Traffic
	arm     kernelmodel.Arm
	seed    int
}

func runVariants(dur time.Duration) map[vkey]kernelmodel.Result {
	var keys []vkey
	for vi := range variants {
		for _, tr := range []kernelmodel.Traffic{kernelmodel.Wired, kernelmodel.TSQ} {
			for _, arm := range []kernelmodel.Arm{kernelmodel.Legacy, kernelmodel.Fixed} {
				for i := range seeds {
					keys = append(keys, vkey{vi, tr, arm, i})
				}
			}
		}
	}
	return runKeyed(keys, func(k vkey) kernelmodel.Config {
		return kernelmodel.Config{Arm: k.arm, Traffic: k.traffic, Seed: seeds[k.seed], Duration: dur, Variant: variants[k.variant].v}
	})
}

// vsummary is one variant against the acceptance.
type vsummary struct {
	tsqRatio, wiredDelta, fixedTSQ, legacySkipped20 float64
}

func summarise(res map[vkey]kernelmodel.Result, vi int, dur time.Duration) vsummary {
	get := func(tr kernelmodel.Traffic, arm kernelmodel.Arm, f func(kernelmodel.Result) float64) []float64 {
		xs := make([]float64, len(seeds))
		for i := range seeds {
			xs[i] = f(res[vkey{vi, tr, arm, i}])
		}
		return xs
	}
	mbps := func(r kernelmodel.Result) float64 { return r.Mbps }
	tl, tf := get(kernelmodel.TSQ, kernelmodel.Legacy, mbps), get(kernelmodel.TSQ, kernelmodel.Fixed, mbps)
	ratio := math.Inf(1)
	for i := range tl {
		ratio = min(ratio, tf[i]/tl[i])
	}
	wl, wf := mean(get(kernelmodel.Wired, kernelmodel.Legacy, mbps)), mean(get(kernelmodel.Wired, kernelmodel.Fixed, mbps))
	sk := mean(get(kernelmodel.Wired, kernelmodel.Legacy, func(r kernelmodel.Result) float64 { return float64(r.Skipped) }))
	return vsummary{ratio, 100 * math.Abs(wf-wl) / wl, mean(tf), sk * (20 * time.Second).Seconds() / dur.Seconds()}
}

func (s vsummary) meets() string {
	switch {
	case s.tsqRatio >= 2 && s.wiredDelta <= 5 && math.Abs(s.fixedTSQ-95) <= 9.5:
		return "yes"
	case s.tsqRatio >= 2:
		return "ratio only"
	}
	return "no"
}

func reportVariants(w io.Writer, res map[vkey]kernelmodel.Result, dur time.Duration) {
	fmt.Fprintf(w, "\n== Variants (chosen AFTER the primary result; not the pre-registered model) ==\n")
	fmt.Fprintf(w, "BE 500/1000 us, %v per run, seeds %v; per run and mean\n", dur, seeds)
	for vi, v := range variants {
		fmt.Fprintf(w, "\n-- %s --\n", v.name)
		for _, tr := range []kernelmodel.Traffic{kernelmodel.Wired, kernelmodel.TSQ} {
			for _, arm := range []kernelmodel.Arm{kernelmodel.Legacy, kernelmodel.Fixed} {
				var sk, mb, op, cl, idle []float64
				for i := range seeds {
					r := res[vkey{vi, tr, arm, i}]
					sk = append(sk, float64(r.Skipped))
					mb = append(mb, r.Mbps)
					op = append(op, float64(r.RoundsOpened))
					cl = append(cl, float64(r.RoundsClosed))
					idle = append(idle, 100*r.MediumIdle)
				}
				fmt.Fprintf(w, "  %-5s %-6s skipped %5.0f %5.0f %5.0f (%5.0f)  Mbit/s %5.1f %5.1f %5.1f (%5.1f)  rounds %6.0f/%6.0f  idle %4.1f%%\n",
					tr, arm, sk[0], sk[1], sk[2], mean(sk), mb[0], mb[1], mb[2], mean(mb), mean(op), mean(cl), mean(idle))
			}
		}
	}
	fmt.Fprintf(w, "\n  %-28s %9s %9s %9s %11s %s\n", "variant", "tsq_ratio", "wired_d%", "fixed_tsq", "legacy_skip", "meets (ratio>=2, wired<=5%, fixed 95+-10%)")
	for vi, v := range variants {
		s := summarise(res, vi, dur)
		fmt.Fprintf(w, "  %-28s %9.3f %9.2f %9.1f %11.0f %s\n", v.name, s.tsqRatio, s.wiredDelta, s.fixedTSQ, s.legacySkipped20, s.meets())
	}
}

func resultVariantLine(res map[vkey]kernelmodel.Result, dur time.Duration) string {
	s := summarise(res, resultVariant, dur)
	return fmt.Sprintf("RESULT_VARIANT name=worker+loop(W=0) tsq_ratio=%.3f wired_delta_pct=%.2f fixed_tsq_mbps=%.1f legacy_skipped=%.0f",
		s.tsqRatio, s.wiredDelta, s.fixedTSQ, s.legacySkipped20)
}
