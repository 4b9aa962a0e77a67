package shell

import (
	"testing"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/radio"
)

// readBuffersMax bounds what the readers' batches hold for good: they are
// live heap from start-up on, and the collector's goal is twice that.
const readBuffersMax = 4 << 20

// TestReadBuffersBounded: the readers' buffers fit what the core takes
// (a wired frame longer than the core's largest arrives truncated and is
// dropped), so they stay a few MiB.
func TestReadBuffersBounded(t *testing.T) {
	total := numBatches * batchSize * (radio.MaxFrame + wiredMax)
	t.Logf("read buffers: %d KiB (radio %d, wired %d bytes each)", total>>10, radio.MaxFrame, wiredMax)
	if total > readBuffersMax {
		t.Errorf("read buffers hold %d KiB, want at most %d KiB", total>>10, readBuffersMax>>10)
	}
	if wiredMax <= ap.MaxWiredFrame {
		t.Errorf("wired buffers of %d bytes cannot tell a frame of %d from a longer one", wiredMax, ap.MaxWiredFrame)
	}
}
