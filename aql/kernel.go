package aql

import (
	"math/bits"

	"github.com/airq/airq/radio"
)

// This file reproduces net/mac80211/airtime.c: its tables, macros and
// integer arithmetic, u32 wrap-around included, for the trace mode and the
// seed study. HE/EHT are absent because radio.Rate cannot express them.

const (
	kernAvgPktSize = 1024
	kernNBits      = kernAvgPktSize << 3
	kernEthHdr     = 38   // "len += 38; /* Ethernet header length */"
	kernMinAgg     = 4    // max_t(u32, duration, 4) on the aggregated path
	kernTxTimeMax  = 4095 // tx_time_est clamp before the >> 2
)

// kernVBPS is BW2VBPS per bandwidth index for VHT MCS 0-9 (MCS 9 at 20 MHz
// rounded down to 346 as in the kernel).
var kernVBPS = [4][10]uint32{
	{26, 52, 78, 104, 156, 208, 234, 260, 312, 346},
	{54, 108, 162, 216, 324, 432, 486, 540, 648, 720},
	{117, 234, 351, 468, 702, 936, 1053, 1170, 1404, 1560},
	{234, 468, 702, 936, 1404, 1872, 2106, 2340, 2808, 3120},
}

// kernShiftBPS is what VHT_GROUP_SHIFT feeds the shift computation: 243 for
// 160 MHz is the kernel's typo for 234; it only moves the shift.
var kernShiftBPS = [4]uint32{26, 54, 117, 243}

// kernDur holds duration << shift, i.e. what ieee80211_get_rate_duration
// returns (1/1024 µs per 1024 bytes): [VHT][bw][sgi][streams-1][mcs].
var kernDur [2][4][2][4][10]uint32

// mcsDuration is MCS_DURATION(streams, sgi, bps).
func mcsDuration(streams, bps uint32, sgi bool) uint32 {
	ksyms := ((kernNBits << 10) + streams*bps - 1) / (streams * bps)
	if sgi {
		return ksyms * 4 * 18 / 20
	}
	return ksyms * 4
}

// groupShift is GROUP_SHIFT(duration).
func groupShift(d uint32) uint32 {
	return uint32(max(0, 16-bits.LeadingZeros32(d)))
}

func init() {
	for bw := range 4 {
		for sgi := range 2 {
			for s := uint32(1); s <= 4; s++ {
				g := sgi == 1
				vs := groupShift(mcsDuration(s, kernShiftBPS[bw], g))
				for m := range 10 {
					d := uint32(uint16(mcsDuration(s, kernVBPS[bw][m], g) >> vs))
					kernDur[1][bw][sgi][s-1][m] = d << vs
				}
				if bw > 1 {
					continue
				}
				hs := groupShift(mcsDuration(s, kernVBPS[bw][0], g))
				for m := range 8 {
					d := uint32(uint16(mcsDuration(s, kernVBPS[bw][m], g) >> hs))
					kernDur[0][bw][sgi][s-1][m] = d << hs
				}
			}
		}
	}
}

// kernRate is ieee80211_get_rate_duration: table duration and PHY overhead,
// or 0 where the kernel returns 0. HT decodes streams and MCS from the index
// the way the kernel does (((idx >> 3) & 3) + 1, idx & 7).
func kernRate(r radio.Rate) (dur, overhead uint32) {
	bwi, ok := r.Bandwidth.Index()
	if !ok {
		return 0, 0
	}
	sgi := 0
	if r.ShortGI {
		sgi = 1
	}
	var streams uint32
	switch r.Mode {
	case radio.ModeHT:
		if bwi > 1 {
			return 0, 0
		}
		streams = uint32(r.MCS>>3&3) + 1
		dur = kernDur[0][bwi][sgi][streams-1][r.MCS&7]
	case radio.ModeVHT:
		if r.NSS < 1 || r.NSS > 4 || r.MCS > 9 {
			return 0, 0
		}
		streams = uint32(r.NSS)
		dur = kernDur[1][bwi][sgi][streams-1][r.MCS]
	default:
		return 0, 0
	}
	return dur, 36 + streams<<2
}

// kernLegacy is ieee80211_calc_legacy_rate_duration; bitrate is in the
// kernel's 100 kbit/s units and cck marks the 802.11b rates.
func kernLegacy(r radio.Rate, n int) uint32 {
	if !isCCK(r.Legacy) && !isOFDMLegacy(r.Legacy) {
		return 0 // no such entry in the band's bitrate table
	}
	var d uint32 = 20 + 16 // preamble + SIFS
	if isCCK(r.Legacy) {
		d = 144 + 48 // preamble + PLCP
		if r.ShortPre {
			d >>= 1
		}
		d += 10 // SIFS
	}
	bitrate := int32(r.Legacy) * 5 // 100 kbit/s units
	return d + uint32(int32(n<<3)*10/bitrate)
}

// KernelRxAirtime is ieee80211_calc_rx_airtime(status, n): the
// non-aggregated estimate, no +38, no floor. It returns 0 where the kernel
// does (no or invalid rate).
func KernelRxAirtime(r radio.Rate, n int) uint32 {
	if r.Mode == radio.ModeLegacy {
		return kernLegacy(r, n)
	}
	dur, overhead := kernRate(r)
	if dur == 0 {
		return 0
	}
	dur *= uint32(n) // u32: wraps like the kernel for slow rates and long frames
	return dur/kernAvgPktSize/1024 + overhead
}

// KernelExpected is ieee80211_calc_expected_tx_airtime(hw, vif, sta,
// skbLen, ampdu) for a station whose last TX rate is r: skbLen + 38 bytes,
// then the non-aggregated estimate for legacy rates or !ampdu (mac80211
// passes ampdu = ac != VO up to 6.17), else the aggregated guess with the
// overhead divided by 2^agg_shift and a 4 µs floor. It returns 0 when the
// rate is unusable (the kernel then accounts nothing). The value is not
// quantised; see KernelTxTimeEst.
func KernelExpected(r radio.Rate, skbLen int, ampdu bool) uint32 {
	n := skbLen + kernEthHdr
	if r.Mode == radio.ModeLegacy || !ampdu {
		return KernelRxAirtime(r, n)
	}
	dur, overhead := kernRate(r)
	if dur == 0 && overhead == 0 {
		return 0
	}
	var aggShift uint32
	switch {
	case dur > 400*1024:
		aggShift = 1
	case dur > 250*1024:
		aggShift = 2
	case dur > 150*1024:
		aggShift = 3
	case dur > 70*1024:
		aggShift = 4
	default:
		aggShift = 5 // HE's 6 cannot occur: radio.Rate has no HE
	}
	dur *= uint32(n)
	dur = dur/kernAvgPktSize/1024 + overhead>>aggShift
	return max(dur, kernMinAgg)
}

// KernelTxTimeEst is ieee80211_info_set_tx_time_est: the estimate clamped to
// 4095 µs and stored in 4 µs units, i.e. what mac80211 adds to and later
// subtracts from the pending counters (at most 4092 µs).
func KernelTxTimeEst(us uint32) uint32 {
	return min(us, kernTxTimeMax) >> 2 << 2
}

// KernelCharge is what mac80211's dequeue adds to the pending airtime for a
// frame of skbLen bytes: KernelTxTimeEst(KernelExpected(...)).
func KernelCharge(r radio.Rate, skbLen int, ampdu bool) uint32 {
	return KernelTxTimeEst(KernelExpected(r, skbLen, ampdu))
}
