package shell

import (
	"io"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/pcap"
	"github.com/airq/airq/radio/radiotest"
)

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// A capture (-pcap) wraps the radio; its kernel counters still reach the
// core.
func TestReadDropsThroughCapture(t *testing.T) {
	core, err := ap.New(ap.Config{SSID: "rt", BSSID: bssid, Channel: 1})
	if err != nil {
		t.Fatal(err)
	}
	w, err := pcap.NewWriter(nopCloser{io.Discard}, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	dev, wired := radiotest.New(), radiotest.New()
	dev.Drops, dev.Received, dev.Passed, wired.Drops = 4, 9, 5, 1
	readDrops(core, pcap.Tap(dev, w, time.Now), []Wired{wired})
	if c := core.Counters(); c[counter.RadioLostInKernel] != 4 || c[counter.RadioFiltered] != 4 || c[counter.WiredLostInKernel] != 1 {
		t.Errorf("through the capture: radio lost %d, filtered %d, wired lost %d", c[counter.RadioLostInKernel],
			c[counter.RadioFiltered], c[counter.WiredLostInKernel])
	}
}
