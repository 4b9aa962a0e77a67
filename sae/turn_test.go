package sae

import "testing"

// The BSSes take turns, each one's jobs oldest first: after BSS 2's job,
// BSS 3's oldest, then around to BSS 1's, whatever order they came in.
func TestNextInTurn(t *testing.T) {
	b1, b2, b3 := MAC{2, 0, 0, 0, 0, 1}, MAC{2, 0, 0, 0, 0, 2}, MAC{2, 0, 0, 0, 0, 3}
	queue := []MAC{b1, b1, b2, b3, b1, b3}
	id := func(m MAC) MAC { return m }
	for _, c := range []struct {
		last MAC
		want int
	}{{b2, 3}, {b3, 0}, {b1, 2}, {MAC{}, 0}, {MAC{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 0}} {
		if got := NextInTurn(queue, id, c.last); got != c.want {
			t.Errorf("after %v: job %d, want %d", c.last, got, c.want)
		}
	}
	var served []MAC
	last := b1
	for len(queue) > 0 {
		i := NextInTurn(queue, id, last)
		last = queue[i]
		served = append(served, last)
		queue = append(queue[:i], queue[i+1:]...)
	}
	want := []MAC{b2, b3, b1, b3, b1, b1}
	for i := range want {
		if served[i] != want[i] {
			t.Fatalf("served %v, want %v", served, want)
		}
	}
	if NextInTurn(nil, id, b1) != -1 {
		t.Error("a job picked from an empty queue")
	}
	if n := testing.AllocsPerRun(100, func() { NextInTurn(want, id, b2) }); n != 0 && !raceEnabled {
		t.Errorf("%v allocations a pick", n)
	}
}
