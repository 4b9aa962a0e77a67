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
