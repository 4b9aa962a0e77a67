package sim

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
)

// The capture sees the frames of the core's radio seam from the first
// beacon on: what the core sends (airq's TX header: FLAGS and TX_FLAGS),
// the echoes (mac80211's TX-status header: TX_FLAGS only) and what it
// receives (mac80211's RX header: no TX_FLAGS), in time order; watching
// changes nothing in the run.
func TestCapture(t *testing.T) {
	type seen struct {
		at       time.Duration
		present  uint32
		fr       ieee80211.Frame
		received bool // no TX_FLAGS
	}
	var frames []seen
	run := func(capture func(time.Duration, []byte)) uint64 {
		s, err := New(Config{Seed: 3, Capture: capture})
		if err != nil {
			t.Fatal(err)
		}
		h := s.AddHost(HostConfig{})
		st := s.AddStation(StationConfig{Start: time.Millisecond})
		s.Run(50 * time.Millisecond)
		if !st.Associated() {
			t.Fatal("station did not associate")
		}
		s.Ping(h, st, 10*time.Millisecond, 56)
		s.Run(100 * time.Millisecond)
		return s.Hash()
	}
	with := run(func(at time.Duration, b []byte) {
		n, txFlags, err := radiotap.Parse(b, nil, nil)
		if err != nil {
			t.Fatalf("at %v: %v (%x)", at, err, b)
		}
		present := binary.LittleEndian.Uint32(b[4:])
		frames = append(frames, seen{at, present, ieee80211.Frame(append([]byte(nil), b[n:]...)), !txFlags})
	})
	if without := run(nil); with != without {
		t.Errorf("hash %x with the capture, %x without", with, without)
	}
	if len(frames) == 0 || frames[0].at != 0 || !frames[0].fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) ||
		frames[0].present&(1<<radiotap.Flags|1<<radiotap.TxFlags) != 1<<radiotap.Flags|1<<radiotap.TxFlags {
		t.Fatalf("first frame %+v, want the beacon sent at 0 with airq's TX header", frames[0])
	}
	var sent, echoes, received, data int
	for i, f := range frames {
		if i > 0 && f.at < frames[i-1].at {
			t.Errorf("frame %d at %v, after one at %v", i, f.at, frames[i-1].at)
		}
		switch {
		case f.received:
			received++
		case f.present&(1<<radiotap.Flags) != 0:
			sent++
		default:
			echoes++
		}
		if f.fr.Type() == ieee80211.TypeData {
			data++
		}
	}
	if sent == 0 || echoes == 0 || received == 0 || data == 0 || echoes > sent {
		t.Errorf("%d sent, %d echoes, %d received, %d data frames", sent, echoes, received, data)
	}
}
