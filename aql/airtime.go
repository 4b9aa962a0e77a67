package aql

import (
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// EDCA holds one access category's channel-access parameters.
type EDCA struct {
	AIFSN uint8
	CWMin uint16 // slots; the mean backoff of a first attempt is CWMin/2 slots
}

// DefaultEDCA returns the parameters mac80211 programs for every interface
// that is not a managed station, monitor included (ieee80211_set_wmm_default
// with QoS enabled): injected frames go out with these, not with the values
// an AP advertises in its WMM element. aCWmin is 15, or 31 on a 2.4 GHz
// channel without OFDM rates.
func DefaultEDCA(aCWmin uint16) [ieee80211.NumACs]EDCA {
	return [ieee80211.NumACs]EDCA{
		ieee80211.ACVO: {AIFSN: 2, CWMin: (aCWmin+1)/4 - 1},
		ieee80211.ACVI: {AIFSN: 2, CWMin: (aCWmin+1)/2 - 1},
		ieee80211.ACBE: {AIFSN: 3, CWMin: aCWmin},
		ieee80211.ACBK: {AIFSN: 7, CWMin: aCWmin},
	}
}

// Channel describes the medium timing of the operating channel.
type Channel struct {
	// Band2GHz selects 2.4 GHz timing: SIFS 10 µs, and every OFDM-based
	// PPDU (OFDM, HT) is followed by a 6 µs signal extension. Otherwise
	// 5 GHz timing (SIFS 16 µs) applies.
	Band2GHz bool
	// LongSlot selects 20 µs slots on 2.4 GHz (no ERP short slot time).
	LongSlot bool
	EDCA     [ieee80211.NumACs]EDCA
}

// DefaultChannel is a 5 GHz channel with mac80211's default EDCA parameters.
func DefaultChannel() Channel { return Channel{EDCA: DefaultEDCA(15)} }

func (c Channel) slot() int {
	if c.Band2GHz && c.LongSlot {
		return 20
	}
	return 9
}

func (c Channel) sifs() int {
	if c.Band2GHz {
		return 10
	}
	return 16
}

// Estimator computes exact exchange airtimes for one Channel from tables
// built once by NewEstimator. It is immutable and safe for concurrent use.
type Estimator struct {
	access [ieee80211.NumACs]uint32 // AIFS + mean backoff per AC
	legacy [256]legacyEntry         // by rate in 500 kbit/s units
	mcs    [2][4][8][10]mcsEntry    // [VHT][bw][nss-1][mcs]
	lowest uint8                    // lowest basic rate, used for radio.ModeNone
}

type legacyEntry struct {
	cck  bool
	rate uint16    // 500 kbit/s units; 0 = invalid
	tail [2]uint32 // SIFS + ACK (+ signal extensions), [short preamble]
}

type mcsEntry struct {
	ndbps uint32 // 0 = invalid
	tail  uint32 // encoder tail bits, 6 per BCC encoder
	fixed uint32 // preamble + SIFS + ACK (+ signal extensions)
}

// NewEstimator builds the tables for c.
func NewEstimator(c Channel) *Estimator {
	e := &Estimator{lowest: 12}
	if c.Band2GHz {
		e.lowest = 2
	}
	slot := c.slot()
	for ac, p := range c.EDCA {
		// Mean backoff CWMin/2 slots, rounded up to whole µs.
		e.access[ac] = uint32(c.sifs() + int(p.AIFSN)*slot + (int(p.CWMin)*slot+1)/2)
	}
	ofdmTail := func(ackMbps int) uint32 {
		if c.Band2GHz {
			return uint32(6 + 10 + ofdmAck(ackMbps) + 6)
		}
		return uint32(16 + ofdmAck(ackMbps))
	}
	for r := range 256 {
		switch {
		case isCCK(uint8(r)):
			ack := dsssAckRate(uint8(r))
			e.legacy[r] = legacyEntry{cck: true, rate: uint16(r), tail: [2]uint32{
				uint32(10 + dsssAck(ack, false)), uint32(10 + dsssAck(ack, true))}}
		case isOFDMLegacy(uint8(r)):
			t := ofdmTail(ofdmAckRate(uint8(r)))
			e.legacy[r] = legacyEntry{rate: uint16(r), tail: [2]uint32{t, t}}
		}
	}
	for vht := range 2 {
		for bwi := range 4 {
			for nss := 1; nss <= 8; nss++ {
				for m := range 10 {
					e.mcs[vht][bwi][nss-1][m] = buildMCS(vht == 1, bwi, nss, m, ofdmTail)
				}
			}
		}
	}
	return e
}

func buildMCS(vht bool, bwi, nss, m int, ofdmTail func(int) uint32) mcsEntry {
	var pre int
	if vht {
		if vhtExcluded(bwi, m, nss) {
			return mcsEntry{}
		}
		pre = 36 + 4*vhtLTFs[nss-1] // L-STF/LTF/SIG, VHT-SIG-A, VHT-STF, LTFs, VHT-SIG-B
	} else {
		if bwi > 1 || nss > 4 || m > 7 {
			return mcsEntry{}
		}
		pre = 32 + 4*htLTFs[nss-1] // L-STF/LTF/SIG, HT-SIG, HT-STF, LTFs
	}
	n := radio.DataBitsPerSymbol(m, nss, radio.Bandwidths[bwi])
	return mcsEntry{
		ndbps: uint32(n),
		tail:  uint32(tailBits * encoders(vht, n)),
		fixed: uint32(pre) + ofdmTail(ackRateByMCS[m]),
	}
}

// maxPSDU bounds the length so that 8*psduLen+22 fits in a uint32.
const maxPSDU = 1 << 20

var defaultEstimator = NewEstimator(DefaultChannel())

// Airtime returns the airtime in µs of sending one psduLen-octet frame
// (MAC header, body and FCS) at rate r in access category ac on the default
// channel (5 GHz, mac80211 default EDCA), ACK included. See
// Estimator.Airtime.
func Airtime(r radio.Rate, ac ieee80211.AC, psduLen int) uint32 {
	return defaultEstimator.Airtime(r, ac, psduLen)
}

// Airtime returns the airtime in µs of the whole exchange for one
// non-aggregated psduLen-octet MPDU (MAC header, body and FCS): AIFS + mean
// backoff + preamble + payload + SIFS + ACK, exact to the µs and uncapped.
// The ACK goes at the highest mandatory rate not above the data rate's
// (non-HT reference) rate. A NOACK frame occupies less; callers that need
// that subtract AckTime. It returns 0 for a rate the PHY does not define
// (unknown legacy rate, HT MCS > 31, VHT MCS > 9, NSS > 8, excluded VHT
// combinations, HT above 40 MHz) and for psduLen outside 0..1 MiB, far
// above any PSDU but small enough that the bit counts cannot overflow. radio.ModeNone means the lowest basic rate
// (1 Mbit/s on 2.4 GHz, 6 Mbit/s on 5 GHz), as the driver would pick.
func (e *Estimator) Airtime(r radio.Rate, ac ieee80211.AC, psduLen int) uint32 {
	if ac >= ieee80211.NumACs || psduLen < 0 || psduLen > maxPSDU {
		return 0
	}
	// The exchange without channel access, worked out here rather than in
	// a function of its own: every frame sent asks once.
	var d uint32
	switch r.Mode {
	case radio.ModeLegacy:
		d = e.legacyTime(r.Legacy, r.ShortPre, psduLen)
	case radio.ModeNone:
		d = e.legacyTime(e.lowest, false, psduLen)
	case radio.ModeHT:
		bwi, ok := r.Bandwidth.Index()
		if r.MCS > 31 || !ok {
			return 0
		}
		d = mcsTime(&e.mcs[0][bwi][r.MCS>>3][r.MCS&7], r, psduLen)
	case radio.ModeVHT:
		bwi, ok := r.Bandwidth.Index()
		if r.MCS > 9 || r.NSS < 1 || r.NSS > 8 || !ok {
			return 0
		}
		// One A-MPDU delimiter, MPDU padded to a 4-octet boundary.
		d = mcsTime(&e.mcs[1][bwi][r.NSS-1][r.MCS], r, vhtDelimiter+(psduLen+3)&^3)
	}
	if d == 0 {
		return 0
	}
	return d + e.access[ac]
}

func (e *Estimator) legacyTime(rate uint8, short bool, n int) uint32 {
	le := &e.legacy[rate]
	if le.rate == 0 {
		return 0
	}
	bits := uint32(8 * n)
	if le.cck {
		pre, si := uint32(dsssLongPre), 0
		if short && rate > 2 {
			pre, si = dsssShortPre, 1
		}
		// µs = bits / (rate/2 Mbit/s), rounded up to whole µs.
		return pre + (2*bits+uint32(rate)-1)/uint32(rate) + le.tail[si]
	}
	// OFDM: SERVICE + data + tail bits in whole symbols of 2*rate bits.
	perSym := 2 * uint32(rate)
	syms := (serviceBits + bits + tailBits + perSym - 1) / perSym
	return ofdmPre + ofdmSymbol*syms + le.tail[0]
}

func mcsTime(me *mcsEntry, r radio.Rate, n int) uint32 {
	if me.ndbps == 0 {
		return 0
	}
	bits := serviceBits + 8*uint32(n)
	if !r.LDPC {
		bits += me.tail
	}
	syms := (bits + me.ndbps - 1) / me.ndbps
	if r.ShortGI {
		// 3.6 µs symbols; TXTIME rounds the data field up to 4 µs.
		return me.fixed + ofdmSymbol*((syms*9+9)/10)
	}
	return me.fixed + ofdmSymbol*syms
}

// AckTime returns the part of Airtime spent on SIFS and the ACK (signal
// extensions included) for a frame at rate r, so that a NOACK frame's
// airtime is Airtime - AckTime.
func (e *Estimator) AckTime(r radio.Rate) uint32 {
	switch r.Mode {
	case radio.ModeLegacy, radio.ModeNone:
		rate := r.Legacy
		if r.Mode == radio.ModeNone {
			rate = e.lowest
		}
		le := &e.legacy[rate]
		if le.cck && r.ShortPre && rate > 2 {
			return le.tail[1]
		}
		return le.tail[0]
	case radio.ModeHT, radio.ModeVHT:
		return e.legacyEntryAck(r)
	}
	return 0
}

func (e *Estimator) legacyEntryAck(r radio.Rate) uint32 {
	m := int(r.MCS)
	if r.Mode == radio.ModeHT {
		m &= 7
	}
	if m > 9 {
		return 0
	}
	// fixed = preamble + tail; recover the tail from a reference OFDM rate.
	return e.legacy[2*ackRateByMCS[m]].tail[0]
}
