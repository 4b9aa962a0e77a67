package sim

import (
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/scan"
)

func TestSignalLossCurve(t *testing.T) {
	mcs7 := radio.Rate{Mode: radio.ModeHT, MCS: 7, Bandwidth: radio.BW20}
	for _, c := range []struct {
		signal   int8
		lo, hi   float64
		rate     radio.Rate
		octets   int
		describe string
	}{
		{-64, 0.09, 0.11, mcs7, 1000, "at the sensitivity"},
		{-67, 0.85, 0.95, mcs7, 1000, "3 dB below"},
		{-61, 0.0005, 0.002, mcs7, 1000, "3 dB above"},
		{-50, 0, 1e-6, mcs7, 1538, "far above"},
		{-64, 0.12, 0.2, mcs7, 1538, "a longer frame"},
		{-61, 0.09, 0.11, radio.Rate{Mode: radio.ModeHT, MCS: 7, Bandwidth: radio.BW40}, 1000, "40 MHz needs 3 dB more"},
		{-82, 0.09, 0.11, radio.LegacyRate(6000), 1000, "6 Mbit/s"},
	} {
		if got := signalLoss(c.rate, c.signal, c.octets); got < c.lo || got > c.hi {
			t.Errorf("%s: %d dBm: loss %.5f, want %.4f-%.4f", c.describe, c.signal, got, c.lo, c.hi)
		}
	}
	rates := []radio.Rate{radio.LegacyRate(6000), radio.LegacyRate(24000), radio.LegacyRate(54000)}
	for _, c := range []struct {
		signal int8
		want   int
	}{{-50, 54000}, {-69, 24000}, {-80, 6000}, {-95, 6000}} {
		if got := uplinkRate(rates, c.signal).Kbps(); got != c.want {
			t.Errorf("uplink at %d dBm: %d kbit/s, want %d", c.signal, got, c.want)
		}
	}
}

// Three stations at three signals, each with more downlink traffic than
// the channel carries: rate selection settles on three different rates,
// and the airtime scheduler gives each the same airtime, within 10 %.
func TestThreeSignalsThreeRates(t *testing.T) {
	s, err := New(Config{Seed: 21, AP: ap.Config{Channel: 36, WMM: true, PHY: bss.PHY{HT: true, SGI20: true}},
		Medium: MediumConfig{SignalLoss: true}})
	if err != nil {
		t.Fatal(err)
	}
	h := s.AddHost(HostConfig{})
	signals := []int8{-55, -69, -77}
	var stas []*Station
	for i, sig := range signals {
		stas = append(stas, s.AddStation(StationConfig{HT: true, Signal: sig, Start: time.Duration(i) * time.Millisecond}))
	}
	for s.Now() < 2*time.Second && associated(s) < len(stas) {
		s.Run(10 * time.Millisecond)
	}
	for _, st := range stas {
		s.UDP(h, st, UDPConfig{Size: 1400, Interval: 200 * time.Microsecond}) // 56 Mbit/s offered each
	}
	s.Run(2 * time.Second) // rate selection settles
	before := s.Control(ctl.Request{Op: ctl.OpStationDump}).Stations
	s.Run(5 * time.Second)
	after := s.Control(ctl.Request{Op: ctl.OpStationDump}).Stations
	if len(before) != 3 || len(after) != 3 {
		t.Fatalf("%d and %d stations", len(before), len(after))
	}
	var air [3]float64
	var mean float64
	seen := map[ctl.Bitrate]int8{}
	for i := range after {
		air[i] = float64(after[i].TxAirtime - before[i].TxAirtime)
		mean += air[i] / 3
		r := after[i].TxRate
		t.Logf("%d dBm: %s, airtime %.0f ms, %.1f Mbit/s down", signals[i], r.AppendIW(nil), air[i]/1000,
			float64(after[i].TxBytes-before[i].TxBytes)*8/5e6)
		if other, dup := seen[r]; dup {
			t.Errorf("%d dBm and %d dBm settled on the same rate %s", other, signals[i], r.AppendIW(nil))
		}
		seen[r] = signals[i]
	}
	if !(after[0].TxRate.MCS > after[1].TxRate.MCS && after[1].TxRate.MCS > after[2].TxRate.MCS) {
		t.Errorf("rates do not fall with the signal: %v %v %v", after[0].TxRate.MCS, after[1].TxRate.MCS, after[2].TxRate.MCS)
	}
	for i, a := range air {
		if a < 0.9*mean || a > 1.1*mean {
			t.Errorf("%d dBm: airtime %.0f µs, mean %.0f µs: not within 10 %%", signals[i], a, mean)
		}
	}
}

// Retunes that take longer than planned by a random amount still end
// every trip before the next beacon.
func TestRetuneJitter(t *testing.T) {
	const jitter = time.Millisecond
	s, err := New(Config{Seed: 4, AP: ap.Config{Channel: 36, WMM: true, Scan: &ap.ScanConfig{
		Planner: scan.Config{Channels: USChannels(), Retune: DefaultRetuneTime + jitter}}},
		Medium: MediumConfig{RetuneJitter: jitter}})
	if err != nil {
		t.Fatal(err)
	}
	s.Run(10 * time.Second)
	st := s.Core().ScanStats()
	if st.Retunes < 50 || st.RetuneMax <= DefaultRetuneTime || st.RetuneMax >= DefaultRetuneTime+jitter {
		t.Errorf("%d retunes, the longest %v: want some above %v, none above %v", st.Retunes, st.RetuneMax,
			DefaultRetuneTime, DefaultRetuneTime+jitter)
	}
	if st.Planner.MissedBeacons != 0 || st.RetuneTooSlow != 0 {
		t.Errorf("missed beacons %d, retunes too slow %d", st.Planner.MissedBeacons, st.RetuneTooSlow)
	}
}
