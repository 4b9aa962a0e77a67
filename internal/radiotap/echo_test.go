package radiotap

import (
	"testing"

	"github.com/airq/airq/radio"
)

// echoSeeds are echoes in each of mac80211's layouts, as hwsim sends them
// and as AppendEcho writes them.
func echoSeeds(tb testing.TB) [][]byte {
	seeds := [][]byte{unhex(tb, hwsimEcho), unhex(tb, hwsimEchoFail), unhex(tb, hwsimEchoMCS), unhex(tb, hwsimEchoVHT)}
	for _, r := range []radio.Rate{{}, {Mode: radio.ModeLegacy, Legacy: 108}, {Mode: radio.ModeHT, MCS: 7, Bandwidth: radio.BW40, ShortGI: true},
		{Mode: radio.ModeVHT, MCS: 9, NSS: 2, Bandwidth: radio.BW80}} {
		seeds = append(seeds, AppendEcho(nil, radio.TxStatus{Rate: r, Retries: 3, Flags: TxFlagRTS}))
	}
	return seeds
}

// TestEchoLayoutTaken: every echo layout mac80211 writes takes the
// fixed-offset path, so the fuzz target below compares something.
func TestEchoLayoutTaken(t *testing.T) {
	for _, b := range echoSeeds(t) {
		h, err := header(b)
		if err != nil {
			t.Fatal(err)
		}
		var s state
		if !s.echoLayout(h) {
			t.Errorf("% x: not read as an echo layout", b)
		}
	}
}

// FuzzEchoLayout: wherever the fixed-offset reader takes a header, the
// general walk reads the same fields from it.
func FuzzEchoLayout(f *testing.F) {
	for _, b := range echoSeeds(f) {
		f.Add(b)
		f.Add(append(b[:len(b):len(b)], 0xaa, 0xbb)) // a frame behind the header
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := header(b)
		if err != nil {
			return
		}
		var fast, slow state
		if !fast.echoLayout(h) {
			return
		}
		if err := slow.walk(h); err != nil {
			t.Fatalf("% x: the walk fails (%v) where the echo layout read %+v", h, err, fast)
		}
		if fast != slow {
			t.Fatalf("% x:\necho layout %+v\n       walk %+v", h, fast, slow)
		}
	})
}
