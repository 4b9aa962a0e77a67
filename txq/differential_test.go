package txq

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// twins drive a trace-mode and a production-mode scheduler with the same
// operations and compare every decision: production mode must make exactly
// the kernel's choices, not only keep its long-run shares.
type twins struct {
	t      *testing.T
	r      *rand.Rand
	s      [2]*Scheduler
	f      [2]*aqlFake
	flight []inflight
	now    time.Duration
	h      Handle
	log    []string
	idle   int // empty queues trace handed out and production skipped
	// busy is how many stations get frames (the others only complete,
	// change weight, doze or leave); solo counts the Next calls made with
	// a single queue listed, nextSolo's case.
	busy int
	solo int
	// groups adds group moves and caps set, changed and lifted to the
	// operations.
	groups bool
	held   int // rounds opened with a capped group over its budget
	// shares makes both schedulers GroupShares ones; shareHeld counts the
	// frames a group's share held back.
	shares    bool
	shareHeld int
}

type inflight struct {
	sta uint16
	ac  ieee80211.AC
	us  int32
}

const twinStations = 8

func newTwins(t *testing.T, seed uint64) *twins { return newTwinsWith(t, seed, false) }

// newTwinsWith is newTwins, with Config.GroupShares if shares is set.
func newTwinsWith(t *testing.T, seed uint64, shares bool) *twins {
	w := &twins{t: t, r: rand.New(rand.NewPCG(seed, 7)), busy: twinStations, shares: shares}
	low := []int32{500, 2000, 5000, 50000}[w.r.IntN(4)]
	threshold := []int32{6000, 24000}[w.r.IntN(2)]
	for i, mode := range []Mode{Trace, Production} {
		w.f[i] = newAQLFake(low, 2*low)
		w.f[i].threshold = threshold
		w.s[i] = mustNew(t, Config{Mode: mode, Airtime: w.f[i], Owner: &owner{}, MaxStations: twinStations, GroupShares: shares})
		w.f[i].sched = w.s[i]
	}
	for sta := uint16(1); sta <= twinStations; sta++ {
		w.both(func(s *Scheduler, _ *aqlFake) { s.AddStation(sta) })
	}
	return w
}

func (w *twins) both(op func(*Scheduler, *aqlFake)) {
	op(w.s[0], w.f[0])
	op(w.s[1], w.f[1])
}

func (w *twins) logf(format string, args ...any) {
	w.log = append(w.log, fmt.Sprintf("%v ", w.now)+fmt.Sprintf(format, args...))

}

func (w *twins) fail(format string, args ...any) {
	tail := w.log[max(0, len(w.log)-30):]
	var lists strings.Builder
	for i, s := range w.s {
		for ac := range s.acs {
			fmt.Fprintf(&lists, "%v ac %d:", s.Mode(), ac)
			for qi := s.acs[ac].list.first; qi >= 0; qi = s.queues[qi].next {
				fmt.Fprintf(&lists, " %s(%d)", qname(&s.queues[qi]), s.queues[qi].frames)
			}
			lists.WriteString("\n")
		}
		_ = i
	}
	p := w.s[1]
	for ac := range p.acs {
		A := &p.acs[ac]
		if A.front < 0 {
			continue
		}
		fmt.Fprintf(&lists, "ac %d front %s lap %d below threshold %v\n", ac, qname(&p.queues[A.front]), A.lap, w.f[1].TotalBelowThreshold())
		for qi := A.list.first; qi >= 0; qi = p.queues[qi].next {
			q := &p.queues[qi]
			fmt.Fprintf(&lists, "  %s label %x behind %v", qname(q), q.label, q.behind)
			if q.sta != 0 {
				a := p.airOf(q.sta, q.ac)
				_, lo, hi := w.f[1].StationBelow(q.sta, q.ac)
				fmt.Fprintf(&lists, " def %d need %d fLap %d stop %d@%d heap %d listed %b out %b pending %d below %v/%v", a.def, a.need, a.fLap, a.kq, a.kLap, a.hp, a.listed, a.out, w.f[1].sta[q.sta][q.ac], lo, hi)
			}
			lists.WriteString("\n")
		}
	}
	w.t.Fatalf("%s\nlast operations:\n%s\n%s", fmt.Sprintf(format, args...), strings.Join(tail, "\n"), lists.String())
}

