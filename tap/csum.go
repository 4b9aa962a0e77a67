package tap

import (
	"encoding/binary"
)

// sum adds b to acc, the Internet checksum's ones'-complement sum (RFC 1071)
// kept unfolded: 32-bit words added into 64 bits cannot overflow before
// fold, and fold gives the same 16 bits as summing 16-bit words.
func sum(b []byte, acc uint64) uint64 {
	for len(b) >= 16 {
		acc += uint64(binary.BigEndian.Uint32(b)) + uint64(binary.BigEndian.Uint32(b[4:])) +
			uint64(binary.BigEndian.Uint32(b[8:])) + uint64(binary.BigEndian.Uint32(b[12:]))
		b = b[16:]
	}
	for len(b) >= 4 {
		acc += uint64(binary.BigEndian.Uint32(b))
		b = b[4:]
	}
	if len(b) >= 2 {
		acc += uint64(binary.BigEndian.Uint16(b))
		b = b[2:]
	}
	if len(b) == 1 {
		acc += uint64(b[0]) << 8
	}
	return acc
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
