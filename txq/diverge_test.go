package txq

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The divergence diagnostic: TXQ_DIVERGE=list lists the workloads of the
// random set whose shares differ by more than 2 points; TXQ_DIVERGE=k replays
// workload k in both modes round by round and prints the rounds around the
// first one whose service order differs, with per round the list (trace:
// the kernel's list; production: ring, wheel entries as station@pass, V and
// the blocked list), who was served (+ per frame dequeued), and per station
// the deficit with owed refills and the pending airtime.

func TestDivergenceList(t *testing.T) {
	if os.Getenv("TXQ_DIVERGE") != "list" {
		t.Skip("set TXQ_DIVERGE=list")
	}
	ws := workloads(false)
	for k, w := range ws {
		tr, pr := simulate(Trace, w), simulate(Production, w)
		ts, ps := shares(tr.airtime), shares(pr.airtime)
		d := 0.0
		for i := range ts {
			d = max(d, math.Abs(ts[i]-ps[i]))
		}
		if d > 0.02 {
			fmt.Printf("%3d d=%.4f n=%d low=%d w=%v est=%v\n   tr=%.3f\n   pr=%.3f\n", k, d, len(w.weights), w.low, w.weights, w.est, ts, ps)
		}
	}
}

// diagRun returns one line per driver round.
func diagRun(mode Mode, w workload, maxRounds int) []string {
	n := len(w.weights)
	f := newAQLFake(w.low, 2*w.low)
	s, _ := New(Config{Mode: mode, Airtime: f, Owner: &owner{}, MaxStations: 32})
	for i := range n {
		sta := uint16(i + 1)
		s.AddStation(sta)
		s.SetWeight(sta, w.weights[i])
	}
	var h Handle
	var now time.Duration
	topUp := func() {
		for i := range n {
			sta := uint16(i + 1)
			for s.Queue(sta, 0).Len() < 3 {
				h++
				s.Enqueue(sta, 0, Item{Handle: h, Len: 1000, Hash: uint32(sta)}, now)
			}
		}
	}
	var out []string
	var fifo []uint16
	topUp()
	for ev := 0; ev < maxRounds; ev++ {
		var sb strings.Builder
		if len(fifo) > 0 {
			sta := fifo[0]
			fifo = fifo[1:]
			est := w.est[sta-1]
			now += time.Duration(est) * time.Microsecond
			f.sub(sta, be, est)
			s.Charge(sta, be, uint32(est), now)
			fmt.Fprintf(&sb, "c%d ", sta)
		}
		sb.WriteString(diagState(s, n))
		s.StartRound(be, now)
		_, open := s.Round(be)
		if !open {
			sb.WriteString("X")
		}
		for q, ok := s.Next(be, now); ok; q, ok = s.Next(be, now) {
			sta := q.Station()
			sb.WriteString(strconv.Itoa(int(sta)))
			for k := 0; k < 2 && f.StationAllows(sta, be); k++ {
				if _, ok := s.Dequeue(q, now); !ok {
					break
				}
				f.add(sta, be, w.est[sta-1])
				fifo = append(fifo, sta)
				sb.WriteString("+")
			}
			s.Return(q, false, now)
		}
		s.EndRound(be)
		topUp()
		// state
		fmt.Fprintf(&sb, " |")
		for i := range n {
			sta := uint16(i + 1)
			a := s.airOf(sta, be)
			d := a.def
			if v := s.acs[be].wheel.v; a.wLevel >= 0 && v > a.vt {
				d += int64(s.stas[sta].weight) * (v - a.vt)
			}
			fmt.Fprintf(&sb, " %d:%d/%d", sta, d, f.sta[sta][be])
		}
		out = append(out, sb.String())
	}
	return out
}

func TestDivergence(t *testing.T) {
	k, err := strconv.Atoi(os.Getenv("TXQ_DIVERGE"))
	if err != nil || k < 0 || k >= len(workloads(false)) {
		t.Skip("set TXQ_DIVERGE to a workload index")
	}
	w := workloads(false)[k]
	tr, pr := diagRun(Trace, w, 4000), diagRun(Production, w, 4000)
	first := -1
	for i := range tr {
		a, b := diagServed(tr[i]), diagServed(pr[i])
		if a != b && first < 0 {
			first = i
		}
	}
	if first < 0 {
		fmt.Println("no divergence")
		return
	}
	fmt.Printf("first divergence at round %d\n", first)
	lo := max(0, first-15)
	for i := lo; i < min(len(tr), first+10); i++ {
		fmt.Printf("%4d T %-40s\n     P %-40s\n", i, tr[i], pr[i])
	}
}

func diagState(s *Scheduler, n int) string {
	A := &s.acs[be]
	var sb strings.Builder
	sb.WriteString("[")
	for qi := A.list.first; qi >= 0; qi = s.queues[qi].next {
		fmt.Fprintf(&sb, "%d", s.queues[qi].sta)
	}
	if s.prod {
		sb.WriteString(" w")
		for i := range n {
			a := s.airOf(uint16(i+1), be)
			if a.wLevel >= 0 {
				fmt.Fprintf(&sb, " %d@%d", i+1, a.t)
			}
		}
		fmt.Fprintf(&sb, " V%d b", A.wheel.v)
		for qi := A.block.first; qi >= 0; qi = s.queues[qi].next {
			fmt.Fprintf(&sb, "%d", s.queues[qi].sta)
		}
	}
	sb.WriteString("] ")
	return sb.String()
}

func diagServed(l string) string {
	l = strings.SplitN(l, " |", 2)[0]
	if i := strings.Index(l, "] "); i >= 0 {
		l = l[i+2:]
	}
	return l
}