var twinTIDs = []uint8{0, 3, 0, 0, 6} // mostly BE's TID 0, some TID 3, some VO

func (w *twins) enqueue() {
	sta := uint16(w.r.IntN(w.busy + 1)) // 0: the non-station queue
	if w.busy < twinStations && w.r.IntN(4) != 0 {
		sta = 1 + uint16(w.r.IntN(w.busy)) // the non-station queue seldom
	}
	tid := twinTIDs[w.r.IntN(len(twinTIDs))]
	n := 1 + w.r.IntN(3)
	w.logf("enqueue sta %d tid %d x%d", sta, tid, n)
	for range n {
		w.h++
		it := Item{Handle: w.h, Len: 1000, Hash: uint32(sta)<<8 | uint32(tid)}
		w.both(func(s *Scheduler, _ *aqlFake) { s.Enqueue(sta, tid, it, w.now) })
	}
}

func (w *twins) round(ac ieee80211.AC) {
	w.both(func(s *Scheduler, _ *aqlFake) { s.StartRound(ac, w.now) })
	r0, o0 := w.s[0].Round(ac)
	r1, o1 := w.s[1].Round(ac)
	if o0 != o1 || (o0 && uint16(r0) != uint16(r1)) {
		w.fail("round: trace %d/%v, production %d/%v", r0, o0, r1, o1)
	}
	w.logf("round ac %d open %v", ac, o0)
	if _, over := w.s[1].CapDeadline(w.now); over && o0 {
		w.held++
	}
	for {
		q0, ok0 := w.s[0].Next(ac, w.now)
		for ok0 && q0.Len() == 0 {
			// Production skips what the driver would return unused.
			w.idle++
			w.logf("  trace hands out empty %s", qname(q0))
			w.s[0].Return(q0, false, w.now)
			q0, ok0 = w.s[0].Next(ac, w.now)
		}
		if w.s[1].Listed(ac) == 1 {
			w.solo++
		}
		q1, ok1 := w.s[1].Next(ac, w.now)
		if ok0 != ok1 || ok0 && (q0.Station() != q1.Station() || q0.tid != q1.tid) {
			w.fail("next: trace %v %v, production %v %v", ok0, qname(q0), ok1, qname(q1))
		}
		if !ok0 {
			break
		}
		k := 1 + w.r.IntN(3)
		force := w.r.IntN(8) == 0
		w.logf("  serve %s x%d force %v", qname(q0), k, force)
		sta := q0.Station()
		for range k {
			if !w.f[0].StationAllows(sta, ac) {
				break
			}
			if in0, in1 := w.s[0].InShare(q0), w.s[1].InShare(q1); in0 != in1 {
				w.fail("in share %s: trace %v, production %v", qname(q0), in0, in1)
			} else if !in0 {
				w.shareHeld++
				break
			}
			_, d0 := w.s[0].Dequeue(q0, w.now)
			_, d1 := w.s[1].Dequeue(q1, w.now)
			if d0 != d1 {
				w.fail("dequeue disagrees")
			}
			if !d0 {
				break
			}
			us := int32(100 + w.r.IntN(4000))
			w.flight = append(w.flight, inflight{sta, ac, us})
			w.both(func(_ *Scheduler, f *aqlFake) {
				if sta == 0 {
					f.external[ac] += us
				} else {
					f.add(sta, ac, us)
				}
			})
		}
		w.s[0].Return(q0, force, w.now)
		w.s[1].Return(q1, force, w.now)
	}
	w.both(func(s *Scheduler, _ *aqlFake) { s.EndRound(ac) })
}

