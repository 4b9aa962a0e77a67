package ieee80211

// Status codes (IEEE 802.11 table 9-50).
const (
	StatusSuccess                = 0
	StatusUnspecified            = 1
	StatusCapsUnsupported        = 10
	StatusReassocNoAssoc         = 11
	StatusAssocDeniedUnspec      = 12
	StatusNotSupportedAuthAlg    = 13
	StatusUnknownAuthTransaction = 14
	StatusChallengeFail          = 15
	StatusAuthTimeout            = 16
	StatusAPUnableToHandleNewSta = 17
	StatusAssocDeniedRates       = 18
	StatusAssocDeniedNoShortPre  = 19
	StatusAssocRejectedTemp      = 30
	StatusRobustMgmtPolicy       = 31
	StatusRequestDeclined        = 37
	StatusInvalidParameters      = 38
	StatusInvalidIE              = 40
	StatusInvalidGroupCipher     = 41
	StatusInvalidPairwiseCipher  = 42
	StatusInvalidAKMP            = 43
	StatusUnsupportedRSNVersion  = 44
	StatusInvalidRSNCaps         = 45
	StatusCipherRejected         = 46
	StatusDeniedNoHT             = 27
	StatusDeniedNoVHT            = 104
)

// Reason codes (IEEE 802.11 table 9-49).
const (
	ReasonUnspecified        = 1
	ReasonPrevAuthNotValid   = 2
	ReasonDeauthLeaving      = 3
	ReasonInactivity         = 4
	ReasonAPFull             = 5
	ReasonClass2FromNonAuth  = 6
	ReasonClass3FromNonAssoc = 7
	ReasonDisassocLeaving    = 8
	ReasonNotAuthenticated   = 9
	ReasonPowerCapBad        = 10
	ReasonSupportedChanBad   = 11
	ReasonInvalidIE          = 13
	ReasonMICFailure         = 14
	Reason4WayTimeout        = 15
	ReasonGroupKeyTimeout    = 16
	ReasonIEMismatch         = 17
	ReasonUnspecifiedQoS     = 32
	ReasonQoSNoResources     = 33
	ReasonTimeout            = 39
)

// Element IDs.
const (
	ElemSSID              = 0
	ElemSupportedRates    = 1
	ElemDSParams          = 3
	ElemTIM               = 5
	ElemCountry           = 7
	ElemBSSLoad           = 11
	ElemChallenge         = 16
	ElemPowerCap          = 33
	ElemSupportedChannels = 36
	ElemERP               = 42
	ElemHTCap             = 45
	ElemRSN               = 48
	ElemExtSupportedRates = 50
	ElemHTOper            = 61
	ElemRMEnabledCap      = 70
	ElemBSSCoex2040       = 72 // 20/40 BSS Coexistence
	ElemIntolerantReport  = 73 // 20/40 BSS Intolerant Channel Report
	ElemOBSSScanParams    = 74 // Overlapping BSS Scan Parameters
	ElemExtCap            = 127
	ElemVHTCap            = 191
	ElemVHTOper           = 192
	ElemVendor            = 221
	ElemExtension         = 255
)

// Element ID Extensions (the octet after ElemExtension).
const (
	ElemExtHECap = 35
	// ElemExtHECapMinLen is the shortest HE Capabilities body after the
	// extension ID: MAC (6) and PHY (11) capabilities and the 80 MHz
	// Rx/Tx HE-MCS maps (4).
	ElemExtHECapMinLen = 21
)

// WMM vendor element (Microsoft OUI 00:50:f2, type 2).
var OUIMicrosoft = [3]byte{0x00, 0x50, 0xf2}

const (
	WMMType         = 2
	WMMSubtypeInfo  = 0
	WMMSubtypeParam = 1
	WMMVersion      = 1
)
