package radiotap

import (
	"encoding/binary"

	"github.com/airq/airq/radio"
)

// AppendRx appends the header mac80211 puts in front of a received frame
// (rx.c, ieee80211_add_rx_radiotap_header) for a driver without per-chain
// signal: TSFT, FLAGS, RATE or MCS/VHT, CHANNEL, DBM_ANTSIGNAL, ANTENNA,
// RX_FLAGS, and AMPDU_STATUS when part of an A-MPDU. A legacy frame with TSFT
// and signal gives len=26 present=0x0000482f, as seen on mac80211_hwsim.
// mac80211 never writes DBM_ANTNOISE, so rx.Noise is not encoded.
func AppendRx(dst []byte, rx radio.RxInfo) []byte {
	present := uint32(1<<Flags | 1<<Channel | 1<<Antenna | 1<<RxFlags)
	present |= rateBit(rx.Rate)
	if rx.Rate.Mode == radio.ModeHE {
		present |= 1 << HE // received only: rateBit serves TX too
	}
	if rx.HasTSFT {
		present |= 1 << TSFT
	}
	if rx.HasSignal {
		present |= 1 << DBMAntSignal
	}
	if rx.AMPDU {
		present |= 1 << AMPDUStatus
	}
	dst, e := start(dst, present)
	if rx.HasTSFT {
		binary.LittleEndian.PutUint64(e.field(TSFT), rx.TSFT)
	}
	e.field(Flags)[0] = rxFlags(rx)
	if present&(1<<Rate) != 0 {
		e.field(Rate)[0] = rx.Rate.Legacy
	}
	ch := e.field(Channel)
	binary.LittleEndian.PutUint16(ch, rx.Freq)
	binary.LittleEndian.PutUint16(ch[2:], chanFlags(rx))
	if rx.HasSignal {
		e.field(DBMAntSignal)[0] = uint8(rx.Signal)
	}
	e.field(Antenna)[0] = rx.Antenna
	e.field(RxFlags)
	switch rx.Rate.Mode {
	case radio.ModeHT:
		known := uint8(MCSHaveMCS | MCSHaveGI | MCSHaveBW)
		if rx.Rate.LDPC {
			known |= MCSHaveFEC // drivers that report coding add it to radiotap_mcs_details
		}
		putMCS(e.field(MCS), known, rx.Rate)
	}
	if rx.AMPDU {
		binary.LittleEndian.PutUint32(e.field(AMPDUStatus), rx.AMPDURef)
	}
	if rx.Rate.Mode == radio.ModeVHT {
		putVHT(e.field(VHT), VHTKnownGI|VHTKnownBandwidth, rx.Rate, true)
	}
	if rx.Rate.Mode == radio.ModeHE {
		putHE(e.field(HE), rx.Rate)
	}
	return dst
}

// putHE writes an HE field for an SU PPDU as mac80211 does
// (ieee80211_add_rx_radiotap_header): MCS, DCM, coding, bandwidth, GI, NSS.
func putHE(f []byte, r radio.Rate) {
	var bw uint16
	switch r.Bandwidth {
	case radio.BW40:
		bw = 1
	case radio.BW80:
		bw = 2
	case radio.BW160:
		bw = 3
	}
	d3 := uint16(r.MCS&0x0f) << HEData3MCSShift
	if r.LDPC {
		d3 |= HEData3CodingLDPC
	}
	binary.LittleEndian.PutUint16(f, HEData1MCSKnown|HEData1DCMKnown|HEData1CodingKnown|HEData1BWRUKnown)
	binary.LittleEndian.PutUint16(f[2:], HEData2GIKnown)
	binary.LittleEndian.PutUint16(f[4:], d3)
	binary.LittleEndian.PutUint16(f[8:], bw|uint16(r.HEGI&3)<<HEData5GIShift)
	binary.LittleEndian.PutUint16(f[10:], uint16(r.NSS&0x0f))
}

// rxFlags is the FLAGS byte of a received frame.
func rxFlags(rx radio.RxInfo) uint8 {
	var f uint8
	if rx.FCSIncl {
		f |= FlagFCS
	}
	if rx.BadFCS {
		f |= FlagBadFCS
	}
	if rx.DataPad {
		f |= FlagDataPad
	}
	if rx.Rate.Mode == radio.ModeLegacy && rx.Rate.ShortPre {
		f |= FlagShortPre
	}
	return f
}

// chanFlags mirrors how mac80211 labels the channel of a received frame.
func chanFlags(rx radio.RxInfo) uint16 {
	switch {
	case rx.Freq >= 4900:
		return ChanOFDM | Chan5GHz
	case rx.Rate.Mode == radio.ModeHT || rx.Rate.Mode == radio.ModeVHT:
		return ChanDyn | Chan2GHz
	case rx.Rate.Mode == radio.ModeLegacy && isCCK(rx.Rate.Legacy):
		return ChanCCK | Chan2GHz
	case rx.Rate.Mode == radio.ModeLegacy:
		return ChanOFDM | Chan2GHz
	}
	return Chan2GHz
}

// isCCK reports whether a legacy rate (500 kbit/s units) is DSSS/CCK.
func isCCK(r uint8) bool { return r == 2 || r == 4 || r == 11 || r == 22 }

// AppendEcho appends the header mac80211 puts on the TX-status copy of an
// injected frame (status.c, ieee80211_add_tx_radiotap_header): RATE (legacy
// only), TX_FLAGS, DATA_RETRIES, then MCS or VHT. The kernel reports only
// FAIL, CTS and RTS in TX_FLAGS, derives FAIL from the ACK, and never reports
// LDPC or the preamble, so those parts of st are not encoded.
func AppendEcho(dst []byte, st radio.TxStatus) []byte {
	present := uint32(1<<TxFlags|1<<DataRetries) | rateBit(st.Rate)
	dst, e := start(dst, present)
	if present&(1<<Rate) != 0 {
		e.field(Rate)[0] = st.Rate.Legacy
	}
	flags := st.Flags & (TxFlagCTS | TxFlagRTS)
	if !st.Acked {
		flags |= TxFlagFail
	}
	binary.LittleEndian.PutUint16(e.field(TxFlags), flags)
	e.field(DataRetries)[0] = st.Retries
	switch st.Rate.Mode {
	case radio.ModeHT:
		putMCS(e.field(MCS), MCSHaveMCS|MCSHaveGI|MCSHaveBW, st.Rate)
	case radio.ModeVHT:
		putVHT(e.field(VHT), VHTKnownGI|VHTKnownBandwidth, st.Rate, false)
	}
	return dst
}
