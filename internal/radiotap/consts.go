package radiotap

// Present bits of the radiotap namespace (include/net/ieee80211_radiotap.h).
// Bits 29-31 are valid in every presence word, whatever its namespace.
const (
	TSFT            = 0
	Flags           = 1
	Rate            = 2
	Channel         = 3
	FHSS            = 4
	DBMAntSignal    = 5
	DBMAntNoise     = 6
	LockQuality     = 7
	TxAttenuation   = 8
	DBTxAttenuation = 9
	DBMTxPower      = 10
	Antenna         = 11
	DBAntSignal     = 12
	DBAntNoise      = 13
	RxFlags         = 14
	TxFlags         = 15
	RTSRetries      = 16
	DataRetries     = 17
	XChannel        = 18
	MCS             = 19
	AMPDUStatus     = 20
	VHT             = 21
	Timestamp       = 22
	HE              = 23
	HEMU            = 24
	ZeroLenPSDU     = 26
	LSIG            = 27
	TLV             = 28
	RadiotapNS      = 29
	VendorNS        = 30
	Ext             = 31
	headerLen       = 8
	Version         = 0
	maxKnownField   = LSIG
)

// fieldBits are the bits of a presence word that name fields; the top
// three switch namespace or announce another word.
const fieldBits = 1<<RadiotapNS - 1

// FLAGS field bits.
const (
	FlagCFP      = 0x01
	FlagShortPre = 0x02
	FlagWEP      = 0x04
	FlagFrag     = 0x08
	FlagFCS      = 0x10 // the frame carries a trailing 4-byte FCS
	FlagDataPad  = 0x20 // padding between the 802.11 header and the body
	FlagBadFCS   = 0x40
	FlagShortGI  = 0x80
)

// RX_FLAGS field bits.
const (
	RxFlagBadPLCP = 0x0002
)

// TX_FLAGS field bits; the same values as radio.TxFail and friends.
const (
	TxFlagFail    = 0x0001
	TxFlagCTS     = 0x0002
	TxFlagRTS     = 0x0004
	TxFlagNoAck   = 0x0008
	TxFlagNoSeqNo = 0x0010
	TxFlagOrder   = 0x0020
)

// MCS field: the known byte, then the flags byte.
const (
	MCSHaveBW    = 0x01
	MCSHaveMCS   = 0x02
	MCSHaveGI    = 0x04
	MCSHaveFmt   = 0x08
	MCSHaveFEC   = 0x10
	MCSHaveSTBC  = 0x20
	MCSHaveNESS  = 0x40
	MCSBWMask    = 0x03
	MCSBW20      = 0
	MCSBW40      = 1
	MCSBW20L     = 2
	MCSBW20U     = 3
	MCSSGI       = 0x04
	MCSFmtGF     = 0x08
	MCSFECLDPC   = 0x10
	MCSSTBCMask  = 0x60
	MCSSTBCShift = 5
)

// VHT field: known (u16), flags, bandwidth, mcs_nss[4], coding, group_id,
// partial_aid (u16).
const (
	VHTKnownSTBC      = 0x0001
	VHTKnownTXOPPS    = 0x0002
	VHTKnownGI        = 0x0004
	VHTKnownSGINsym   = 0x0008
	VHTKnownLDPCExtra = 0x0010
	VHTKnownBeamform  = 0x0020
	VHTKnownBandwidth = 0x0040
	VHTKnownGroupID   = 0x0080
	VHTKnownPAID      = 0x0100
	VHTFlagSTBC       = 0x01
	VHTFlagSGI        = 0x04
	VHTCodingLDPCU0   = 0x01
)

// HE field: six u16 words, data1 to data6 (include/net/ieee80211_radiotap.h).
const (
	HEData1FormatMask    = 0x0003 // 0 SU, 1 extended-range SU, 2 MU, 3 trigger-based
	HEData1MCSKnown      = 0x0020
	HEData1DCMKnown      = 0x0040
	HEData1CodingKnown   = 0x0080
	HEData1BWRUKnown     = 0x4000
	HEData2GIKnown       = 0x0002
	HEData3MCSMask       = 0x0f00
	HEData3MCSShift      = 8
	HEData3DCM           = 0x1000
	HEData3CodingLDPC    = 0x2000
	HEData5BWRUMask      = 0x000f // 0-3: 20/40/80/160 MHz; 4 and up: a resource unit
	HEData5GIMask        = 0x0030
	HEData5GIShift       = 4
	HEData6NSTSMask      = 0x000f
	heData5BWRUFirstUnit = 4
)

// AMPDU_STATUS flags.
const (
	AMPDUReportZeroLen = 0x0001
	AMPDUIsZeroLen     = 0x0002
	AMPDULastKnown     = 0x0004
	AMPDUIsLast        = 0x0008
	AMPDUDelimCRCErr   = 0x0010
)

// CHANNEL field flags as mac80211 writes them.
const (
	ChanCCK  = 0x0020
	ChanOFDM = 0x0040
	Chan2GHz = 0x0080
	Chan5GHz = 0x0100
	ChanDyn  = 0x0400
)
