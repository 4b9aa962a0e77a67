package shell

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/radio/radiotest"
	"github.com/airq/airq/scan"
)

// TestRunCarriesOutScanRetunes: with background scanning on, Run hands the
// core's retune requests to the retuner, away and home again, and the core
// keeps beaconing.
func TestRunCarriesOutScanRetunes(t *testing.T) {
	core, err := ap.New(ap.Config{SSID: "rt", BSSID: bssid, Channel: 1, Scan: &ap.ScanConfig{
		Planner: scan.Config{Channels: []scan.Channel{{Freq: 2437}, {Freq: 2462}}, MinHome: 20 * time.Millisecond},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var calls []int
	homes := 0
	retuner := func(freq int, home bool) error {
		mu.Lock()
		defer mu.Unlock()
		calls = append(calls, freq)
		if home {
			homes++
		}
		return nil
	}
	dev, wired := radiotest.New(), radiotest.New()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, core, dev, wired, slog.New(slog.NewTextHandler(io.Discard, nil)), nil, WithRetuner(retuner))
	}()
	waitFor(t, "a trip away and home", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return homes >= 1 && len(calls) >= 2
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if calls[0] == 2412 || calls[len(calls)-1] != 2412 && homes == 0 {
		t.Errorf("retunes %v", calls)
	}
	if got := sent(t, dev.Written())[8]; len(got) == 0 {
		t.Error("no beacons")
	}
}
