package ieee80211

import "encoding/binary"

// amsduHdrLen is DA, SA and the big-endian length of one subframe.
const amsduHdrLen = 14

// AMSDUIter walks the subframes of a received A-MSDU body without
// allocating:
//
//	it := AMSDUSubframes(f.Body())
//	for it.Next() { MSDUToEthernet(buf, it.DA(), it.SA(), it.Payload()) }
//	if it.Err() != nil { drop the rest }
type AMSDUIter struct {
	rest    []byte
	first   bool
	da, sa  MAC
	payload []byte
	err     error
}

// AMSDUSubframes returns an iterator over body, the body of a QoS data frame
// whose A-MSDU Present bit is set.
func AMSDUSubframes(body []byte) AMSDUIter { return AMSDUIter{rest: body, first: true} }

// Next advances to the next subframe; false at the end or on a malformed one.
func (it *AMSDUIter) Next() bool {
	if len(it.rest) == 0 || it.err != nil {
		return false
	}
	if len(it.rest) < amsduHdrLen {
		return it.fail()
	}
	n := amsduHdrLen + int(binary.BigEndian.Uint16(it.rest[12:]))
	if n > len(it.rest) {
		return it.fail()
	}
	// A first DA that reads as an LLC/SNAP header is a plain MSDU with the
	// A-MSDU bit flipped by an attacker (the 2021 "FragAttacks" A-MSDU
	// injection); Linux drops these and so do we.
	if it.first && [6]byte(it.rest[:6]) == rfc1042 {
		it.err = ErrAMSDUInjection
		it.payload = nil
		return false
	}
	it.first = false
	it.da, it.sa = MAC(it.rest[0:6]), MAC(it.rest[6:12])
	it.payload = it.rest[amsduHdrLen:n:n]
	// Subframes but the last are padded to a multiple of 4 bytes.
	pad := -n & 3
	if len(it.rest) <= n+pad {
		it.rest = nil
	} else {
		it.rest = it.rest[n+pad:]
	}
	return true
}

func (it *AMSDUIter) fail() bool {
	it.err = ErrAMSDU
	it.payload = nil
	return false
}

func (it *AMSDUIter) DA() MAC { return it.da }
func (it *AMSDUIter) SA() MAC { return it.sa }

// Payload returns the MSDU, still LLC/SNAP encapsulated (see Decap).
func (it *AMSDUIter) Payload() []byte { return it.payload }

// Err returns ErrAMSDU if iteration stopped at a malformed subframe, and
// ErrAMSDUInjection if the first subframe's DA reads as an LLC/SNAP header.
func (it *AMSDUIter) Err() error { return it.err }

// AppendAMSDUSubframe appends one A-MSDU subframe carrying an MSDU of the
// given EtherType. bodyStart is the offset in dst where the A-MSDU body
// begins: padding is inserted first so the subframe starts on a 4-byte
// boundary of the body.
func AppendAMSDUSubframe(dst []byte, bodyStart int, da, sa MAC, etherType uint16, payload []byte) []byte {
	for (len(dst)-bodyStart)&3 != 0 {
		dst = append(dst, 0)
	}
	dst = append(dst, da[:]...)
	dst = append(dst, sa[:]...)
	dst = binary.BigEndian.AppendUint16(dst, uint16(LLCSNAPLen+len(payload)))
	dst = AppendLLCSNAP(dst, etherType)
	return append(dst, payload...)
}