func qname(q *TXQ) string {
	if q == nil {
		return "-"
	}
	return fmt.Sprintf("%d/%d", q.Station(), q.tid)
}

func (w *twins) complete() {
	for n := 1 + w.r.IntN(3); n > 0 && len(w.flight) > 0; n-- {
		i := 0
		if w.r.IntN(4) == 0 {
			i = w.r.IntN(len(w.flight)) // completions out of order
		}
		c := w.flight[i]
		w.flight = append(w.flight[:i], w.flight[i+1:]...)
		charge := uint32(c.us)
		if w.r.IntN(10) == 0 {
			charge = 0 // no status
		}
		w.logf("complete sta %d ac %d %d µs charged %d", c.sta, c.ac, c.us, charge)
		w.both(func(s *Scheduler, f *aqlFake) {
			if c.sta == 0 {
				f.external[c.ac] -= c.us
				return
			}
			f.sub(c.sta, c.ac, c.us)
			s.Charge(c.sta, c.ac, charge, w.now)
		})
	}
}

func (w *twins) removeStation(sta uint16) {
	w.logf("remove sta %d", sta)
	kept := w.flight[:0]
	for _, c := range w.flight {
		if c.sta == sta {
			w.both(func(_ *Scheduler, f *aqlFake) { f.sub(c.sta, c.ac, c.us) })
			continue
		}
		kept = append(kept, c)
	}
	w.flight = kept
	w.both(func(s *Scheduler, _ *aqlFake) { s.RemoveStation(sta); s.AddStation(sta) })
}

func (w *twins) step() {
	sta := uint16(1 + w.r.IntN(twinStations))
	if w.groups && w.r.IntN(100) < 8 {
		w.groupOp(sta)
		w.now += 100 * time.Microsecond
		return
	}
	switch p := w.r.IntN(100); {
	case p < 30:
		w.enqueue()
	case p < 62:
		w.round(be)
	case p < 66:
		w.round(ieee80211.AC(ieee80211.TIDToAC(6)))
	case p < 86:
		w.complete()
	case p < 90:
		d := time.Duration(w.r.IntN(150)) * time.Millisecond
		w.logf("time +%v", d)
		w.now += d
	case p < 93:
		wt := uint16(32 + w.r.IntN(481))
		w.logf("weight sta %d %d", sta, wt)
		w.both(func(s *Scheduler, _ *aqlFake) { s.SetWeight(sta, wt) })
	case p < 96:
		paused := w.r.IntN(2) == 0
		w.logf("paused sta %d %v", sta, paused)
		w.both(func(s *Scheduler, _ *aqlFake) { s.SetPaused(sta, paused, w.now) })
	case p < 98:
		w.removeStation(sta)
	default:
		low := []int32{500, 2000, 5000, 50000}[w.r.IntN(4)]
		w.logf("limits %d/%d", low, 2*low)
		w.both(func(s *Scheduler, f *aqlFake) {
			f.low, f.high = low, 2*low
			for ac := range ieee80211.NumACs {
				s.LimitsChanged(ieee80211.AC(ac))
			}
		})
	}
	w.now += 100 * time.Microsecond
	if msg := checkHeaps(w.s[1]); msg != "" {
		w.fail("%s", msg)
	}
	if msg := checkShares(w.s[0]) + checkShares(w.s[1]); msg != "" {
		w.fail("%s", msg)
	}
	for ac := range ieee80211.NumACs {
		ac := ieee80211.AC(ac)
		if a, b := w.s[0].Listed(ac), w.s[1].Listed(ac); a != b {
			w.fail("listed ac %d: trace %d, production %d", ac, a, b)
		}
		for _, s := range w.s {
			if bit := s.ListedACs()>>ac&1 == 1; bit != (s.Listed(ac) > 0) {
				w.fail("ListedACs bit %d is %v with %d queues listed", ac, bit, s.Listed(ac))
			}
		}
		for sta := uint16(1); sta <= twinStations; sta++ {
			if a, b := w.s[0].Deficit(sta, ac), w.s[1].Deficit(sta, ac); a != b {
				w.fail("deficit sta %d ac %d: trace %d, production %d", sta, ac, a, b)
			}
		}
	}
}

