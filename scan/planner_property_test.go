package scan

import (
	"testing"
	"time"

	"pgregory.net/rapid"
)

const ms = time.Millisecond

// genConfig draws a planner configuration; New may still reject it.
func genConfig(t *rapid.T) Config {
	n := rapid.IntRange(1, 40).Draw(t, "channels")
	var c Config
	for i := range n {
		c.Channels = append(c.Channels, Channel{
			Freq:     5180 + 20*i,
			Passive:  rapid.Float64Range(0, 1).Draw(t, "passive") < 0.4,
			Disabled: rapid.Float64Range(0, 1).Draw(t, "disabled") < 0.1,
		})
	}
	if rapid.Bool().Draw(t, "hasHome") {
		c.Home = c.Channels[rapid.IntRange(0, n-1).Draw(t, "home")].Freq
	}
	c.BeaconInterval = time.Duration(rapid.IntRange(40, 400).Draw(t, "tu")) * 1024 * time.Microsecond
	c.Retune = time.Duration(rapid.IntRange(0, 8000).Draw(t, "retuneUs")) * time.Microsecond
	c.Guard = time.Duration(rapid.IntRange(0, 5000).Draw(t, "guardUs")) * time.Microsecond
	c.Budget = time.Duration(rapid.IntRange(40, 200).Draw(t, "budgetMs")) * ms
	if rapid.Bool().Draw(t, "periodic") {
		c.Mode = Periodic
		c.Period = time.Duration(rapid.IntRange(1, 30).Draw(t, "periodS")) * time.Second
	}
	c.MaxDefers = rapid.IntRange(-1, 12).Draw(t, "maxDefers")
	c.MaxDeferTime = time.Duration(rapid.IntRange(1, 3000).Draw(t, "maxDeferMs")) * ms
	c.MissBeacon = rapid.Bool().Draw(t, "missBeacon")
	c.MaxLate = time.Duration(rapid.IntRange(0, 10000).Draw(t, "maxLateUs")) * time.Microsecond
	c.MinHome = time.Duration(rapid.IntRange(0, 500).Draw(t, "minHomeMs")) * ms
	c.Drain = time.Duration(rapid.IntRange(0, 5000).Draw(t, "drainUs")) * time.Microsecond
	return c
}

// run drives a planner as the core would: a call after every beacon that
// goes out, at most MaxLate after its TBTT, none while away, and checks
// every trip against the contract. It returns the trips and the call times.
type runner struct {
	t        *rapid.T
	p        *Planner
	c        Config
	trips    []Trip
	missed   uint64
	busyProb float64

	deferN     int
	deferFirst time.Duration
	lastStats  Stats
	sweepStart []time.Duration
}

func (r *runner) run(until time.Duration) {
	bi := r.c.BeaconInterval
	away := time.Duration(0) // home from this time on
	for n := time.Duration(1); n*bi < until; n++ {
		tbtt := n * bi
		if tbtt < away {
			continue // away at this TBTT: no beacon, no call
		}
		late := time.Duration(rapid.Int64Range(0, int64(r.c.MaxLate)).Draw(r.t, "late"))
		now := tbtt + late
		busy := rapid.Float64Range(0, 1).Draw(r.t, "busy") < r.busyProb
		tr, ok := r.p.Next(now, tbtt+bi, busy)
		r.observe(now, tr, ok)
		if ok {
			r.check(now, tbtt+bi, tr)
			away = tr.Return
		}
	}
}

func (r *runner) observe(now time.Duration, tr Trip, ok bool) {
	st := r.p.Stats()
	if st.Deferred > r.lastStats.Deferred {
		if r.deferN == 0 {
			r.deferFirst = now
		}
		r.deferN++
		if ok {
			r.t.Fatalf("deferred and planned at once")
		}
	}
	if ok {
		if r.deferN > max(r.c.MaxDefers, 0) {
			r.t.Fatalf("trip deferred %d times, bound %d", r.deferN, r.c.MaxDefers)
		}
		if r.deferN > 0 && now-r.deferFirst > r.c.MaxDeferTime+r.c.BeaconInterval+r.c.MaxLate {
			r.t.Fatalf("trip deferred for %v, bound %v", now-r.deferFirst, r.c.MaxDeferTime)
		}
		r.deferN = 0
	}
	if n := len(r.sweepStart); st.SweepStart != 0 && (n == 0 || st.SweepStart != r.sweepStart[n-1]) {
		r.sweepStart = append(r.sweepStart, st.SweepStart)
	}
	r.lastStats = st
}

