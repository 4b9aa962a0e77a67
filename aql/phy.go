package aql

// PHY constants of IEEE 802.11-2020 clauses 15-21 that the exact model uses.
const (
	dsssLongPre  = 192 // µs: long PLCP preamble + header
	dsssShortPre = 96  // µs: short PLCP preamble + header
	ofdmPre      = 20  // µs: L-STF + L-LTF + L-SIGNAL
	ofdmSymbol   = 4   // µs with the long guard interval
	serviceBits  = 16
	tailBits     = 6 // per BCC encoder
	ackLen       = 14
	vhtDelimiter = 4 // a VHT PSDU is always an A-MPDU: one delimiter, even for one MPDU
)

// ackRateByMCS is the control-response rate (Mbit/s) for an HT/VHT MCS: the
// highest mandatory OFDM rate (6, 12, 24) not above the MCS's non-HT
// reference rate (6, 12, 18, 24, 36, 48, 54, 54, 54, 54).
var ackRateByMCS = [10]int{6, 12, 12, 24, 24, 24, 24, 24, 24, 24}

// Spatial streams to training fields (HT: 19.3.9.4.6, VHT: 21.3.8.3.5).
var (
	htLTFs  = [4]int{1, 2, 4, 4}
	vhtLTFs = [8]int{1, 2, 4, 4, 6, 6, 8, 8}
)

// vhtExcluded reports the MCS/NSS/bandwidth combinations 802.11ac leaves out
// (21.5: fractional bits per encoder).
func vhtExcluded(bwi, mcs, nss int) bool {
	switch {
	case bwi == 0 && mcs == 9:
		return nss%3 != 0
	case bwi == 2 && mcs == 6:
		return nss == 3 || nss == 7
	case bwi == 2 && mcs == 9:
		return nss == 6
	case bwi == 3 && mcs == 9:
		return nss == 3
	}
	return false
}

// encoders approximates N_ES: one BCC encoder per 300 Mbit/s (HT) or
// 600 Mbit/s (VHT) of short-GI rate. It only changes the tail bits, so an
// error moves the result by at most one symbol at a boundary.
func encoders(vht bool, bits int) int {
	per := 1080 // 300 Mbit/s x 3.6 µs
	if vht {
		per = 2160
	}
	return (bits + per - 1) / per
}

// ofdmAck returns the duration of an ACK sent at an OFDM rate of mbps.
func ofdmAck(mbps int) int {
	bits := serviceBits + 8*ackLen + tailBits
	perSym := mbps * ofdmSymbol
	return ofdmPre + ofdmSymbol*((bits+perSym-1)/perSym)
}

// dsssAck returns the duration of an ACK at a DSSS/CCK rate given in
// 500 kbit/s units; 1 Mbit/s always uses the long preamble.
func dsssAck(rate500 int, short bool) int {
	pre := dsssLongPre
	if short && rate500 > 2 {
		pre = dsssShortPre
	}
	return pre + (8*ackLen*2+rate500-1)/rate500
}

func isCCK(rate500 uint8) bool {
	return rate500 == 2 || rate500 == 4 || rate500 == 11 || rate500 == 22
}

func isOFDMLegacy(rate500 uint8) bool {
	switch rate500 {
	case 12, 18, 24, 36, 48, 72, 96, 108:
		return true
	}
	return false
}

// dsssAckRate is the highest mandatory DSSS/CCK rate not above the data rate;
// all four CCK rates are mandatory, so it is the data rate itself.
func dsssAckRate(rate500 uint8) int { return int(rate500) }

// ofdmAckRate maps a legacy OFDM data rate to its control-response rate.
func ofdmAckRate(rate500 uint8) int {
	switch {
	case rate500 >= 48:
		return 24
	case rate500 >= 24:
		return 12
	}
	return 6
}
