package inject

import (
	"testing"

	"github.com/airq/airq/internal/netnstest"
)

// TestIntegrationBatchAllocs: a frame written on one Device and read on
// another costs no allocation: both run for every frame a flood brings,
// and their garbage would set the collector's pace.
func TestIntegrationBatchAllocs(t *testing.T) {
	netnstest.Enter(t)
	vethPair(t, "air0", "air1")
	tx, err := Open("air0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	rx, err := Open("air1", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rx.Close()
	netnstest.WaitRunning(t, "air0", "air1")
	out := [][]byte{testFrame('a', 1, 256)}
	bufs, sizes := [][]byte{make([]byte, 2048)}, make([]int, 1)
	n := testing.AllocsPerRun(200, func() {
		if n, err := tx.WriteBatch(out); n != 1 || err != nil {
			t.Fatalf("WriteBatch = %d, %v", n, err)
		}
		if n, err := rx.ReadBatch(bufs, sizes); n != 1 || err != nil {
			t.Fatalf("ReadBatch = %d, %v", n, err)
		}
	})
	if n != 0 {
		t.Errorf("%v allocations per frame written and read", n)
	}
}

// TestIntegrationCountersAllocs: the counters the shell reads every second
// (KernelDrops, FilterCounts) and the ring reader's periodic error check
// allocate nothing: their garbage would grow an idle or flooded daemon's
// heap toward the collector's goal.
func TestIntegrationCountersAllocs(t *testing.T) {
	netnstest.Enter(t)
	vethPair(t, "air0", "air1")
	d, err := Open("air1", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, _, ok := d.FilterCounts(); !ok {
		t.Fatal("FilterCounts cannot tell")
	}
	if n := testing.AllocsPerRun(100, func() {
		d.KernelDrops()
		d.FilterCounts()
	}); n != 0 {
		t.Errorf("%v allocations per reading of the counters", n)
	}
	if slots, why := d.Ring(); slots == 0 {
		t.Fatalf("no receive ring: %v", why)
	}
	if n := testing.AllocsPerRun(100, func() {
		if err := d.socketError(); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations per socket error check", n)
	}
}
