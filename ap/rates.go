package ap

import (
	"slices"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// rateSet is the AP's legacy rate list, in ascending order, and the element
// bytes that advertise it.
type rateSet struct {
	kbps  []int
	basic uint16 // bitmask over kbps
	ofdm  uint16 // bitmask over kbps: the OFDM rates
	ie    []byte // 500 kbit/s units, 0x80 on basic rates
}

func newRateSet(rates, basic []int) rateSet {
	r := rateSet{kbps: slices.Clone(rates)}
	slices.Sort(r.kbps)
	for i, k := range r.kbps {
		b := byte(k / 500)
		if slices.Contains(basic, k) {
			r.basic |= 1 << i
			b |= 0x80
		}
		if k != 1000 && k != 2000 && k != 5500 && k != 11000 {
			r.ofdm |= 1 << i
		}
		r.ie = append(r.ie, b)
	}
	return r
}

// parse returns the mask of our rates a station lists in its Supported and
// Extended Supported Rates elements (membership selectors such as the HT
// PHY selector are ignored).
func (r *rateSet) parse(ies ieee80211.Elements) uint16 {
	var mask uint16
	for _, id := range [2]uint8{ieee80211.ElemSupportedRates, ieee80211.ElemExtSupportedRates} {
		body, ok := ies.Find(id)
		if !ok {
			continue
		}
		for _, b := range body {
			k := int(b&0x7f) * 500
			if i := slices.Index(r.kbps, k); i >= 0 {
				mask |= 1 << i
			}
		}
	}
	return mask
}

// best returns the highest rate of mask; the station advertised it, so it
// can receive it.
func (r *rateSet) best(mask uint16) radio.Rate {
	for i := len(r.kbps) - 1; i >= 0; i-- {
		if mask&(1<<i) != 0 {
			return radio.LegacyRate(r.kbps[i])
		}
	}
	return r.lowestBasic()
}

// lowestBasic is the rate for management and group frames: every station in
// the BSS can receive it.
func (r *rateSet) lowestBasic() radio.Rate {
	for i, k := range r.kbps {
		if r.basic&(1<<i) != 0 {
			return radio.LegacyRate(k)
		}
	}
	return radio.LegacyRate(r.kbps[0])
}
