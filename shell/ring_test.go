package shell

import (
	"sync"
	"testing"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/radio/radiotest"
)

// lendingRadio lends its frames as views, like inject.Device's receive
// ring: a released view is overwritten at once, as the kernel would refill
// its slot.
type lendingRadio struct {
	*radiotest.Device
	slots int

	mu       sync.Mutex
	lent     [][]byte // oldest first
	viewed   int      // frames ReadViews lent
	released int
}

func (r *lendingRadio) Ring() (int, error) { return r.slots, nil }

func (r *lendingRadio) ReadViews(views [][]byte, sizes []int) (int, error) {
	own := make([][]byte, len(views))
	for i := range own {
		own[i] = make([]byte, radio.MaxFrame)
	}
	n, err := r.Device.ReadBatch(own, sizes)
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range n {
		views[i] = own[i][:sizes[i]]
		r.lent = append(r.lent, views[i])
	}
	r.viewed += n
	return n, err
}

func (r *lendingRadio) Release(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range r.lent[:n] {
		for i := range v {
			v[i] = 0xee
		}
	}
	r.lent = r.lent[n:]
	r.released += n
}

func (r *lendingRadio) counts() (viewed, released, lent int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.viewed, r.released, len(r.lent)
}

// TestRunLendsRingFrames: with a ring that can hold every batch in flight,
// the loop hands the core the radio's own views and releases each batch
// only after the core has handled it (a view released early would be
// overwritten and the probe request not answered); with a smaller ring it
// reads copies.
func TestRunLendsRingFrames(t *testing.T) {
	for _, tt := range []struct {
		slots int
		lend  bool
	}{{2 * numBatches * batchSize, true}, {2*numBatches*batchSize - 1, false}} {
		core, err := ap.New(ap.Config{SSID: "rt", BSSID: bssid, Channel: 6})
		if err != nil {
			t.Fatal(err)
		}
		dev := &lendingRadio{Device: radiotest.New(), slots: tt.slots}
		stop := goRun(core, dev, radiotest.New())
		probe(t, dev.Device)
		waitFor(t, "the batch's release", func() bool {
			viewed, released, lent := dev.counts()
			return !tt.lend || (viewed == 1 && released == 1 && lent == 0)
		})
		if err := stop(); err != nil {
			t.Fatalf("Run: %v", err)
		}
		if viewed, released, _ := dev.counts(); !tt.lend && (viewed != 0 || released != 0) {
			t.Errorf("%d slots: %d frames lent, %d released; want copies", tt.slots, viewed, released)
		}
	}
}
