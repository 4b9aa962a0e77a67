package medium

import (
	"github.com/airq/airq/aql"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/study/kernel/hwsimnl"
)

// Legacy rate tables of hwsim's bands, in 500 kbit/s units: the netlink
// rate index of a non-MCS rate points into these.
var (
	legacy2GHz = []uint8{2, 4, 11, 22, 12, 18, 24, 36, 48, 72, 96, 108}
	legacy5GHz = []uint8{12, 18, 24, 36, 48, 72, 96, 108}
)

func is2GHz(freq uint32) bool { return freq < 3000 }

// Rate decodes one entry of a frame's retry chain on freq; ok is false for
// an index the band does not have.
func Rate(r hwsimnl.TxRate, freq uint32) (radio.Rate, bool) {
	bw := radio.BW20
	switch {
	case r.Flags&hwsimnl.Rate160MHz != 0:
		bw = radio.BW160
	case r.Flags&hwsimnl.Rate80MHz != 0:
		bw = radio.BW80
	case r.Flags&hwsimnl.Rate40MHz != 0:
		bw = radio.BW40
	}
	sgi := r.Flags&hwsimnl.RateShortGI != 0
	switch {
	case r.Idx < 0:
		return radio.Rate{}, false
	case r.Flags&hwsimnl.RateVHTMCS != 0:
		mcs, nss := uint8(r.Idx)&15, uint8(r.Idx)>>4+1
		return radio.Rate{Mode: radio.ModeVHT, MCS: mcs, NSS: nss, Bandwidth: bw, ShortGI: sgi}, mcs <= 9
	case r.Flags&hwsimnl.RateMCS != 0:
		return radio.Rate{Mode: radio.ModeHT, MCS: uint8(r.Idx), Bandwidth: bw, ShortGI: sgi}, r.Idx <= 31
	}
	t := legacy5GHz
	if is2GHz(freq) {
		t = legacy2GHz
	}
	if int(r.Idx) >= len(t) {
		return radio.Rate{}, false
	}
	return radio.Rate{Mode: radio.ModeLegacy, Legacy: t[r.Idx], Bandwidth: radio.BW20,
		ShortPre: r.Flags&hwsimnl.RateShortPre != 0}, true
}

// Link says which rates a receiver decodes: every rate of at most MaxNSS
// spatial streams and per-stream MCS MaxMCS, and legacy rates up to
// MaxLegacyKbps; nothing else. It is the same for every pair of radios:
// an SNR threshold, without fading.
type Link struct {
	MaxNSS        int
	MaxMCS        int
	MaxLegacyKbps int
}

// Decodes reports whether a frame sent at r is received.
func (l Link) Decodes(r radio.Rate) bool {
	switch r.Mode {
	case radio.ModeVHT:
		return int(r.NSS) <= l.MaxNSS && int(r.MCS) <= l.MaxMCS
	case radio.ModeHT:
		return int(r.MCS>>3)+1 <= l.MaxNSS && int(r.MCS&7) <= l.MaxMCS
	case radio.ModeLegacy:
		return r.Kbps() <= l.MaxLegacyKbps
	}
	return false
}

// ackMbps is the control-response rate for MCS 0-9 (the highest mandatory
// rate not above the MCS's non-HT reference rate), as aql uses it.
var ackMbps = [10]int{6, 12, 12, 24, 24, 24, 24, 24, 24, 24}

const (
	baBytes  = 32 // compressed BlockAck
	ackBytes = 14
)

// ofdmDur is a legacy OFDM PPDU of n octets at mbps.
func ofdmDur(n, mbps int) uint32 {
	bits := 16 + 8*n + 6
	per := 4 * mbps
	return uint32(20 + 4*((bits+per-1)/per))
}

// band holds one band's timing: aql's exact estimator and the channel
// access parameters it charges, which the medium takes out to draw its own
// backoff.
type band struct {
	est  *aql.Estimator
	sifs uint32
	slot uint32
	acc  [ieee80211.NumACs]uint32 // the estimator's AIFS + mean backoff
	aifs [ieee80211.NumACs]uint32
	cw   [ieee80211.NumACs]uint32
}

func newBand(two bool) *band {
	ch := aql.DefaultChannel()
	ch.Band2GHz = two
	b := &band{est: aql.NewEstimator(ch), sifs: 16, slot: 9}
	if two {
		b.sifs = 10
	}
	for ac, p := range ch.EDCA {
		b.aifs[ac] = b.sifs + uint32(p.AIFSN)*b.slot
		b.cw[ac] = uint32(p.CWMin)
		b.acc[ac] = b.aifs[ac] + (uint32(p.CWMin)*b.slot+1)/2
	}
	return b
}

// subframeLen is an MPDU of n octets (FCS included) in an A-MPDU:
// delimiter and padding to 4 octets.
func subframeLen(n int) int { return 4 + (n+3)&^3 }

// ppdu returns the duration in µs of the PPDU carrying the MPDUs of psdus
// octets (FCS included) at r, and the SIFS + response that follows when it
// is acknowledged (an ACK, or a BlockAck after an A-MPDU). 0 for a rate
// the estimator does not know.
func (b *band) ppdu(r radio.Rate, ac ieee80211.AC, psdus []int) (data, resp uint32) {
	agg := len(psdus) > 1 || r.Mode == radio.ModeVHT
	n := psdus[0]
	if agg {
		n = 0
		for _, p := range psdus {
			n += subframeLen(p)
		}
		if r.Mode == radio.ModeVHT {
			n -= 4 // the estimator counts one delimiter and the padding itself
		}
	}
	total := b.est.Airtime(r, ac, n)
	if total == 0 {
		return 0, 0
	}
	ack := b.est.AckTime(r)
	data, resp = total-b.acc[ac]-ack, ack
	if len(psdus) > 1 && r.Mode != radio.ModeLegacy {
		m := ackMbps[r.MCS%10]
		if r.Mode == radio.ModeHT {
			m = ackMbps[r.MCS&7]
		}
		resp += ofdmDur(baBytes, m) - ofdmDur(ackBytes, m)
	}
	return data, resp
}

// rxRateIndex is the legacy index a receiver is told (hwsim's netlink path
// takes no MCS): the control-response rate of r.
func rxRateIndex(r radio.Rate, freq uint32) uint32 {
	kbps := 6000
	switch r.Mode {
	case radio.ModeLegacy:
		kbps = r.Kbps()
	case radio.ModeHT:
		kbps = 1000 * ackMbps[r.MCS&7]
	case radio.ModeVHT:
		kbps = 1000 * ackMbps[r.MCS%10]
	}
	t := legacy5GHz
	if is2GHz(freq) {
		t = legacy2GHz
	}
	for i, v := range t {
		if int(v)*500 == kbps {
			return uint32(i)
		}
	}
	return 0
}
