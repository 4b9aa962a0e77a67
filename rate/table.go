package rate

import (
	"sort"

	"github.com/airq/airq/radio"
)

// maxRates bounds the table: 12 legacy rates plus VHT MCS 0-9 for up to
// MaxNSS streams at four bandwidths (HT, at most 32 MCS at two
// bandwidths, is used only without VHT).
const maxRates = 12 + 10*MaxNSS*4

// keySpace covers every rate key: 256 legacy values, HT MCS 0-31 at two
// bandwidths and two guard intervals, VHT MCS 0-9 at NSS 1-8, four
// bandwidths and two guard intervals.
const (
	keyHT     = 256
	keyVHT    = keyHT + 32*4
	keySpace  = keyVHT + 8*10*8
	noRate    = 0xff
	bwIndices = len(radio.Bandwidths)
)

// key maps a rate to its slot in a station's index, ignoring the LDPC and
// preamble bits, which echoes may not repeat; -1 if the rate has no slot.
func key(r radio.Rate) int {
	g := 0
	if r.ShortGI {
		g = 1
	}
	bw, _ := r.Bandwidth.Index() // an unknown width keys as 20 MHz
	switch r.Mode {
	case radio.ModeLegacy:
		return int(r.Legacy)
	case radio.ModeHT:
		if r.MCS < 32 && bw < 2 {
			return keyHT + int(r.MCS)*4 + bw*2 + g
		}
	case radio.ModeVHT:
		if r.MCS < 10 && r.NSS >= 1 && r.NSS <= 8 {
			return keyVHT + ((int(r.NSS)-1)*10+int(r.MCS))*8 + bw*2 + g
		}
	}
	return -1
}

// candidates appends every rate both sides and the channel allow. For each
// MCS and bandwidth only one guard interval is offered: the short one when
// both sides support it there, since at equal MCS it is strictly faster and
// the SNR it needs is the same to within a fraction of a dB.
func (c common) candidates(dst []radio.Rate) []radio.Rate {
	for i, v := range legacyRates {
		if c.legacy&(1<<i) == 0 || (c.ht && 1<<i&ofdmMask != 0) {
			continue // with HT, MCS 0 is faster and as robust as OFDM 6 Mbit/s
		}
		dst = append(dst, radio.Rate{Mode: radio.ModeLegacy, Legacy: v, Bandwidth: radio.BW20})
	}
	for bwi := 0; bwi < bwIndices && radio.Bandwidths[bwi] <= c.maxBW; bwi++ {
		bw := radio.Bandwidths[bwi]
		switch {
		case c.vht:
			for nss := 1; nss <= MaxNSS; nss++ {
				for m := 0; m <= int(c.vhtMax[nss-1]); m++ {
					dst = append(dst, radio.Rate{Mode: radio.ModeVHT, MCS: uint8(m), NSS: uint8(nss), Bandwidth: bw,
						ShortGI: c.sgi[bwi], LDPC: c.ldpc})
				}
			}
		case c.ht && bwi < 2:
			for m := range 32 {
				if c.htMCS&(1<<m) != 0 {
					dst = append(dst, radio.Rate{Mode: radio.ModeHT, MCS: uint8(m), Bandwidth: bw,
						ShortGI: c.sgi[bwi], LDPC: c.ldpc})
				}
			}
		}
	}
	return dst
}

// build fills the station's table, fastest first, with each rate's
// one-attempt airtime and data retry count. Rates the airtime function
// does not define (VHT MCS 9 at 20 MHz for some NSS) are left out.
func (s *Station) build(c common) {
	var buf [maxRates]radio.Rate
	for _, r := range c.candidates(buf[:0]) {
		at := s.cfg.Airtime(r, s.cfg.FrameLen)
		if at == 0 || s.n == maxRates {
			continue
		}
		s.rates[s.n] = entry{rate: r, airtime: at, retries: retriesFor(at, s.cfg.MaxRetries)}
		s.n++
	}
	t := s.rates[:s.n]
	sort.SliceStable(t, func(i, j int) bool {
		if t[i].airtime != t[j].airtime {
			return t[i].airtime < t[j].airtime
		}
		return key(t[i].rate) < key(t[j].rate)
	})
	for i := range s.index {
		s.index[i] = noRate
	}
	for i := range t {
		s.index[key(t[i].rate)] = uint8(i)
	}
}

// segmentUs is how long one frame may keep the medium across its attempts,
// minstrel's segment size: enough retries to ride out a collision or two,
// not so many that a dead rate holds every other station off for long.
const segmentUs = 6000

func retriesFor(airtime uint32, maxRetries uint8) uint8 {
	n := segmentUs/int(airtime) - 1
	return uint8(max(1, min(n, int(maxRetries))))
}
