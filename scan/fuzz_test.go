package scan

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// FuzzObserve feeds raw Beacon/Probe Response bodies to the table. The
// invariants: no panic; an accepted body leaves exactly one entry whose
// SSID and rates fit their arrays and whose channel is where it was heard
// or a valid channel of that band; the body is not retained.
func FuzzObserve(f *testing.F) {
	f.Add(beaconSpec{ssid: "neighbour", channel: 6, ht: true}.body(), uint16(2437), false)
	f.Add(beaconSpec{ssid: "ac", channel: 36, ht: true, vht: true}.body(), uint16(5180), true)
	f.Add(beaconSpec{channel: 200}.body(), uint16(5180), false)
	seeds, _ := filepath.Glob("testdata/*.body")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b, uint16(2412), false)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, freq uint16, probe bool) {
		tab := NewTable(TableConfig{MaxBSS: 4, Freqs: []int{int(freq)}})
		err := tab.Observe(1, bssA, probe, rx(int(freq), -50), body)
		b, ok := tab.Get(bssA)
		if ok != (err == nil || isTruncated(err)) {
			t.Fatalf("err %v, entry %v", err, ok)
		}
		if !ok {
			return
		}
		if b.SSIDLen > 32 || b.NRates > 16 || b.HeardFreq != int(freq) {
			t.Fatalf("entry %+v", b)
		}
		if band, okb := ieee80211.FreqBand(int(freq)); okb && b.Freq != int(freq) && ieee80211.FreqToChannel(b.Freq) == 0 {
			t.Fatalf("channel %d not in %v", b.Freq, band)
		}
		for i := range body {
			body[i] ^= 0xff
		}
		if b2, _ := tab.Get(bssA); b2 != b {
			t.Fatal("entry changed with the caller's buffer")
		}
		tab.All(nil, 1)
		tab.Surveys(nil, 1)
	})
}

func isTruncated(err error) bool { return err == ieee80211.ErrTruncated }
