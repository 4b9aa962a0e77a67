package shell

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"testing/synctest"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/radio/radiotest"
)

// slowRadio is a radio whose writes take frameCost a frame, as the e2e
// VM's do when a write runs the receiving station's stack.
type slowRadio struct {
	*radiotest.Device
	frameCost time.Duration
}

func (r slowRadio) WriteBatch(bufs [][]byte) (int, error) {
	time.Sleep(r.frameCost * time.Duration(len(bufs)))
	return r.Device.WriteBatch(bufs)
}

// Batches of frames that each cost the loop 1 ms (a probe response
// written for each) reach the core in pieces of about turnBudget, and the
// loop turns between them: the loop latency probe, due every 20 ms while
// 224 ms of such frames wait, is never served more than a few
// milliseconds late. Taken whole, each batch held the loop 32 ms and the
// next one followed at once (the probe came 125 ms late).
func TestRunTurnsBetweenPiecesOfCostlyBatches(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const frameCost = time.Millisecond
		core, err := ap.New(ap.Config{SSID: "rt", BSSID: bssid, Channel: 1, ReplyAirtime: 1})
		if err != nil {
			t.Fatal(err)
		}
		dev, wired := slowRadio{radiotest.New(), frameCost}, radiotest.New()
		srv := newControlServer(nil, "", nil)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() {
			done <- Run(ctx, core, dev, wired, slog.New(slog.NewTextHandler(io.Discard, nil)), nil, WithControl(srv))
		}()
		var lates []time.Duration
		probed := make(chan struct{})
		go func() {
			defer close(probed)
			srv.ProbeLoop(ctx, 20*time.Millisecond, func(d time.Duration) { lates = append(lates, d) })
		}()
		rt := radiotap.AppendRx(nil, radio.RxInfo{Freq: 2412, Signal: -50, HasSignal: true})
		probes := func(from, to int) {
			for i := from; i < to; i++ {
				addr := ieee80211.MAC{2, 0, 0, 1, byte(i >> 8), byte(i)}
				dev.Inject(append(append([]byte(nil), rt...), ieee80211.AppendProbeReq(nil, addr, "", []byte{0x82, 0x84, 0x8b, 0x96}, 1)...))
			}
		}
		// The first batch goes whole: the loop learns what a frame costs.
		probes(0, batchSize)
		time.Sleep(time.Second) // virtual: that batch, then beaconing, probed
		synctest.Wait()
		idle := len(lates)
		probes(batchSize, 8*batchSize)
		time.Sleep(time.Second)
		synctest.Wait()
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		<-probed
		// (the reply budget holds back some: fewer when the frames
		// are handled at the times they come to)
		if got := len(sent(t, dev.Written())[ieee80211.SubtypeProbeResp]); got < 4*batchSize {
			t.Fatalf("%d probe responses written, want at least %d", got, 4*batchSize)
		}
		busy := lates[idle:]
		if len(busy) < 10 {
			t.Fatalf("%d probes while the frames were handled, want at least 10 (all: %v)", len(busy), lates)
		}
		for _, d := range busy {
			if d > turnBudget+3*frameCost {
				t.Errorf("a probe served %v late, want at most %v (all: %v)", d, turnBudget+3*frameCost, busy)
				break
			}
		}
	})
}
