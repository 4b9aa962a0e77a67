package inject

import (
	"testing"

	"github.com/airq/airq/internal/netnstest"
)

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