// groupOp moves a station to one of four groups, or sets, changes or
// lifts the cap of one of groups 1-3 (shares of 5-60 %, bursts of 1-8 ms).
func (w *twins) groupOp(sta uint16) {
	g := uint8(1 + w.r.IntN(3))
	switch p := w.r.IntN(10); {
	case p < 6:
		g = uint8(w.r.IntN(4))
		w.logf("group sta %d %d", sta, g)
		w.both(func(s *Scheduler, _ *aqlFake) { s.SetGroup(sta, g) })
	case p < 9:
		pm := 50 + w.r.IntN(551)
		burst := time.Duration(1+w.r.IntN(8)) * time.Millisecond
		w.logf("cap group %d %d‰ burst %v", g, pm, burst)
		w.both(func(s *Scheduler, _ *aqlFake) { s.SetCap(g, pm, burst, w.now) })
	default:
		w.logf("uncap group %d", g)
		w.both(func(s *Scheduler, _ *aqlFake) { s.ClearCap(g) })
	}
}

// TestProductionDecisionsGroups is TestProductionDecisions with stations
// moving between groups and groups capped, re-capped and uncapped: a
// capped group over its budget is passed over like a station AQL holds
// back, and production mode still makes trace mode's every decision.
func TestProductionDecisionsGroups(t *testing.T) {
	for _, busy := range []func(uint64) int{
		func(uint64) int { return twinStations },
		func(seed uint64) int { return 1 + int(seed%2) }, // nextSolo's case
	} {
		seeds, steps, sum := runTwinsWith(t, 2000, busy, true)
		if sum.held < seeds*steps/100 {
			t.Fatalf("%d rounds opened with a group over its cap in %d seeds: caps hardly bind", sum.held, seeds)
		}
		t.Logf("%d seeds x %d operations; %d rounds with a group over its cap, %d Next calls with one queue listed", seeds, steps, sum.held, sum.solo)
	}
}

// TestProductionDecisionsShares is TestProductionDecisionsGroups with
// GroupShares: a group over its share of the pending airtime is passed over
// as a capped one is, and production mode still makes trace mode's every
// decision and agrees on InShare before every frame.
func TestProductionDecisionsShares(t *testing.T) {
	seeds, steps := 40, 4000
	if raceEnabled || testing.Short() {
		seeds = 8
	}
	var held, shareHeld int
	for seed := uint64(3000); seed < 3000+uint64(seeds); seed++ {
		w := newTwinsWith(t, seed, true)
		w.groups = true
		for range steps {
			w.step()
		}
		held += w.held
		shareHeld += w.shareHeld
	}
	if shareHeld < seeds*steps/500 {
		t.Fatalf("%d frames held back by a group's share in %d seeds: shares hardly bind", shareHeld, seeds)
	}
	t.Logf("%d seeds x %d operations; %d frames held back by a share, %d rounds with a group over its cap", seeds, steps, shareHeld, held)
}

// TestProductionDecisions: under random operations (frames on two TIDs of
// a station and on the non-station queue, rounds on two ACs, completions
// in and out of order and without status, idle time, weight changes, power
// save, station removal, limit changes, the total threshold) production
// mode serves exactly the queues trace mode serves, in the same order, and
// every deficit and listed count agrees after every operation.
func TestProductionDecisions(t *testing.T) {
	seeds, steps, sum := runTwins(t, 0, func(uint64) int { return twinStations })
	t.Logf("%d seeds x %d operations; %d empty queues handed out by trace mode", seeds, steps, sum.idle)
}

