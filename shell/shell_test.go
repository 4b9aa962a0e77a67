package shell

import (
	"context"
	"io"
	"log/slog"
	"runtime"
	"testing"
	"testing/synctest"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/radio/radiotest"
)

var (
	bssid = ieee80211.MAC{2, 0, 0, 0, 2, 0}
	sta   = ieee80211.MAC{2, 0, 0, 0, 1, 0}
)

// waitFor polls cond until it holds; the generous limit only bounds a
// broken run.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// sent decodes the management subtypes written to the radio so far.
func sent(t *testing.T, frames [][]byte) map[uint8][]ieee80211.Frame {
	got := map[uint8][]ieee80211.Frame{}
	for _, b := range frames {
		n, _, err := radiotap.Parse(b, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		fr, err := ieee80211.ParseFrame(b[n:])
		if err != nil {
			t.Fatal(err)
		}
		if fr.Type() == ieee80211.TypeMgmt {
			got[fr.Subtype()] = append(got[fr.Subtype()], fr)
		}
	}
	return got
}

// goRun runs Run on its own goroutine until it is beaconing; stop cancels
// it and returns its result.
func goRun(core *ap.AP, dev radio.Device, wired Wired, opts ...Option) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, core, dev, wired, slog.New(slog.NewTextHandler(io.Discard, nil)), func() { close(ready) }, opts...)
	}()
	<-ready
	return func() error { cancel(); return <-done }
}

// probe has a station's probe request reach dev and returns what the core
// wrote up to its probe response.
func probe(t *testing.T, dev *radiotest.Device) [][]byte {
	t.Helper()
	rt := radiotap.AppendRx(nil, radio.RxInfo{Freq: 2437, Signal: -50, HasSignal: true})
	dev.Inject(append(rt, ieee80211.AppendProbeReq(nil, sta, "", []byte{0x82, 0x84, 0x8b, 0x96}, 1)...))
	var frames [][]byte
	waitFor(t, "a probe response", func() bool {
		frames = append(frames, dev.Written()...)
		return len(sent(t, frames)[ieee80211.SubtypeProbeResp]) == 1
	})
	return frames
}

func TestRunServesStationsAndStopsCleanly(t *testing.T) {
	before := runtime.NumGoroutine()
	core, err := ap.New(ap.Config{SSID: "rt", BSSID: bssid, Channel: 6})
	if err != nil {
		t.Fatal(err)
	}
	dev, wired := radiotest.New(), radiotest.New()
	stop := goRun(core, dev, wired)
	frames := probe(t, dev)
	if got := sent(t, frames)[ieee80211.SubtypeBeacon]; len(got) == 0 {
		t.Error("no beacon written")
	}
	// A wired frame for nobody is taken and counted, not stuck.
	wired.Inject(append(ieee80211.AppendEtherHdr(nil, sta, ieee80211.MAC{2, 9, 9, 9, 9, 9}, 0x0800), make([]byte, 64)...))
	waitFor(t, "the wired reader to take the frame", func() bool { return wired.Pending() == 0 })

	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	frames = append(frames, dev.Written()...)
	deauths := sent(t, frames)[ieee80211.SubtypeDeauth]
	if len(deauths) == 0 || !deauths[len(deauths)-1].Addr1().IsBroadcast() {
		t.Error("no broadcast deauthentication on shutdown")
	}
	if c := core.Counters(); c[counter.WiredIn] != 1 || !core.Accounted() {
		t.Errorf("wired in %d, accounted %v", c[counter.WiredIn], core.Accounted())
	}
	// Every goroutine Run started has ended.
	waitFor(t, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
}

func TestRunReturnsDeviceErrors(t *testing.T) {
	core, err := ap.New(ap.Config{SSID: "rt", BSSID: bssid, Channel: 1})
	if err != nil {
		t.Fatal(err)
	}
	dev, wired := radiotest.New(), radiotest.New()
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), core, dev, wired, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	}()
	dev.Close() // the radio goes away under the loop
	select {
	case err := <-done:
		if err == nil {
			t.Error("Run returned nil after the radio failed")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after the radio failed")
	}
}

// TestRunReadsKernelDrops: the devices' kernel drop counters reach the
// core's counters (host frames tun dropped, receive-socket drops). It runs
// in a synctest bubble: time is virtual, so waiting for the reading costs
// nothing and cannot flake.
func TestRunReadsKernelDrops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		core, err := ap.New(ap.Config{SSID: "rt", BSSID: bssid, Channel: 1})
		if err != nil {
			t.Fatal(err)
		}
		dev, wired := radiotest.New(), radiotest.New()
		dev.Drops, wired.Drops = 3, 7
		dev.Received, dev.Passed = 50, 20 // no echoes yet: 30 shed
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- Run(ctx, core, dev, wired, slog.New(slog.NewTextHandler(io.Discard, nil)), nil) }()
		time.Sleep(dropsEvery + time.Millisecond) // virtual: one reading is due
		synctest.Wait()
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if c := core.Counters(); c[counter.WiredLostInKernel] != 7 || c[counter.RadioLostInKernel] != 3 || c[counter.RadioFiltered] != 30 {
			t.Errorf("kernel counters in the core: wired %d, radio %d, filtered %d", c[counter.WiredLostInKernel],
				c[counter.RadioLostInKernel], c[counter.RadioFiltered])
		}
	})
}
