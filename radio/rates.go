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
