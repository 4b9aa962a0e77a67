package sim

import (
	"math"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/radio"
)

// With MediumConfig.SignalLoss a station's signal decides which rates get
// through: an attempt at a rate is lost with a probability that falls
// off steeply with the receiver's margin above the rate's sensitivity,
// the way a real link fails when the rate is too high for the distance.
// Rate selection then has something to settle on, and stations at
// different signals settle on different rates.

// Sensitivities in dBm: IEEE 802.11's minimum input levels for a 10 %
// PER on 1000-octet frames (OFDM and HT/VHT at 20 MHz; each doubling of
// the width needs 3 dB more), and typical DSSS/CCK receivers.
var (
	mcsSensitivity = [12]float64{-82, -79, -77, -74, -70, -66, -65, -64, -59, -57, -54, -52}
	ofdmBySpeed    = map[uint8]float64{12: -82, 18: -81, 24: -79, 36: -77, 48: -74, 72: -70, 96: -66, 108: -65}
	cckBySpeed     = map[uint8]float64{2: -90, 4: -88, 11: -86, 22: -83}
)

// sensitivity is the weakest signal at which r gets a 1000-octet frame
// through 90 % of the time.
func sensitivity(r radio.Rate) float64 {
	switch r.Mode {
	case radio.ModeLegacy:
		if v, ok := cckBySpeed[r.Legacy]; ok {
			return v
		}
		if v, ok := ofdmBySpeed[r.Legacy]; ok {
			return v
		}
		return -82
	case radio.ModeHT, radio.ModeVHT, radio.ModeHE:
		mcs := int(r.MCS)
		if r.Mode == radio.ModeHT {
			mcs %= 8
		}
		v := mcsSensitivity[min(mcs, len(mcsSensitivity)-1)]
		if i, ok := r.Bandwidth.Index(); ok {
			v += 3 * float64(i)
		}
		return v
	}
	return -82
}

// Per dB of margin the loss falls by a factor e^1.465: 10 % at the
// sensitivity, 90 % 3 dB below it, 0.1 % 3 dB above.
const (
	perSlope  = 1.465
	perOffset = 2.197 // ln 9: 10 % at zero margin
)

// signalLoss is the probability that one attempt of an n-octet frame at r
// is lost at signal dBm.
func signalLoss(r radio.Rate, signal int8, n int) float64 {
	margin := float64(signal) - sensitivity(r)
	per1000 := 1 / (1 + math.Exp(perSlope*margin+perOffset))
	return 1 - math.Pow(1-per1000, float64(n)/1000)
}

// uplinkRate is the rate a station's own rate control would settle on at
// signal dBm: the fastest of rates with at least 5 dB of margin (a loss
// below 1e-4), else the most robust.
func uplinkRate(rates []radio.Rate, signal int8) radio.Rate {
	best, robust := radio.Rate{}, radio.Rate{}
	for _, r := range rates {
		if robust.Mode == radio.ModeNone || sensitivity(r) < sensitivity(robust) {
			robust = r
		}
		if float64(signal)-sensitivity(r) >= 5 && r.Kbps() > best.Kbps() {
			best = r
		}
	}
	if best.Mode == radio.ModeNone {
		return robust
	}
	return best
}

// stationRates are the rates a station of cfg may send in the BSS: the
// BSS's legacy rates, and the single-stream MCSs of the PHY both use.
func (s *Sim) stationRates(cfg StationConfig) []radio.Rate {
	c := s.core.Config()
	var out []radio.Rate
	for _, k := range c.Rates {
		out = append(out, radio.LegacyRate(k))
	}
	phy := s.bssPHY(cfg)
	switch {
	case cfg.VHT && phy.VHT:
		for mcs := range uint8(10) {
			out = append(out, radio.Rate{Mode: radio.ModeVHT, MCS: mcs, NSS: 1, Bandwidth: radio.Bandwidth(phy.Width), ShortGI: true})
		}
	case (cfg.HT || cfg.VHT) && phy.HT:
		for mcs := range uint8(8) {
			out = append(out, radio.Rate{Mode: radio.ModeHT, MCS: mcs, Bandwidth: radio.Bandwidth(min(phy.Width, 40)), ShortGI: true})
		}
	}
	return out
}

// bssPHY is the PHY a station of cfg uses in the BSS it joins (its
// BSSID's, else its SSID's), as it reads it from that BSS's beacon: the
// radio's less the HT or VHT the BSS turns off, and no HT without WMM on
// both sides (mac80211 stations drop HT without it).
func (s *Sim) bssPHY(cfg StationConfig) bss.PHY {
	c := s.core.Config()
	i, wmm := 0, c.WMM
	for k, b := range c.BSSes {
		if cfg.BSSID == b.BSSID || cfg.BSSID.IsZero() && cfg.SSID == b.SSID {
			i, wmm = k+1, !b.NoWMM
			break
		}
	}
	p := c.BSSPHY(i)
	if !wmm || cfg.NoWMM {
		p.HT, p.VHT = false, false
	}
	return p
}