// TestProductionDecisionsSolo is TestProductionDecisions with one or two
// busy stations, so that a single listed queue, production's fast path,
// is the common case, entered and left by every kind of operation.
func TestProductionDecisionsSolo(t *testing.T) {
	seeds, steps, sum := runTwins(t, 1000, func(seed uint64) int { return 1 + int(seed%2) })
	if sum.solo < seeds*steps/10 {
		t.Fatalf("%d Next calls with a single queue listed in %d seeds: the fast path is hardly exercised", sum.solo, seeds)
	}
	t.Logf("%d seeds x %d operations; %d Next calls with one queue listed", seeds, steps, sum.solo)
}

// runTwins runs twins from seeds first, first+1, ... with busy(seed) busy
// stations and sums their idle and solo counts. 8 seeds instead of 40
// under -race or -short; make norace runs all of them.
func runTwins(t *testing.T, first uint64, busy func(seed uint64) int) (seeds, steps int, sum twinSums) {
	return runTwinsWith(t, first, busy, false)
}

// runTwinsWith is runTwins, with group operations if groups is set.
func runTwinsWith(t *testing.T, first uint64, busy func(seed uint64) int, groups bool) (seeds, steps int, sum twinSums) {
	seeds, steps = 40, 4000
	if raceEnabled || testing.Short() {
		seeds = 8
	}
	for seed := first; seed < first+uint64(seeds); seed++ {
		w := newTwins(t, seed)
		w.busy = busy(seed)
		w.groups = groups
		for range steps {
			w.step()
		}
		sum.idle += w.idle
		sum.solo += w.solo
		sum.held += w.held
	}
	return seeds, steps, sum
}

type twinSums struct{ idle, solo, held int }

// checkShares verifies GroupShares' books: each group's competing weight
// is its stations' with a queue listed or out, and the count of groups
// with weight.
func checkShares(s *Scheduler) string {
	if !s.shares {
		return ""
	}
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		var w [MaxGroups]int64
		for sta := uint16(1); int(sta) < len(s.stas); sta++ {
			if s.stas[sta].present && s.competes(sta, ac) {
				w[s.stas[sta].group] += int64(s.stas[sta].weight)
			}
		}
		n, mask := 0, uint8(0)
		for g := range w {
			if w[g] > 0 {
				n++
				mask |= 1 << g
			}
		}
		if S := &s.share[ac]; w != S.weight || n != S.competing || mask != S.mask {
			return fmt.Sprintf("%v ac %d: competing weights %v (%d groups), want %v (%d)", s.Mode(), ac, S.weight, S.competing, w, n)
		}
	}
	return ""
}

// checkHeaps verifies production's heaps: positions, order, and keys equal
// to what each station's air records.
func checkHeaps(s *Scheduler) string {
	for ac := range s.acs {
		A := &s.acs[ac]
		for hp := range A.heaps {
			h := &A.heaps[hp]
			for i := range h.e {
				e := &h.e[i]
				a := &s.airs[e.ai]
				if a.hp != int8(hp) || s.hpos[e.ai] != int32(i) {
					return fmt.Sprintf("ac %d heap %d entry %d: air says %d/%d", ac, hp, i, a.hp, s.hpos[e.ai])
				}
				if e.lap != a.kLap || (s.queues[a.kq].state == stListed && e.label != s.queues[a.kq].label) {
					return fmt.Sprintf("ac %d heap %d entry %d: key %d/%x, air %d/%x", ac, hp, i, e.lap, e.label, a.kLap, s.queues[a.kq].label)
				}
				if i > 0 && e.before(&h.e[(i-1)/4]) {
					return fmt.Sprintf("ac %d heap %d entry %d before its parent", ac, hp, i)
				}
			}
		}
	}
	return ""
}
