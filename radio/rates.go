package radio

// Data bits per OFDM symbol for HT/VHT MCS 0-9 at 20 MHz (52 data subcarriers);
// 40 MHz uses 108, 80 MHz 234, 160 MHz 468 subcarriers.
var (
	bitsPerSym20  = [10]int{26, 52, 78, 104, 156, 208, 234, 260, 312, 347}
	bitsPerSym40  = [10]int{54, 108, 162, 216, 324, 432, 486, 540, 648, 720}
	bitsPerSym80  = [10]int{117, 234, 351, 468, 702, 936, 1053, 1170, 1404, 1560}
	bitsPerSym160 = [10]int{234, 468, 702, 936, 1404, 1872, 2106, 2340, 2808, 3120}
)

// BitsPerSymbol returns the data bits per OFDM symbol of one spatial stream at
// HT/VHT MCS mcs (0-9) and bandwidth bw.
func BitsPerSymbol(mcs int, bw Bandwidth) int {
	if mcs < 0 || mcs > 9 {
		return 0
	}
	switch bw {
	case BW40:
		return bitsPerSym40[mcs]
	case BW80:
		return bitsPerSym80[mcs]
	case BW160:
		return bitsPerSym160[mcs]
	}
	return bitsPerSym20[mcs]
}

func htKbps(mcs, nss int, bw Bandwidth, sgi bool) int {
	return vhtKbps(mcs, nss, bw, sgi)
}

// vhtKbps: bits per 4 µs symbol (3.6 µs with short GI), in kbit/s.
func vhtKbps(mcs, nss int, bw Bandwidth, sgi bool) int {
	if nss < 1 {
		nss = 1
	}
	bits := BitsPerSymbol(mcs, bw) * nss
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
