package ieee80211

// Legacy rates in Supported Rates elements are in 500 kbit/s units; the
// high bit marks a basic rate, one every station of the BSS must support.
const RateBasic = 0x80

// BSS membership selectors that share the rate octets.
const (
	SelectorHTPhy  = 127
	SelectorVHTPhy = 126
	SelectorSAEH2E = 123
)

// RateValue strips the basic-rate bit.
func RateValue(r byte) uint8 { return r &^ RateBasic }

// IsBasic reports whether the basic-rate bit is set.
func IsBasic(r byte) bool { return r&RateBasic != 0 }

// IsSelector reports whether the octet is a membership selector, not a rate.
func IsSelector(r byte) bool {
	v := RateValue(r)
	return IsBasic(r) && (v == SelectorHTPhy || v == SelectorVHTPhy || v == SelectorSAEH2E)
}

// IsDSSS reports whether the rate is a DSSS/CCK rate (1, 2, 5.5, 11 Mbit/s).
func IsDSSS(r byte) bool {
	switch RateValue(r) {
	case 2, 4, 11, 22:
		return true
	}
	return false
}

// IsOFDM reports whether the rate is an OFDM (ERP-OFDM) rate, 6-54 Mbit/s.
func IsOFDM(r byte) bool {
	switch RateValue(r) {
	case 12, 18, 24, 36, 48, 72, 96, 108:
		return true
	}
	return false
}

// RateKbps returns the rate in kbit/s.
func RateKbps(r byte) int { return int(RateValue(r)) * 500 }

// Rate sets an AP commonly advertises.
var (
	Rates2GHz = []byte{2 | RateBasic, 4 | RateBasic, 11 | RateBasic, 22 | RateBasic, 12, 18, 24, 36, 48, 72, 96, 108}
	Rates5GHz = []byte{12 | RateBasic, 18, 24 | RateBasic, 36, 48 | RateBasic, 72, 96, 108}
)
