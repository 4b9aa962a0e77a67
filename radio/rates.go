package radio

// Bandwidths lists the HT/VHT widths in index order (Bandwidth.Index), for
// tables indexed by bandwidth.
var Bandwidths = [4]Bandwidth{BW20, BW40, BW80, BW160}

// Index returns the width's position in Bandwidths; the unset width counts
// as 20 MHz. ok is false (with i 0) for any other value.
func (b Bandwidth) Index() (i int, ok bool) {
	switch b {
	case BW20, 0:
		return 0, true
	case BW40:
		return 1, true
	case BW80:
		return 2, true
	case BW160:
		return 3, true
	}
	return 0, false
}

// dataSubcarriers are the HT/VHT data subcarriers per bandwidth index.
var dataSubcarriers = [4]int{52, 108, 234, 468}

// Per HT/VHT MCS 0-9: coded bits per subcarrier and coding rate.
var (
	mcsBits = [10]int{1, 2, 2, 4, 4, 6, 6, 6, 8, 8}
	mcsNum  = [10]int{1, 1, 3, 1, 3, 2, 3, 5, 3, 5}
	mcsDen  = [10]int{2, 2, 4, 2, 4, 3, 4, 6, 4, 6}
)

// DataBitsPerSymbol returns N_DBPS, the data bits per OFDM symbol over nss
// spatial streams at HT/VHT MCS mcs (0-9; an HT MCS index modulo 8) and
// bandwidth bw, or 0 for an MCS outside 0-9, nss below 1 or an unknown
// width. It is computed from the subcarriers over all streams, so that
// 20 MHz MCS 9 comes out exact (3 x 346.67 = 1040) instead of a rounded
// per-stream value times nss.
func DataBitsPerSymbol(mcs, nss int, bw Bandwidth) int {
	bwi, ok := bw.Index()
	if mcs < 0 || mcs > 9 || nss < 1 || !ok {
		return 0
	}
	return dataSubcarriers[bwi] * mcsBits[mcs] * nss * mcsNum[mcs] / mcsDen[mcs]
}

func htKbps(mcs, nss int, bw Bandwidth, sgi bool) int {
	return vhtKbps(mcs, nss, bw, sgi)
}

// vhtKbps: bits per 4 µs symbol (3.6 µs with short GI), in kbit/s. An
// unknown width counts as 20 MHz and a missing NSS as one stream.
func vhtKbps(mcs, nss int, bw Bandwidth, sgi bool) int {
	if _, ok := bw.Index(); !ok {
		bw = BW20
	}
	bits := DataBitsPerSymbol(mcs, max(nss, 1), bw)
	if sgi {
		return bits * 10000 / 36
	}
	return bits * 1000 / 4
}

// heDataTones are the data subcarriers of a full-bandwidth HE PPDU
// (IEEE 802.11ax 27.5).
func heDataTones(bw Bandwidth) int {
	switch bw {
	case BW20:
		return 234
	case BW40:
		return 468
	case BW80:
		return 980
	case BW160:
		return 1960
	}
	return 0
}

// heBits6 is coded bits per subcarrier times the coding rate, times 6,
// for HE MCS 0-11 (BPSK 1/2 to 1024-QAM 5/6).
var heBits6 = [12]int{3, 6, 9, 12, 18, 24, 27, 30, 36, 40, 45, 50}

// heKbps: data tones × bits per tone per 12.8 µs symbol plus the guard
// interval, in kbit/s; 0 for an undefined MCS or width.
func heKbps(mcs, nss int, bw Bandwidth, gi HEGI) int {
	if mcs < 0 || mcs >= len(heBits6) || gi > HEGI32 {
		return 0
	}
	if nss < 1 {
		nss = 1
	}
	symbol := [3]int{136, 144, 160}[gi] // 0.1 µs units
	return heDataTones(bw) * heBits6[mcs] * nss * 10000 / (6 * symbol)
}
