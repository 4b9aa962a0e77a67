package ieee80211

// Frame types (Frame Control bits 2-3).
const (
	TypeMgmt = 0
	TypeCtrl = 1
	TypeData = 2
	TypeExt  = 3
)

// Management subtypes.
const (
	SubtypeAssocReq    = 0
	SubtypeAssocResp   = 1
	SubtypeReassocReq  = 2
	SubtypeReassocResp = 3
	SubtypeProbeReq    = 4
	SubtypeProbeResp   = 5
	SubtypeBeacon      = 8
	SubtypeATIM        = 9
	SubtypeDisassoc    = 10
	SubtypeAuth        = 11
	SubtypeDeauth      = 12
	SubtypeAction      = 13
	SubtypeActionNoAck = 14
)

// Control subtypes.
const (
	SubtypeBlockAckReq = 8
	SubtypeBlockAck    = 9
	SubtypePSPoll      = 10
	SubtypeRTS         = 11
	SubtypeCTS         = 12
	SubtypeACK         = 13
	SubtypeCFEnd       = 14
)

// Data subtypes. Bit 3 marks QoS, bit 2 marks "no data".
const (
	SubtypeData    = 0
	SubtypeNull    = 4
	SubtypeQoSData = 8
	SubtypeQoSNull = 12
)

// Frame Control flag bits, as the 16-bit little-endian value returned by FC.
const (
	FCToDS      = 0x0100
	FCFromDS    = 0x0200
	FCMoreFrag  = 0x0400
	FCRetry     = 0x0800
	FCPwrMgt    = 0x1000
	FCMoreData  = 0x2000
	FCProtected = 0x4000
	FCOrder     = 0x8000
)

// QoS Control bits.
const (
	QoSTIDMask = 0x000f
	QoSEOSP    = 0x0010
	QoSAckMask = 0x0060
	QoSNoAck   = 0x0020
	QoSAMSDU   = 0x0080
)

// Capability Information bits.
const (
	CapESS           = 0x0001
	CapIBSS          = 0x0002
	CapPrivacy       = 0x0010
	CapShortPreamble = 0x0020
	CapSpectrumMgmt  = 0x0100
	CapQoS           = 0x0200
	CapShortSlotTime = 0x0400
	CapRadioMeasure  = 0x1000
)

// Authentication algorithms.
const (
	AuthOpen   = 0
	AuthShared = 1
	AuthFT     = 2
	AuthSAE    = 3
)

// Action categories used by an AP.
const (
	CategorySpectrumMgmt = 0
	CategoryQoS          = 1
	CategoryBlockAck     = 3
	CategoryPublic       = 4
	CategoryHT           = 7
	CategorySAQuery      = 8
	CategoryWNM          = 10
	CategoryVHT          = 21
	CategoryVendor       = 127
	// CategoryErrorBit is set in the category of an unknown action frame
	// returned to its sender (IEEE 802.11 11.25).
	CategoryErrorBit = 0x80
)

// Block Ack action codes.
const (
	ActionADDBAReq  = 0
	ActionADDBAResp = 1
	ActionDELBA     = 2
)

// AIDMask strips the two high bits an AID carries in AssocResp and PS-Poll.
const AIDMask = 0x3fff
