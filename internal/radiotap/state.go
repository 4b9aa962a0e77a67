package radiotap

import (
	"encoding/binary"

	"github.com/airq/airq/radio"
)

// state collects the fields of one header before they are sorted into RX
// info or TX status.
type state struct {
	rx      radio.RxInfo
	flags   uint8
	echo    bool
	txFlags uint16
	retries uint8
}

// field records one radiotap-namespace field; f has exactly the field's size.
func (s *state) field(idx int, f []byte) {
	switch idx {
	case TSFT:
		s.rx.TSFT, s.rx.HasTSFT = binary.LittleEndian.Uint64(f), true
	case Flags:
		s.flags = f[0]
	case Rate:
		if f[0] != 0 {
			s.rx.Rate = radio.Rate{Mode: radio.ModeLegacy, Legacy: f[0], Bandwidth: radio.BW20}
		}
	case Channel:
		s.rx.Freq = binary.LittleEndian.Uint16(f)
	case DBMAntSignal:
		s.rx.Signal, s.rx.HasSignal = int8(f[0]), true
	case DBMAntNoise:
		s.rx.Noise, s.rx.HasNoise = int8(f[0]), true
	case Antenna:
		s.rx.Antenna = f[0]
	case TxFlags:
		s.echo, s.txFlags = true, binary.LittleEndian.Uint16(f)
	case DataRetries:
		s.retries = f[0]
	case MCS:
		s.mcs(f)
	case AMPDUStatus:
		s.rx.AMPDU, s.rx.AMPDURef = true, binary.LittleEndian.Uint32(f)
	case VHT:
		s.vht(f)
	case HE:
		s.he(f)
	}
}

// mcs decodes the HT MCS field, trusting only what its known byte vouches for.
func (s *state) mcs(f []byte) {
	known, flags := f[0], f[1]
	if known&MCSHaveMCS == 0 {
		return
	}
	r := radio.Rate{Mode: radio.ModeHT, MCS: f[2], Bandwidth: radio.BW20}
	if known&MCSHaveBW != 0 && flags&MCSBWMask == MCSBW40 {
		r.Bandwidth = radio.BW40
	}
	r.ShortGI = known&MCSHaveGI != 0 && flags&MCSSGI != 0
	r.LDPC = known&MCSHaveFEC != 0 && flags&MCSFECLDPC != 0
	s.rx.Rate = r
}

// vht decodes the first user of the VHT field. A zero NSS means the user is
// absent, so there is no rate to report.
func (s *state) vht(f []byte) {
	known := binary.LittleEndian.Uint16(f)
	mcsNSS := f[4]
	if mcsNSS&0x0f == 0 {
		return
	}
	r := radio.Rate{Mode: radio.ModeVHT, MCS: mcsNSS >> 4, NSS: mcsNSS & 0x0f, Bandwidth: radio.BW20}
	if known&VHTKnownBandwidth != 0 {
		r.Bandwidth = vhtBandwidth(f[3])
	}
	r.ShortGI = known&VHTKnownGI != 0 && f[2]&VHTFlagSGI != 0
	r.LDPC = f[8]&VHTCodingLDPCU0 != 0
	s.rx.Rate = r
}

// he decodes the HE field's rate for a full-bandwidth PPDU. A resource
// unit, a dual-carrier modulation (half the rate) or an unknown MCS or NSS
// leaves no rate to report: the tables hold full-bandwidth rates only.
func (s *state) he(f []byte) {
	d1 := binary.LittleEndian.Uint16(f)
	d2 := binary.LittleEndian.Uint16(f[2:])
	d3 := binary.LittleEndian.Uint16(f[4:])
	d5 := binary.LittleEndian.Uint16(f[8:])
	nss := uint8(binary.LittleEndian.Uint16(f[10:]) & HEData6NSTSMask)
	mcs := uint8(d3 & HEData3MCSMask >> HEData3MCSShift)
	if d1&HEData1MCSKnown == 0 || nss == 0 || mcs > 11 || d1&HEData1DCMKnown != 0 && d3&HEData3DCM != 0 {
		return
	}
	r := radio.Rate{Mode: radio.ModeHE, MCS: mcs, NSS: nss, Bandwidth: radio.BW20}
	if d1&HEData1BWRUKnown != 0 {
		bw := d5 & HEData5BWRUMask
		if bw >= heData5BWRUFirstUnit {
			return
		}
		r.Bandwidth = [4]radio.Bandwidth{radio.BW20, radio.BW40, radio.BW80, radio.BW160}[bw]
	}
	if d2&HEData2GIKnown != 0 {
		gi := radio.HEGI(d5 & HEData5GIMask >> HEData5GIShift)
		if gi > radio.HEGI32 {
			return
		}
		r.HEGI = gi
	}
	r.LDPC = d1&HEData1CodingKnown != 0 && d3&HEData3CodingLDPC != 0
	s.rx.Rate = r
}

// vhtBandwidth maps the radiotap VHT bandwidth code to the PPDU's width:
// codes for a sideband (20L, 40U, ...) describe a narrower PPDU.
func vhtBandwidth(code uint8) radio.Bandwidth {
	switch {
	case code == 0, code == 2, code == 3, code >= 7 && code <= 10, code >= 18 && code <= 25:
		return radio.BW20
	case code == 1, code == 5, code == 6, code >= 14 && code <= 17:
		return radio.BW40
	case code == 4, code == 12, code == 13:
		return radio.BW80
	case code == 11:
		return radio.BW160
	}
	return radio.BW20
}

// fill sorts the collected fields into the caller's structs.
func (s *state) fill(rx *radio.RxInfo, tx *radio.TxStatus) {
	s.rx.FCSIncl = s.flags&FlagFCS != 0
	s.rx.BadFCS = s.flags&FlagBadFCS != 0
	s.rx.DataPad = s.flags&FlagDataPad != 0
	if s.rx.Rate.Mode == radio.ModeLegacy && s.flags&FlagShortPre != 0 {
		s.rx.Rate.ShortPre = true
	}
	*rx = s.rx
	if s.echo {
		tx.Acked = s.txFlags&TxFlagFail == 0
		tx.Flags = s.txFlags
		tx.Retries = s.retries
		tx.Rate = s.rx.Rate
	}
}
