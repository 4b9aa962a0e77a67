package bss

import (
	"slices"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// RateSet is the BSS's legacy rate list, in ascending order, and the
// element bytes that advertise it.
type RateSet struct {
	Kbps  []int
	Basic uint16 // bitmask over Kbps
	OFDM  uint16 // bitmask over Kbps: the OFDM rates
	IE    []byte // 500 kbit/s units, 0x80 on basic rates
}

// NewRateSet sorts rates and marks those of basic.
func NewRateSet(rates, basic []int) RateSet {
	r := RateSet{Kbps: slices.Clone(rates)}
	slices.Sort(r.Kbps)
	for i, k := range r.Kbps {
		b := byte(k / 500)
		if slices.Contains(basic, k) {
			r.Basic |= 1 << i
			b |= 0x80
		}
		if k != 1000 && k != 2000 && k != 5500 && k != 11000 {
			r.OFDM |= 1 << i
		}
		r.IE = append(r.IE, b)
	}
	return r
}

// Parse returns the mask of our rates a station lists in its Supported and
// Extended Supported Rates elements (membership selectors such as the HT
// PHY selector are ignored).
func (r *RateSet) Parse(ies ieee80211.Elements) uint16 {
	var mask uint16
	for _, id := range [2]uint8{ieee80211.ElemSupportedRates, ieee80211.ElemExtSupportedRates} {
		body, ok := ies.Find(id)
		if !ok {
			continue
		}
		for _, b := range body {
			k := int(b&0x7f) * 500
			if i := slices.Index(r.Kbps, k); i >= 0 {
				mask |= 1 << i
			}
		}
	}
	return mask
}

// Best returns the highest rate of mask; the station advertised it, so it
// can receive it.
func (r *RateSet) Best(mask uint16) radio.Rate {
	for i := len(r.Kbps) - 1; i >= 0; i-- {
		if mask&(1<<i) != 0 {
			return radio.LegacyRate(r.Kbps[i])
		}
	}
	return r.LowestBasic()
}

// LowestBasic is the rate for management and group frames: every station
// in the BSS can receive it.
func (r *RateSet) LowestBasic() radio.Rate {
	for i, k := range r.Kbps {
		if r.Basic&(1<<i) != 0 {
			return radio.LegacyRate(k)
		}
	}
	return radio.LegacyRate(r.Kbps[0])
}
