package aql

import (
	"testing"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

var benchRates = [...]radio.Rate{
	{Mode: radio.ModeVHT, Bandwidth: radio.BW80, NSS: 1, MCS: 9, ShortGI: true},
	{Mode: radio.ModeVHT, Bandwidth: radio.BW160, NSS: 2, MCS: 7},
	{Mode: radio.ModeHT, Bandwidth: radio.BW40, MCS: 15, ShortGI: true},
	{Mode: radio.ModeHT, Bandwidth: radio.BW20, MCS: 3},
	{Mode: radio.ModeLegacy, Legacy: 2, Bandwidth: radio.BW20},
	{Mode: radio.ModeLegacy, Legacy: 22, ShortPre: true, Bandwidth: radio.BW20},
	{Mode: radio.ModeLegacy, Legacy: 108, Bandwidth: radio.BW20},
	{Mode: radio.ModeVHT, Bandwidth: radio.BW20, NSS: 3, MCS: 9, LDPC: true},
}

var benchLens = [...]int{64, 1534, 300, 3000, 120, 1500, 800, 7935}

var sink uint32

func TestZeroAllocs(t *testing.T) {
	tr := New(Config{})
	e := NewEstimator(DefaultChannel())
	var tok Token
	checks := map[string]func(){
		"Airtime": func() {
			sink += e.Airtime(benchRates[0], ieee80211.ACBE, 1500)
		},
		"KernelCharge": func() {
			sink += KernelCharge(benchRates[1], 1500, true)
		},
		"Add/Complete": func() {
			tok = tr.Add(12, ieee80211.ACBE, 300)
			tr.Complete(&tok)
		},
		"checks": func() {
			if tr.PHYAllows(ieee80211.ACBE, 3) && tr.StationAllows(12, ieee80211.ACBE) && tr.CanSend(ieee80211.ACBE) {
				sink += uint32(tr.StationPending(12, ieee80211.ACBE))
			}
		},
		"RemoveStation": func() { tr.RemoveStation(12) },
	}
	for name, f := range checks {
		if n := testing.AllocsPerRun(1000, f); n != 0 {
			t.Errorf("%s: %v allocs per run, want 0", name, n)
		}
	}
}

func BenchmarkAirtime(b *testing.B) {
	e := NewEstimator(DefaultChannel())
	b.ReportAllocs()
	var s uint32
	for i := 0; b.Loop(); i++ {
		j := i & 7
		s += e.Airtime(benchRates[j], ieee80211.AC(i&3), benchLens[j])
	}
	sink = s
}

func BenchmarkKernelExpected(b *testing.B) {
	b.ReportAllocs()
	var s uint32
	for i := 0; b.Loop(); i++ {
		j := i & 7
		s += KernelCharge(benchRates[j], benchLens[j], i&3 != 0)
	}
	sink = s
}

// BenchmarkAccounting is one frame's life in the tracker: the scheduler's
// checks, Add at registration, Complete at the echo.
func BenchmarkAccounting(b *testing.B) {
	tr := New(Config{})
	var ring [64]Token
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sta := uint16(1 + i%MaxStation)
		ac := ieee80211.AC(i & 3)
		slot := &ring[i&63]
		if slot.Live() {
			tr.Complete(slot)
		}
		if tr.PHYAllows(ac, 8) && tr.StationAllows(sta, ac) && tr.CanSend(ac) {
			_ = tr.StationPending(sta, ac)
		}
		*slot = tr.Add(sta, ac, 300)
	}
}
