package eventq

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestOrder: values come out by time, and in push order within one time.
func TestOrder(t *testing.T) {
	var q Queue[int]
	if _, ok := q.Next(); ok || q.Len() != 0 {
		t.Fatal("zero queue not empty")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	type rec struct {
		at time.Duration
		i  int
	}
	var want []rec
	for i := range 2000 {
		at := time.Duration(rng.IntN(50))
		q.Push(at, i)
		want = append(want, rec{at, i})
	}
	slices.SortStableFunc(want, func(a, b rec) int { return int(a.at - b.at) })
	for k, w := range want {
		at, ok := q.Next()
		if !ok || at != w.at {
			t.Fatalf("pop %d: next %v %v, want %v", k, at, ok, w.at)
		}
		if _, v := q.Pop(); v != w.i {
			t.Fatalf("pop %d: %d, want %d (at %v)", k, v, w.i, w.at)
		}
	}
	if q.Len() != 0 {
		t.Fatalf("%d left", q.Len())
	}
}

func BenchmarkPushPop(b *testing.B) {
	var q Queue[[4]int64]
	for i := range 256 {
		q.Push(time.Duration(i*7%256), [4]int64{})
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_, v := q.Pop()
		q.Push(time.Duration(i%512), v)
	}
}
