package ieee80211

import "encoding/binary"

// EtherType values that need the bridge-tunnel encapsulation (IEEE 802.1H):
// AppleTalk AARP and Novell IPX, which RFC 1042 would collide with.
const (
	EtherTypeAARP = 0x80f3
	EtherTypeIPX  = 0x8137
	// EtherTypeMin is the smallest EtherType; below it the field is an 802.3 length.
	EtherTypeMin = 0x0600
)

// LLCSNAPLen is the length of an RFC 1042 / 802.1H header with EtherType.
const LLCSNAPLen = 8

var (
	rfc1042      = [6]byte{0xaa, 0xaa, 0x03, 0x00, 0x00, 0x00}
	bridgeTunnel = [6]byte{0xaa, 0xaa, 0x03, 0x00, 0x00, 0xf8}
)

// AppendLLCSNAP appends the LLC/SNAP header for etherType, choosing 802.1H
// for AARP and IPX and RFC 1042 otherwise, as Linux does.
func AppendLLCSNAP(dst []byte, etherType uint16) []byte {
	h := &rfc1042
	if etherType == EtherTypeAARP || etherType == EtherTypeIPX {
		h = &bridgeTunnel
	}
	dst = append(dst, h[:]...)
	return binary.BigEndian.AppendUint16(dst, etherType)
}

// Decap strips the LLC/SNAP header of an MSDU. Like Linux it removes
// 802.1H for any EtherType and RFC 1042 for all but AARP and IPX; otherwise
// ok is false and the body is to be bridged as a raw 802.3/LLC frame.
func Decap(body []byte) (etherType uint16, payload []byte, ok bool) {
	if len(body) < LLCSNAPLen {
		return 0, nil, false
	}
	et := binary.BigEndian.Uint16(body[6:])
	switch [6]byte(body[:6]) {
	case rfc1042:
		if et == EtherTypeAARP || et == EtherTypeIPX {
			return 0, nil, false
		}
	case bridgeTunnel:
	default:
		return 0, nil, false
	}
	if et < EtherTypeMin {
		return 0, nil, false
	}
	return et, body[LLCSNAPLen:], true
}

// EtherHdrLen is the length of an Ethernet II header.
const EtherHdrLen = 14

// EtherHdr is an Ethernet II header viewed in place.
type EtherHdr []byte

// ParseEtherHdr checks that b holds an Ethernet header.
func ParseEtherHdr(b []byte) (EtherHdr, error) {
	if len(b) < EtherHdrLen {
		return nil, ErrShort
	}
	return EtherHdr(b), nil
}

func (e EtherHdr) Dst() MAC          { return MAC(e[0:6]) }
func (e EtherHdr) Src() MAC          { return MAC(e[6:12]) }
func (e EtherHdr) EtherType() uint16 { return binary.BigEndian.Uint16(e[12:]) }
func (e EtherHdr) Payload() []byte   { return e[EtherHdrLen:] }

// AppendEtherHdr appends an Ethernet II header.
func AppendEtherHdr(dst []byte, da, sa MAC, etherType uint16) []byte {
	dst = append(dst, da[:]...)
	dst = append(dst, sa[:]...)
	return binary.BigEndian.AppendUint16(dst, etherType)
}
