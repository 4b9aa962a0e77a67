package answered

import (
	"math/rand/v2"
	"testing"
	"time"
)

func mac(i int) [6]byte { return [6]byte{2, 0, 0, byte(i >> 16), byte(i >> 8), byte(i)} }

// TestFloodWithinBudgetKeepsYoungEntries answers one station, then a
// flood at the budget's rate: the station is remembered for the whole
// window, and forgotten after it.
func TestFloodWithinBudgetKeepsYoungEntries(t *testing.T) {
	const rate, burst, window = 400, 100, time.Second
	r := New(Size(rate, burst, window), window, 7)
	sta := mac(-1)
	var now time.Duration
	for i := range burst { // the budget's burst, spent just before
		r.Add(now, mac(i))
	}
	r.Add(now, sta)
	step := time.Second / rate
	for i := 0; now+step <= window; i++ {
		now += step
		r.Add(now, mac(burst+i))
		if !r.Has(now, sta) {
			t.Fatalf("station evicted %v after its answer, %d answers later", now, i+1)
		}
	}
	if r.Has(window+time.Nanosecond, sta) {
		t.Error("station remembered beyond the window")
	}
}

// TestFloodBeyondBudgetOnlyEvicts: a flood faster than the record was
// sized for pushes entries out; it never grows the record.
func TestFloodBeyondBudgetOnlyEvicts(t *testing.T) {
	r := New(64, time.Second, 1)
	r.Add(0, mac(-1))
	for i := range 10000 {
		r.Add(0, mac(i))
	}
	if r.Has(0, mac(-1)) || !r.Has(0, mac(9999)) || r.Len() != 64 {
		t.Errorf("len %d", r.Len())
	}
}

func TestForget(t *testing.T) {
	r := New(16, time.Second, 1)
	r.Add(0, mac(1))
	r.Add(1, mac(1))
	r.Add(2, mac(2))
	r.Forget(3, mac(1))
	if r.Has(3, mac(1)) || !r.Has(3, mac(2)) {
		t.Error("forget")
	}
	r.Add(4, mac(1))
	if !r.Has(4, mac(1)) {
		t.Error("a new answer after Forget")
	}
}

// TestAgainstModel checks random answers, lookups and forgets against a
// map that keeps everything: while fewer answers than the record holds
// were made within the window, the two agree.
func TestAgainstModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		size := 1 + rng.IntN(64)
		window := time.Duration(1+rng.IntN(100)) * time.Millisecond
		r := New(size, window, rng.Uint32())
		last := map[[6]byte]time.Duration{}
		var times []time.Duration // every answer's time, for how many are in the window
		var now time.Duration
		for range 2000 {
			now += time.Duration(rng.IntN(3)) * time.Millisecond
			a := mac(rng.IntN(40))
			switch rng.IntN(4) {
			case 0, 1:
				r.Add(now, a)
				last[a] = now
				times = append(times, now)
			case 2:
				r.Forget(now, a)
				delete(last, a)
			}
			in := 0
			for _, at := range times {
				if now-at <= window {
					in++
				}
			}
			at, ok := last[a]
			want := ok && now-at <= window
			if got := r.Has(now, a); in <= size && got != want {
				t.Fatalf("round %d: Has(%v) %v, want %v (%d in window, size %d)", round, a, got, want, in, size)
			} else if got && !want {
				t.Fatalf("round %d: Has(%v) true for an address not answered in the window", round, a)
			}
		}
	}
}

func TestAllocs(t *testing.T) {
	r := New(Size(1000, 0, time.Second), time.Second, 3)
	i := 0
	if n := testing.AllocsPerRun(1000, func() {
		i++
		r.Add(time.Duration(i)*time.Millisecond, mac(i))
		r.Has(time.Duration(i)*time.Millisecond, mac(i/2))
		r.Forget(time.Duration(i)*time.Millisecond, mac(i/3))
	}); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

func BenchmarkAddHas(b *testing.B) {
	r := New(Size(4000, 1000, time.Second), time.Second, 3)
	b.ReportAllocs()
	for i := range b.N {
		now := time.Duration(i) * 250 * time.Microsecond
		r.Add(now, mac(i))
		r.Has(now, mac(i^0x55))
	}
}
