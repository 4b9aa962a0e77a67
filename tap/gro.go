package tap

import (
	"bytes"
	"encoding/binary"
)

// Uplink, the reverse of the segmenter: consecutive TCP segments of one
// flow, in one WriteBatch, go to the kernel as one GSO frame (what GRO does
// on a NIC), so the host's stack takes one frame and sends one ACK where it
// took a dozen and sent half a dozen. The rules are the kernel's GRO rules,
// kept strict: same addresses, ports, TTL/TOS, DF, ACK number, window,
// urgent pointer and options; IPv4 IDs counting up by one; ACK (ECE if all
// have it, PSH on the last) only; sequence numbers follow on; all segments
// but the last the same size; each checksum verified first. What the
// coalescer merges, cutting it again as TSO does gives back the very
// segments it took (FuzzCoalesce), so a router behind the host forwards
// them unchanged.

// maxMerged bounds a merged frame: an IPv4 total length is 16 bits.
const maxMerged = 65535

// tcpSeg is what the coalescer reads of a frame that may be merged.
type tcpSeg struct {
	l4, hdr int // offsets of the TCP header and the payload
	ipv6    bool
	seq     uint32
	flags   uint8
}

const (
	tcpFIN, tcpSYN, tcpRST, tcpPSH, tcpACK, tcpURG, tcpECE, tcpCWR = 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80
)

// parseSeg accepts an untagged TCP/IPv4 (no options, not a fragment) or
// TCP/IPv6 (no extension header) frame with a payload, ACK set and no flag
// but PSH and ECE besides, its lengths exactly the frame's and its
// checksums good. ECE merges (the receiver's echo, the same on every
// segment of a run); CWR does not: GSO puts it on the first segment only.
func parseSeg(b []byte) (tcpSeg, bool) {
	be := binary.BigEndian
	var s tcpSeg
	if len(b) < 14+40 {
		return s, false
	}
	switch be.Uint16(b[12:]) {
	case 0x0800:
		ip := b[14:]
		if ip[0] != 0x45 || ip[9] != 6 || int(be.Uint16(ip[2:])) != len(ip) || be.Uint16(ip[6:])&0x3fff != 0 ||
			fold(sum(ip[:20], 0)) != 0xffff {
			return s, false
		}
		s.l4 = 14 + 20
	case 0x86dd:
		ip := b[14:]
		if ip[0]>>4 != 6 || ip[6] != 6 || int(be.Uint16(ip[4:]))+40 != len(ip) {
			return s, false
		}
		s.l4, s.ipv6 = 14+40, true
	default:
		return s, false
	}
	if len(b) < s.l4+20 {
		return s, false
	}
	th := b[s.l4:]
	s.hdr = s.l4 + int(th[12]>>4)*4
	s.flags = th[13]
	if s.hdr < s.l4+20 || s.hdr >= len(b) || th[12]&0x0f != 0 || s.flags&^(tcpPSH|tcpECE) != tcpACK {
		return s, false
	}
	s.seq = be.Uint32(th[4:])
	return s, segPseudo(b, s) == 0xffff
}

// segPseudo folds the pseudo-header and the segment: 0xffff if the
// checksum is right.
func segPseudo(b []byte, s tcpSeg) uint16 {
	return fold(sum(b[s.l4:], pseudoOf(b, s, len(b)-s.l4)))
}

func pseudoOf(b []byte, s tcpSeg, length int) uint64 {
	if s.ipv6 {
		return pseudoSum(b[14+8:14+24], b[14+24:14+40], 6, length)
	}
	return pseudoSum(b[14+12:14+16], b[14+16:14+20], 6, length)
}