func (r *runner) check(now, next time.Duration, tr Trip) {
	t, c, p := r.t, r.c, r.p
	if tr.Len() > p.Limit() {
		t.Fatalf("trip %v over the limit %v", tr.Len(), p.Limit())
	}
	if tr.Leave < now+c.Drain || tr.N < 1 {
		t.Fatalf("trip leaves at %v before now %v, or is empty (%d)", tr.Leave, now, tr.N)
	}
	if tr.MissesBeacon {
		r.missed++
		if !c.MissBeacon || !tr.Passive || !(tr.Leave < next && next < tr.Return && tr.Return <= next+c.BeaconInterval-c.Guard) {
			t.Fatalf("trip crosses a TBTT without leave: %+v next %v", tr, next)
		}
	} else if tr.Return > next-c.Guard {
		t.Fatalf("trip returns at %v, after TBTT %v - guard %v", tr.Return, next, c.Guard)
	}
	at := tr.Leave
	for _, v := range tr.List() {
		if v.Start != at+c.Retune {
			t.Fatalf("visit starts at %v, want %v", v.Start, at+c.Retune)
		}
		at = v.End()
		r.checkVisit(tr, v)
	}
	if tr.Return != at+c.Retune {
		t.Fatalf("return %v, want %v", tr.Return, at+c.Retune)
	}
	r.trips = append(r.trips, tr)
}

func (r *runner) checkVisit(tr Trip, v Visit) {
	t, c := r.t, r.p.cfg
	var ch Channel
	for _, x := range c.Channels {
		if x.Freq == v.Freq {
			ch = x
		}
	}
	if ch.Freq == 0 || ch.Disabled || ch.Freq == c.Home {
		t.Fatalf("visit to %d: not a channel to scan", v.Freq)
	}
	if ch.Passive != !v.Probe || ch.Passive != tr.Passive || (tr.Passive && tr.N != 1) {
		t.Fatalf("visit %+v of %+v in trip passive=%v n=%d", v, ch, tr.Passive, tr.N)
	}
	lo, hi := c.ProbeDelay+c.ActiveMin, c.ProbeDelay+c.ActiveMax
	if ch.Passive {
		lo, hi = c.PassiveMin, c.PassiveMax
	}
	if v.Dwell < lo-time.Microsecond || v.Dwell > hi {
		t.Fatalf("dwell %v outside [%v, %v]", v.Dwell, lo, hi)
	}
	if v.Probe && v.ProbeAt != v.Start+c.ProbeDelay {
		t.Fatalf("probe at %v, start %v", v.ProbeAt, v.Start)
	}
}

// checkCoverage asserts every channel to scan is visited within the bound
// of the start and of its previous visit, up to the end of the run.
func (r *runner) checkCoverage(start, end time.Duration) {
	bound := r.p.Bound().Coverage
	last := map[int]time.Duration{}
	for _, c := range r.p.cfg.Channels {
		if !c.Disabled && c.Freq != r.p.cfg.Home {
			last[c.Freq] = start
		}
	}
	for _, tr := range r.trips {
		for _, v := range tr.List() {
			if v.Start-last[v.Freq] > bound {
				r.t.Fatalf("channel %d unvisited from %v to %v, bound %v", v.Freq, last[v.Freq], v.Start, bound)
			}
			last[v.Freq] = v.Start
		}
	}
	for f, l := range last {
		if end-l > bound {
			r.t.Fatalf("channel %d unvisited from %v to the end %v, bound %v", f, l, end, bound)
		}
	}
}

func TestPlannerProperties(t *testing.T) {
	var accepted, rejected int
	defer func() { t.Logf("configurations: %d accepted, %d rejected", accepted, rejected) }()
	rapid.Check(t, func(t *rapid.T) {
		c := genConfig(t)
		p, err := New(c)
		if err != nil {
			rejected++
			return
		}
		accepted++
		r := &runner{t: t, p: p, c: p.cfg, busyProb: rapid.Float64Range(0, 1).Draw(t, "load")}
		end := 2*p.Bound().Coverage + time.Second
		r.run(end)
		if st := p.Stats(); st.MissedBeacons != r.missed {
			t.Fatalf("missed beacons counted %d, seen %d", st.MissedBeacons, r.missed)
		}
		bi := r.c.BeaconInterval
		r.checkCoverage(bi, end-bi)
		r.checkSweeps()
		if _, _, total := p.Sweeping(); total > 0 && p.Stats().Trips == 0 {
			t.Fatalf("no trip in %v", end)
		}
	})
}

// checkSweeps asserts periodic sweeps start at least Period apart and no
// sweep exceeds its bound.
func (r *runner) checkSweeps() {
	st := r.p.Stats()
	if st.LongestSweep > r.p.Bound().Sweep {
		r.t.Fatalf("sweep took %v, bound %v", st.LongestSweep, r.p.Bound().Sweep)
	}
	if r.c.Mode != Periodic {
		return
	}
	for i := 1; i < len(r.sweepStart); i++ {
		if d := r.sweepStart[i] - r.sweepStart[i-1]; d < r.c.Period {
			r.t.Fatalf("sweeps %d and %d start %v apart, period %v", i-1, i, d, r.c.Period)
		}
	}
}
