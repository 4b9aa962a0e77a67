package tap

import (
	"encoding/binary"
	"math/bits"
)

// sum adds b to acc, the Internet checksum's ones'-complement sum (RFC 1071)
// of big-endian 16-bit words, kept unfolded; b starts at an even offset of
// the checksummed data, and each call adds at most 0xffff to acc.
//
// It sums b as little-endian 64-bit words with end-around carries, one load
// and one add-with-carry per 8 bytes (big-endian words cost a byte swap
// each, and checking each segment's checksum is over a quarter of the
// uplink's user CPU), then swaps the folded result's bytes, which gives the
// big-endian sum (RFC 1071, "byte order independence").
func sum(b []byte, acc uint64) uint64 {
	var s, c uint64
	for len(b) >= 64 {
		s, c = bits.Add64(s, binary.LittleEndian.Uint64(b), c)
		s, c = bits.Add64(s, binary.LittleEndian.Uint64(b[8:]), c)
		s, c = bits.Add64(s, binary.LittleEndian.Uint64(b[16:]), c)
		s, c = bits.Add64(s, binary.LittleEndian.Uint64(b[24:]), c)
		s, c = bits.Add64(s, binary.LittleEndian.Uint64(b[32:]), c)
		s, c = bits.Add64(s, binary.LittleEndian.Uint64(b[40:]), c)
		s, c = bits.Add64(s, binary.LittleEndian.Uint64(b[48:]), c)
		s, c = bits.Add64(s, binary.LittleEndian.Uint64(b[56:]), c)
		b = b[64:]
	}
	for len(b) >= 8 {
		s, c = bits.Add64(s, binary.LittleEndian.Uint64(b), c)
		b = b[8:]
	}
	var tail uint64
	if len(b) >= 4 {
		tail = uint64(binary.LittleEndian.Uint32(b))
		b = b[4:]
	}
	if len(b) >= 2 {
		tail += uint64(binary.LittleEndian.Uint16(b))
		b = b[2:]
	}
	if len(b) == 1 {
		tail += uint64(b[0]) // the high byte of a big-endian word
	}
	s, c = bits.Add64(s, tail, c)
	s, c = bits.Add64(s, 0, c) // 2^64 is 1 in ones' complement
	s += c
	return acc + uint64(bits.ReverseBytes16(fold(s)))
}

// fold reduces an unfolded sum to 16 bits with the end-around carries.
func fold(acc uint64) uint16 {
	acc = acc>>32 + acc&0xffffffff
	acc = acc>>32 + acc&0xffffffff
	acc = acc>>16 + acc&0xffff
	acc = acc>>16 + acc&0xffff
	return uint16(acc)
}

// pseudoSum is the unfolded sum of the TCP/UDP pseudo-header: the addresses
// (4 or 16 bytes each), the protocol and the transport length.
func pseudoSum(src, dst []byte, proto uint8, length int) uint64 {
	return sum(dst, sum(src, uint64(proto)+uint64(length)))
}

// transportChecksum is what goes into a TCP or UDP checksum field for the
// segment seg (transport header and payload, the field zeroed) given its
// pseudo-header sum. A zero result is sent as 0xffff, which means the same
// in ones' complement and, for UDP, is not "no checksum".
func transportChecksum(pseudo uint64, seg []byte) uint16 {
	c := ^fold(sum(seg, pseudo))
	if c == 0 {
		return 0xffff
	}
	return c
}

// ipv4Checksum is the header checksum of the IPv4 header h, its own field
// counted as zero.
func ipv4Checksum(h []byte) uint16 {
	acc := sum(h[:10], 0)
	acc = sum(h[12:], acc)
	return ^fold(acc)
}