// follows: segment b (parsed as bs) may join a run that started with a
// (parsed as as) as its i-th segment and expects sequence number seq next.
func follows(a []byte, as tcpSeg, b []byte, bs tcpSeg, i int, seq uint32) bool {
	if bs.seq != seq || bs.ipv6 != as.ipv6 || bs.hdr != as.hdr || !bytes.Equal(a[:14], b[:14]) {
		return false
	}
	ia, ib := a[14:as.l4], b[14:bs.l4]
	if as.ipv6 {
		// version, traffic class, flow label; hop limit; addresses
		if !bytes.Equal(ia[:4], ib[:4]) || ia[7] != ib[7] || !bytes.Equal(ia[8:40], ib[8:40]) {
			return false
		}
	} else if ia[1] != ib[1] || ia[8] != ib[8] || !bytes.Equal(ia[12:20], ib[12:20]) ||
		ia[6] != ib[6] || binary.BigEndian.Uint16(ib[4:]) != binary.BigEndian.Uint16(ia[4:])+uint16(i) {
		// TOS (ECN included), TTL, addresses; DF and the reserved bit; the
		// ID the i-th segment of a TSO send gets (the kernel's GRO wants
		// it too, unless DF is set and the ID fixed, a case GSO only
		// reproduces with a flag the virtio header cannot carry)
		return false
	}
	ta, tb := a[as.l4:as.hdr], b[bs.l4:bs.hdr]
	// ports; ACK number; flags but PSH; window; urgent pointer; options
	return bytes.Equal(ta[0:4], tb[0:4]) && bytes.Equal(ta[8:12], tb[8:12]) && ta[13]&^tcpPSH == tb[13]&^tcpPSH &&
		bytes.Equal(ta[14:16], tb[14:16]) && bytes.Equal(ta[18:], tb[18:])
}

// coalescer builds merged frames in a buffer of its own.
type coalescer struct {
	buf []byte // maxMerged + Ethernet header
	hdr [vnetHdrLen]byte
}

func newCoalescer() coalescer { return coalescer{buf: make([]byte, maxMerged+14)} }

// merge looks at the run of frames at the head of frames and returns how
// many it merged; for k > 1 the merged frame and its vnet header are
// c.frame(), else frames[0] goes alone with no offload.
func (c *coalescer) merge(frames [][]byte) (k int, frame []byte) {
	first := frames[0]
	fs, ok := parseSeg(first)
	if !ok || len(frames) < 2 {
		return 1, nil
	}
	size := len(first) - fs.hdr // gso_size: every segment but the last
	seq := fs.seq + uint32(size)
	total := len(first)
	k = 1
	for k < len(frames) && fs.flags&tcpPSH == 0 {
		b := frames[k]
		bs, ok := parseSeg(b)
		n := len(b) - bs.hdr
		if !ok || n > size || total+n > len(c.buf) || !follows(first, fs, b, bs, k, seq) {
			break
		}
		k++
		total += n
		seq += uint32(n)
		if n < size || bs.flags&tcpPSH != 0 {
			break // a short or pushed segment ends the run
		}
	}
	if k == 1 {
		return 1, nil
	}
	return k, c.build(frames[:k], fs, size, total)
}

// build writes the merged frame: the first segment's headers with the
// lengths of the whole, PSH if the last had it, every payload in order,
// and the checksum left partial for the kernel (NEEDS_CSUM), as GRO
// leaves it.
func (c *coalescer) build(frames [][]byte, fs tcpSeg, size, total int) []byte {
	be := binary.BigEndian
	out := c.buf[:total]
	n := copy(out, frames[0])
	for _, b := range frames[1:] {
		n += copy(out[n:], b[fs.hdr:])
	}
	if fs.ipv6 {
		be.PutUint16(out[14+4:], uint16(total-fs.l4))
	} else {
		be.PutUint16(out[14+2:], uint16(total-14))
		be.PutUint16(out[14+10:], ipv4Checksum(out[14:fs.l4]))
	}
	last := frames[len(frames)-1]
	out[fs.l4+13] |= last[fs.l4+13] & tcpPSH
	be.PutUint16(out[fs.l4+16:], fold(pseudoOf(out, fs, total-fs.l4)))
	h := vnetHdr{flags: vnetNeedsCsum, gsoType: gsoTCPv4, hdrLen: uint16(fs.hdr), gsoSize: uint16(size),
		csumStart: uint16(fs.l4), csumOffset: 16}
	if fs.ipv6 {
		h.gsoType = gsoTCPv6
	}
	h.encode(c.hdr[:])
	return out
}
