package aql

// amsduSubframeHdr is DA + SA + Length of an A-MSDU subframe header.
const amsduSubframeHdr = 14

// fcsLen is the 802.11 frame check sequence.
const fcsLen = 4

// AMSDUSubframeLen returns the octets one MSDU of msduLen octets (LLC/SNAP
// header and payload) takes inside an A-MSDU: the 14-octet subframe header,
// the MSDU, and padding to a 4-octet boundary unless it is the last subframe.
func AMSDUSubframeLen(msduLen int, last bool) int {
	n := amsduSubframeHdr + msduLen
	if !last {
		n = (n + 3) &^ 3
	}
	return n
}

// AMSDULen returns the PSDU length of an MPDU carrying the MSDUs in msdus as
// an A-MSDU behind a macHdr-octet 802.11 header (QoS data: 26, +4 with HT
// Control, + the security header if any), FCS included. Pass the result to
// Airtime: an A-MSDU is one MPDU, so it pays channel access, preamble and
// ACK once.
func AMSDULen(macHdr int, msdus []int) int {
	n := macHdr + fcsLen
	for i, m := range msdus {
		n += AMSDUSubframeLen(m, i == len(msdus)-1)
	}
	return n
}
