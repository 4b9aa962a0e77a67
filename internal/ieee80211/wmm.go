package ieee80211

import (
	"encoding/binary"
	"errors"
)

// EDCA is the contention parameter set of one access category.
type EDCA struct {
	AIFSN  uint8
	ECWMin uint8 // CWmin = 2^ECWMin - 1
	ECWMax uint8
	TXOP   uint16 // units of 32 µs; 0 = one frame
	ACM    bool   // admission control mandatory
}

// DefaultEDCA returns the AP's parameters for its BSS as hostapd sets them
// by default (IEEE 802.11 table 9-155 for an AP).
func DefaultEDCA() [NumACs]EDCA {
	var p [NumACs]EDCA
	p[ACBE] = EDCA{AIFSN: 3, ECWMin: 4, ECWMax: 10}
	p[ACBK] = EDCA{AIFSN: 7, ECWMin: 4, ECWMax: 10}
	p[ACVI] = EDCA{AIFSN: 2, ECWMin: 3, ECWMax: 4, TXOP: 94}
	p[ACVO] = EDCA{AIFSN: 2, ECWMin: 2, ECWMax: 3, TXOP: 47}
	return p
}

// aci is the ACI of each AC as WMM numbers them; records go out in ACI order.
var aci = [NumACs]uint8{ACVO: 3, ACVI: 2, ACBE: 0, ACBK: 1}

// acByACI inverts aci.
var acByACI = [NumACs]AC{ACBE, ACBK, ACVI, ACVO}

// WMM QoS Info bits.
const (
	WMMQoSInfoUAPSD    = 0x80 // AP: U-APSD supported
	WMMQoSInfoCountMsk = 0x0f // AP: parameter set count
	WMMStaUAPSDVO      = 0x01 // station: AC_VO is trigger/delivery enabled
	WMMStaUAPSDVI      = 0x02
	WMMStaUAPSDBK      = 0x04
	WMMStaUAPSDBE      = 0x08
)

// AppendWMMParam appends the WMM Parameter element an AP puts in beacons,
// probe and association responses.
func AppendWMMParam(dst []byte, params [NumACs]EDCA, qosInfo uint8) []byte {
	dst = append(dst, ElemVendor, 24, OUIMicrosoft[0], OUIMicrosoft[1], OUIMicrosoft[2],
		WMMType, WMMSubtypeParam, WMMVersion, qosInfo, 0)
	for _, ac := range acByACI {
		p := params[ac]
		b := p.AIFSN&0x0f | aci[ac]<<5
		if p.ACM {
			b |= 0x10
		}
		dst = append(dst, b, p.ECWMin&0x0f|p.ECWMax<<4)
		dst = appendLE16(dst, p.TXOP)
	}
	return dst
}

// AppendWMMInfo appends the WMM Information element (a station's, in its
// association request, or an AP's short form).
func AppendWMMInfo(dst []byte, qosInfo uint8) []byte {
	return append(dst, ElemVendor, 7, OUIMicrosoft[0], OUIMicrosoft[1], OUIMicrosoft[2],
		WMMType, WMMSubtypeInfo, WMMVersion, qosInfo)
}

// WMMQoSInfo returns the QoS Info byte of the WMM element in e (Information
// or Parameter); ok is false if the station or AP does not do WMM.
func (e Elements) WMMQoSInfo() (qosInfo uint8, ok bool) {
	b, ok := e.FindVendor(OUIMicrosoft, WMMType)
	if !ok || len(b) < 3 || b[1] != WMMVersion || (b[0] != WMMSubtypeInfo && b[0] != WMMSubtypeParam) {
		return 0, false
	}
	return b[2], true
}

// ErrWMM reports a station's WMM element that is not a valid WMM
// Information element.
var ErrWMM = errors.New("ieee80211: invalid WMM element")

// StationWMM reads the WMM element of a station's (re)association request
// as hostapd does: the last vendor element with the WMM OUI and type, an
// Information or Parameter subtype and at least the subtype octet
// (ieee802_11_parse_vendor_specific ignores shorter ones and other
// subtypes). found is false when there is none. err is ErrWMM when the one
// found is not a valid WMM Information element (shorter than its 7 octets,
// a Parameter element, or another version): hostapd_eid_wmm_valid refuses
// those, and hostapd answers the request with status 1.
func (e Elements) StationWMM() (qosInfo uint8, found bool, err error) {
	var last []byte
	it := e.Iter()
	for it.Next() {
		b := it.Body()
		if it.ID() != ElemVendor || len(b) < 5 || [3]byte(b[:3]) != OUIMicrosoft || b[3] != WMMType {
			continue
		}
		if b[4] == WMMSubtypeInfo || b[4] == WMMSubtypeParam {
			last = b
		}
	}
	switch {
	case last == nil:
		return 0, false, nil
	case len(last) < 7 || last[4] != WMMSubtypeInfo || last[5] != WMMVersion:
		return 0, true, ErrWMM
	}
	return last[6], true, nil
}

// WMMParams returns the EDCA parameters of a WMM Parameter element in e.
func (e Elements) WMMParams() (params [NumACs]EDCA, qosInfo uint8, ok bool) {
	b, ok := e.FindVendor(OUIMicrosoft, WMMType)
	if !ok || len(b) < 20 || b[0] != WMMSubtypeParam || b[1] != WMMVersion {
		return params, 0, false
	}
	for i := 0; i < NumACs; i++ {
		r := b[4+4*i:]
		ac := acByACI[r[0]>>5&3]
		params[ac] = EDCA{AIFSN: r[0] & 0x0f, ACM: r[0]&0x10 != 0, ECWMin: r[1] & 0x0f, ECWMax: r[1] >> 4,
			TXOP: binary.LittleEndian.Uint16(r[2:])}
	}
	return params, b[2], true
}
