package kernelmodel

import (
	"math"
	"testing"
	"time"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/internal/ieee80211"
)

// short keeps the package's tests to a few simulated seconds per run.
const short = 3 * time.Second

func run(arm Arm, tr Traffic, low, high uint32, seed uint64) Result {
	return Run(Config{Arm: arm, Traffic: tr, LimitLow: low, LimitHigh: high, Seed: seed, Duration: short})
}

func TestDeterministic(t *testing.T) {
	a := run(Legacy, TSQ, 0, 0, 7)
	b := run(Legacy, TSQ, 0, 0, 7)
	if a != b {
		t.Fatalf("same seed, different results:\n%+v\n%+v", a, b)
	}
}

// TestSeedLimits asserts the study's ratios with the seed's limits. The
// paced-download ratio is the model's finding, not the seed's claim (2.1 to
// 2.7): see docs/closed-rounds.md.
func TestSeedLimits(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		wl, wf := run(Legacy, Wired, 0, 0, seed), run(Fixed, Wired, 0, 0, seed)
		tl, tf := run(Legacy, TSQ, 0, 0, seed), run(Fixed, TSQ, 0, 0, seed)
		perSec := float64(wl.Skipped) / short.Seconds()
		if perSec < 1000.0/20 || perSec > 10000.0/20 {
			t.Errorf("seed %d: legacy skipped %d in %v, want the seed's order of magnitude", seed, wl.Skipped, short)
		}
		if wl.SkippedStale != wl.Skipped {
			t.Errorf("seed %d: legacy skipped %d, of which stale %d: one station has no other cause", seed, wl.Skipped, wl.SkippedStale)
		}
		if float64(wf.Skipped) > 0.01*float64(wl.Skipped) || tf.Skipped > 0 {
			t.Errorf("seed %d: fixed skipped %d/%d, legacy %d", seed, wf.Skipped, tf.Skipped, wl.Skipped)
		}
		if d := math.Abs(wf.Mbps-wl.Mbps) / wl.Mbps; d > 0.05 {
			t.Errorf("seed %d: wired arms %.1f vs %.1f Mbit/s", seed, wl.Mbps, wf.Mbps)
		}
		// One 200 ms RTO (a stall while the sender recovers from a loss)
		// costs up to 7 % of a 3 s run; the seed's ratio is 2.1 or more.
		if r := tf.Mbps / tl.Mbps; r < 0.95 || r > 1.10 {
			t.Errorf("seed %d: paced fixed/legacy %.3f (%.1f/%.1f), the model gives about 1", seed, r, tf.Mbps, tl.Mbps)
		}
		if d := math.Abs(tf.Mbps-95) / 95; d > 0.10 {
			t.Errorf("seed %d: fixed paced %.1f Mbit/s, not within 10%% of 95", seed, tf.Mbps)
		}
		if wl.RoundsClosed == 0 || tl.RoundsClosed == 0 {
			t.Errorf("seed %d: no closed rounds: the limits do not bind", seed)
		}
	}
}

// TestDefaultLimits: with 5000/12000 µs two aggregates never reach the
// per-PHY limit, no round closes, and the arms are the same run.
func TestDefaultLimits(t *testing.T) {
	for _, tr := range []Traffic{Wired, TSQ} {
		l := run(Legacy, tr, DefaultLow, DefaultHigh, 1)
		f := run(Fixed, tr, DefaultLow, DefaultHigh, 1)
		if l != f || l.RoundsClosed != 0 {
			t.Errorf("%v: legacy %+v\nfixed %+v", tr, l, f)
		}
	}
}

// TestLegacyIdlesFixedDoesNot shows the mechanism: a completion round lost to a
// stale stamp leaves the device empty, and only a new frame from the stack
// restarts it (an arrival, a TSQ wake-up, or at worst the sender's loss
// probe). The legacy arm therefore idles the medium now and then; the fixed
// arm never does.
func TestLegacyIdlesFixedDoesNot(t *testing.T) {
	l, f := run(Legacy, Wired, 0, 0, 1), run(Fixed, Wired, 0, 0, 1)
	if l.MediumIdle <= f.MediumIdle || f.MediumIdle > 0.001 {
		t.Errorf("medium idle: legacy %.4f, fixed %.4f", l.MediumIdle, f.MediumIdle)
	}
}

// TestPHYMirrorsAQL checks the A-MPDU airtime against aql's exact
// estimator: one subframe is aql's single-MPDU VHT exchange without its mean
// channel access, with a BlockAck in place of the ACK.
func TestPHYMirrorsAQL(t *testing.T) {
	p := newPHY(DefaultRate)
	want := aql.Airtime(DefaultRate, ieee80211.ACBE, mpduLen) - p.meanAcc + p.baMinusAck
	if got := p.exchange(1); got != want {
		t.Fatalf("exchange(1) = %d µs, aql gives %d", got, want)
	}
	for n := 2; n <= maxSubframes; n++ {
		if p.ppdu[n] <= p.ppdu[n-1] {
			t.Fatalf("ppdu(%d) = %d not above ppdu(%d) = %d", n, p.ppdu[n], n-1, p.ppdu[n-1])
		}
	}
	if p.meanAcc != 16+3*9+68 {
		t.Fatalf("mean access %d µs", p.meanAcc)
	}
}

// TestLinkCalibration keeps the pre-registered link: the fixed arm's paced
// download is the closest of all 1x1 VHT80 MCS/GI pairs to 95 Mbit/s (the
// table is printed by bench-seed -calibrate).
func TestLinkCalibration(t *testing.T) {
	res := Run(Config{Arm: Fixed, Traffic: TSQ, Seed: 1, Duration: short})
	if res.Mbps < 85 || res.Mbps > 100 {
		t.Fatalf("fixed paced download %.1f Mbit/s on the default link", res.Mbps)
	}
}

// TestVariants pins what two post-hoc variants give (docs/closed-rounds.md,
// "Variants"). Neither is the pre-registered model. Delaying the TSQ
// handler by 1 ms changes nothing: the station's TCP ACK, which the AP waits
// for on the medium anyway, makes tcp_write_xmit refill after a lost round.
// An mt76-style worker that repeats rounds until one hands nothing down
// ends every run on a closed round, so the legacy arm loses throughput in
// both traffic types, the wired one included (which the seed contradicts).
// Over 3 s the worker's ratios are far above its 20 s ones (start-up
// stalls), so only the direction is asserted.
func TestVariants(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		v := Variant{TSQDelay: time.Millisecond}
		l := Run(Config{Arm: Legacy, Traffic: TSQ, Seed: seed, Duration: short, Variant: v})
		f := Run(Config{Arm: Fixed, Traffic: TSQ, Seed: seed, Duration: short, Variant: v})
		if r := f.Mbps / l.Mbps; r < 0.95 || r > 1.05 {
			t.Errorf("seed %d: TSQ delay 1 ms: paced fixed/legacy %.3f, want about 1", seed, r)
		}
		w := Variant{Worker: true, WorkerLoop: true}
		for _, tr := range []Traffic{Wired, TSQ} {
			l := Run(Config{Arm: Legacy, Traffic: tr, Seed: seed, Duration: short, Variant: w})
			f := Run(Config{Arm: Fixed, Traffic: tr, Seed: seed, Duration: short, Variant: w})
			if r := f.Mbps / l.Mbps; r < 1.5 {
				t.Errorf("seed %d: worker+loop %v: fixed/legacy %.3f (%.1f/%.1f), want at least 1.5", seed, tr, r, f.Mbps, l.Mbps)
			}
		}
	}
}
