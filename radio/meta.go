package radio

// Bandwidth of a PPDU in MHz.
type Bandwidth uint8

const (
	BW20  Bandwidth = 20
	BW40  Bandwidth = 40
	BW80  Bandwidth = 80
	BW160 Bandwidth = 160
)

// Mode says which PHY a rate belongs to.
type Mode uint8

const (
	ModeNone   Mode = iota // no rate given: the driver picks its lowest basic rate
	ModeLegacy             // DSSS/CCK or OFDM, Legacy in 500 kbit/s units
	ModeHT                 // HT MCS 0-31
	ModeVHT                // VHT MCS 0-9 with NSS
	ModeHE                 // HE MCS 0-11 with NSS; received only, never sent
)

// Rate is one transmission rate, as radiotap expresses it.
type Rate struct {
	Mode      Mode
	Legacy    uint8 // 500 kbit/s units (2 = 1 Mbit/s, 108 = 54 Mbit/s); ModeLegacy only
	MCS       uint8 // HT: 0-31 (streams = MCS/8+1); VHT: 0-9
	NSS       uint8 // VHT spatial streams, 1-8
	Bandwidth Bandwidth
	ShortGI   bool
	LDPC      bool
	ShortPre  bool // short preamble for DSSS/CCK
	HEGI      HEGI // HE only
}

// HEGI is an HE guard interval.
type HEGI uint8

const (
	HEGI08 HEGI = iota // 0.8 µs
	HEGI16             // 1.6 µs
	HEGI32             // 3.2 µs
)

// LegacyRate returns a legacy rate of kbps kilobits per second.
func LegacyRate(kbps int) Rate {
	return Rate{Mode: ModeLegacy, Legacy: uint8(kbps / 500), Bandwidth: BW20}
}

// Kbps returns the rate's PHY bit rate in kbit/s, or 0 when unknown.
func (r Rate) Kbps() int {
	switch r.Mode {
	case ModeLegacy:
		return int(r.Legacy) * 500
	case ModeHT:
		nss := int(r.MCS/8) + 1
		return htKbps(int(r.MCS%8), nss, r.Bandwidth, r.ShortGI)
	case ModeVHT:
		return vhtKbps(int(r.MCS), int(r.NSS), r.Bandwidth, r.ShortGI)
	case ModeHE:
		return heKbps(int(r.MCS), int(r.NSS), r.Bandwidth, r.HEGI)
	}
	return 0
}

// RxInfo is what the radiotap header of a received frame says.
type RxInfo struct {
	TSFT      uint64 // MAC timestamp in µs, valid if HasTSFT
	HasTSFT   bool
	Freq      uint16 // MHz, 0 if absent
	Signal    int8   // dBm, valid if HasSignal
	HasSignal bool
	Noise     int8 // dBm, valid if HasNoise
	HasNoise  bool
	Antenna   uint8
	Rate      Rate
	FCSIncl   bool // the frame ends with a 4-byte FCS
	BadFCS    bool // the FCS check failed; the frame must not be trusted
	DataPad   bool // padding between 802.11 header and payload
	AMPDU     bool // part of an A-MPDU
	AMPDURef  uint32
}

// TxFlags as carried by radiotap TX_FLAGS.
const (
	TxFail    = 0x0001 // echo: the unicast frame was not acknowledged
	TxCTS     = 0x0002
	TxRTS     = 0x0004
	TxNoAck   = 0x0008 // request: do not expect an ACK
	TxNoSeqNo = 0x0010 // request: the driver must not assign a sequence number
	TxOrder   = 0x0020 // request: do not reorder
)

// TxParams is what the core asks of the transmitter for one frame.
type TxParams struct {
	Rate    Rate
	Flags   uint16 // TxNoAck, TxNoSeqNo, TxOrder
	Retries uint8  // data retries (attempts - 1); 0 means the driver default
}

// TxStatus is what a TX-status echo says about a frame we sent.
type TxStatus struct {
	Acked   bool // TX_FLAGS without TxFail
	Flags   uint16
	Retries uint8 // DATA_RETRIES: attempts - 1
	Rate    Rate  // the last rate tried, when the echo carries one
}
