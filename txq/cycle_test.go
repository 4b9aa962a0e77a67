package txq

import (
	"math/rand/v2"
	"testing"
)

// TestCycleLabels inserts queues at the cursor, head and tail, far more
// often at one spot than the labels' halvings allow, moves the cursor and
// removes queues; after every operation labels must increase strictly
// along the list, and the cycle must be the one a plain slice model holds.
func TestCycleLabels(t *testing.T) {
	const stations = 2000
	s := mustNew(t, Config{Airtime: openAirtime{}, Owner: &owner{}, MaxStations: stations})
	A := &s.acs[be]
	r := rand.New(rand.NewPCG(1, 2))
	var model []int32 // the cycle from the front
	var free []int32
	for sta := 1; sta <= stations; sta++ {
		free = append(free, s.queueIndex(uint16(sta), 0))
	}
	relabels := 0
	for op := range 30000 {
		p := r.IntN(10)
		if op >= 20000 {
			p = 0 // at the end, inserts only: one spot runs out of room
		}
		switch {
		case p < 5 && len(free) > 0:
			qi := free[len(free)-1]
			free = free[:len(free)-1]
			head := r.IntN(2) == 0 || op >= 20000
			if A.front >= 0 {
				f := &s.queues[A.front]
				if f.label-s.labelBefore(f) < 2 {
					relabels++
				}
			}
			s.cycleInsert(A, qi, head)
			if head {
				model = append([]int32{qi}, model...)
			} else {
				model = append(model, qi)
			}
		case p < 8 && len(model) > 0:
			// The walk passes the front: the kernel's list_move_tail.
			lap := A.lap
			A.front = s.queues[A.front].next
			if A.front < 0 {
				A.front, A.lap = A.list.first, lap+1
			}
			model = append(model[1:], model[0])
		case len(model) > 0:
			i := r.IntN(len(model))
			s.cycleRemove(A, model[i])
			free = append(free, model[i])
			model = append(model[:i], model[i+1:]...)
		}
		if len(model) == 0 {
			if A.front != -1 {
				t.Fatalf("op %d: empty cycle with front %d", op, A.front)
			}
			continue
		}
		var prev uint64
		n := 0
		for qi := A.list.first; qi >= 0; qi = s.queues[qi].next {
			if l := s.queues[qi].label; l <= prev {
				t.Fatalf("op %d: labels not increasing: %d after %d", op, l, prev)
			} else {
				prev = l
			}
			n++
		}
		if n != len(model) || A.front != model[0] {
			t.Fatalf("op %d: %d listed, front %d; model %d, front %d", op, n, A.front, len(model), model[0])
		}
		qi := A.front
		for i := range model {
			if qi != model[i] {
				t.Fatalf("op %d: cycle differs from the model at %d", op, i)
			}
			if qi = s.queues[qi].next; qi < 0 {
				qi = A.list.first
			}
		}
	}
	if relabels < 5 {
		t.Fatalf("%d relabels exercised", relabels)
	}
	t.Logf("%d relabels", relabels)
}

// TestStationHeap checks the heap against a scan for the minimum under
// random inserts, key changes and removals.
func TestStationHeap(t *testing.T) {
	const n = 300
	s := mustNew(t, Config{Airtime: openAirtime{}, Owner: &owner{}, MaxStations: n})
	A := &s.acs[be]
	r := rand.New(rand.NewPCG(3, 4))
	for sta := 1; sta <= n; sta++ {
		s.queues[s.queueIndex(uint16(sta), 0)].label = r.Uint64()
	}
	for op := range 50000 {
		sta := uint16(1 + r.IntN(n))
		ai := s.airIndex(sta, be)
		a := &s.airs[ai]
		if r.IntN(4) == 0 {
			s.heapDrop(A, ai)
		} else {
			a.kq, a.kLap = s.queueIndex(sta, 0), int64(r.IntN(50))
			s.heapSet(A, int8(r.IntN(numHeaps)), ai, a)
		}
		for hp := range A.heaps {
			h := &A.heaps[hp]
			var best *stop
			for i := range h.e {
				if best == nil || h.e[i].before(best) {
					best = &h.e[i]
				}
			}
			if best != nil && h.top() != best.ai {
				t.Fatalf("op %d heap %d: top %d, minimum %d", op, hp, h.top(), best.ai)
			}
		}
		if msg := checkHeaps(s); msg != "" {
			t.Fatalf("op %d: %s", op, msg)
		}
	}
}
