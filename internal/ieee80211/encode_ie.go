package ieee80211

// AppendElement appends one element. A body longer than 255 bytes cannot be
// carried by one element and is cut at 255.
func AppendElement(dst []byte, id uint8, body ...byte) []byte {
	if len(body) > 255 {
		body = body[:255]
	}
	dst = append(dst, id, uint8(len(body)))
	return append(dst, body...)
}

// AppendSSID appends an SSID element (at most 32 bytes; longer is cut).
// An empty SSID is the wildcard of a probe request or a hidden beacon.
func AppendSSID(dst []byte, ssid string) []byte {
	if len(ssid) > 32 {
		ssid = ssid[:32]
	}
	dst = append(dst, ElemSSID, uint8(len(ssid)))
	return append(dst, ssid...)
}

// AppendRates appends Supported Rates with the first eight rates and, when
// there are more, Extended Supported Rates with the rest (up to 255). Rates
// are in 500 kbit/s units with RateBasic marking basic rates.
func AppendRates(dst []byte, rates []byte) []byte {
	first := rates
	if len(first) > 8 {
		first = first[:8]
	}
	dst = AppendElement(dst, ElemSupportedRates, first...)
	if len(rates) > 8 {
		dst = AppendElement(dst, ElemExtSupportedRates, rates[8:]...)
	}
	return dst
}

// AppendDSParams appends the DS Parameter Set: the current channel.
func AppendDSParams(dst []byte, channel uint8) []byte {
	return append(dst, ElemDSParams, 1, channel)
}

// ERP element bits.
const (
	ERPNonERPPresent  = 0x01
	ERPUseProtection  = 0x02
	ERPBarkerPreamble = 0x04 // long preamble required
)

// AppendERP appends the ERP element with the given ERP* bits.
func AppendERP(dst []byte, flags uint8) []byte {
	return append(dst, ElemERP, 1, flags)
}

// CountryTriplet is one subband of the Country element.
type CountryTriplet struct {
	FirstChannel uint8
	NumChannels  uint8
	MaxPowerDBm  int8
}

// AppendCountry appends a Country element: the two-letter code, the
// environment (' ' any, 'O' outdoor, 'I' indoor, 'X' non-country), the
// subband triplets, and a pad byte when needed to keep the length even.
func AppendCountry(dst []byte, cc string, env byte, triplets []CountryTriplet) []byte {
	if len(triplets) > 84 {
		triplets = triplets[:84]
	}
	n := 3 + 3*len(triplets)
	pad := n & 1
	var c0, c1 byte = ' ', ' '
	if len(cc) >= 2 {
		c0, c1 = cc[0], cc[1]
	}
	dst = append(dst, ElemCountry, uint8(n+pad), c0, c1, env)
	for _, t := range triplets {
		dst = append(dst, t.FirstChannel, t.NumChannels, uint8(t.MaxPowerDBm))
	}
	if pad != 0 {
		dst = append(dst, 0)
	}
	return dst
}

// AppendVendor appends a vendor-specific element with OUI and type.
func AppendVendor(dst []byte, oui [3]byte, typ uint8, body ...byte) []byte {
	if len(body) > 251 {
		body = body[:251]
	}
	dst = append(dst, ElemVendor, uint8(4+len(body)), oui[0], oui[1], oui[2], typ)
	return append(dst, body...)
}
