package tap

import (
	"encoding/binary"
	"errors"
)

// With IFF_VNET_HDR, tun puts a struct virtio_net_hdr in front of every
// frame in both directions, in the host's byte order (we never ask for
// another). It is how the kernel hands over a GSO frame (one TCP send of up
// to 64 KiB with one set of headers) or a frame whose checksum it left for
// the device to finish.
const vnetHdrLen = 10

const (
	vnetNeedsCsum = 1 // VIRTIO_NET_HDR_F_NEEDS_CSUM

	gsoNone  = 0 // VIRTIO_NET_HDR_GSO_*
	gsoTCPv4 = 1
	gsoTCPv6 = 4
	gsoUDPL4 = 5
	gsoECN   = 0x80
)

// vnetHdr is a decoded virtio_net_hdr.
type vnetHdr struct {
	flags, gsoType                         uint8
	hdrLen, gsoSize, csumStart, csumOffset uint16
}

func decodeVnetHdr(b []byte) vnetHdr {
	e := binary.NativeEndian
	return vnetHdr{flags: b[0], gsoType: b[1], hdrLen: e.Uint16(b[2:]), gsoSize: e.Uint16(b[4:]),
		csumStart: e.Uint16(b[6:]), csumOffset: e.Uint16(b[8:])}
}

func (h vnetHdr) encode(b []byte) {
	e := binary.NativeEndian
	b[0], b[1] = h.flags, h.gsoType
	e.PutUint16(b[2:], h.hdrLen)
	e.PutUint16(b[4:], h.gsoSize)
	e.PutUint16(b[6:], h.csumStart)
	e.PutUint16(b[8:], h.csumOffset)
}

// errOffload is a frame whose vnet header the segmenter cannot honour: it
// is dropped and counted (Stats.RxBadOffload).
var errOffload = errors.New("tap: malformed offload header")

// segmenter turns one frame read from tun into the frames airq forwards: a
// GSO frame into segments of gsoSize payload bytes, each with its own
// headers and checksums, as the NIC would have cut it; a frame with a
// partial checksum into itself with the checksum finished. It copies into
// the caller's buffers and keeps no state beyond the frame it is cutting.
type segmenter struct {
	frame       []byte
	h           vnetHdr
	l3, l4, hdr int // offsets of the IP header, the transport header, the payload
	off         int // payload offset of the next segment
	n           int // segments made so far
	ipv6, udp   bool
	pending     bool
}

// reset starts on frame (Ethernet header first) as described by h. It
// returns errOffload, and leaves nothing pending, if h does not match the
// frame. A frame without GSO is left for finishCsum.
func (s *segmenter) reset(h vnetHdr, frame []byte) error {
	*s = segmenter{frame: frame, h: h}
	if h.gsoType&^gsoECN == gsoNone {
		return checkCsum(h, frame)
	}
	if h.flags&vnetNeedsCsum == 0 || h.gsoSize == 0 {
		return errOffload
	}
	l3, etherType := 14, uint16(0)
	if len(frame) >= 14 {
		etherType = binary.BigEndian.Uint16(frame[12:])
	}
	if etherType == 0x8100 && len(frame) >= 18 {
		l3, etherType = 18, binary.BigEndian.Uint16(frame[16:])
	}
	s.l3, s.l4 = l3, int(h.csumStart)
	switch h.gsoType &^ gsoECN {
	case gsoTCPv4:
		return s.resetTCP(etherType == 0x0800 && s.ipv4OK(6))
	case gsoTCPv6:
		return s.resetTCP(etherType == 0x86dd && s.ipv6OK(6))
	case gsoUDPL4:
		s.udp = true
		ok := etherType == 0x0800 && s.ipv4OK(17) || etherType == 0x86dd && s.ipv6OK(17)
		if !ok || h.csumOffset != 6 || s.l4+8 > len(frame) {
			return errOffload
		}
		s.hdr = s.l4 + 8
		return s.start()
	}
	return errOffload
}

func (s *segmenter) resetTCP(ok bool) error {
	if !ok || s.h.csumOffset != 16 || s.l4+20 > len(s.frame) {
		return errOffload
	}
	s.hdr = s.l4 + int(s.frame[s.l4+12]>>4)*4
	if s.hdr < s.l4+20 || s.hdr > len(s.frame) {
		return errOffload
	}
	return s.start()
}

func (s *segmenter) start() error {
	s.off, s.pending = s.hdr, true
	return nil
}

// ipv4OK: an IPv4 header without surprises ends where the transport header
// starts.
func (s *segmenter) ipv4OK(proto uint8) bool {
	f := s.frame
	if s.l4 < s.l3+20 || s.l4 > len(f) || f[s.l3]>>4 != 4 || int(f[s.l3]&0xf)*4 != s.l4-s.l3 {
		return false
	}
	return f[s.l3+9] == proto
}

// ipv6OK: the kernel segments IPv6 with extension headers too, but it does
// not send them here in practice; such frames are refused, not mangled.
func (s *segmenter) ipv6OK(proto uint8) bool {
	f := s.frame
	s.ipv6 = true
	return s.l4 == s.l3+40 && s.l4 <= len(f) && f[s.l3]>>4 == 6 && f[s.l3+6] == proto
}

// checkCsum validates a non-GSO frame's partial checksum offsets.
func checkCsum(h vnetHdr, frame []byte) error {
	if h.flags&vnetNeedsCsum != 0 && int(h.csumStart)+int(h.csumOffset)+2 > len(frame) {
		return errOffload
	}
	return nil
}

// finishCsum completes the partial checksum of a non-GSO frame in place:
// tun left the pseudo-header sum in the field and the rest to us.
func finishCsum(h vnetHdr, frame []byte) {
	if h.flags&vnetNeedsCsum == 0 {
		return
	}
	at := int(h.csumStart) + int(h.csumOffset)
	c := ^fold(sum(frame[h.csumStart:], 0))
	if c == 0 {
		c = 0xffff
	}
	binary.BigEndian.PutUint16(frame[at:], c)
}

// next writes the next segment into dst and returns its length, which is
// more than len(dst) if it did not fit (the segment is then truncated, with
// no checksums). ok is false when the frame is done.
func (s *segmenter) next(dst []byte) (n int, ok bool) {
	if !s.pending {
		return 0, false
	}
	plen := min(int(s.h.gsoSize), len(s.frame)-s.off)
	last := s.off+plen >= len(s.frame)
	n = s.hdr + plen
	if n > len(dst) {
		copy(dst, s.frame[:s.hdr])
		if s.hdr < len(dst) {
			copy(dst[s.hdr:], s.frame[s.off:])
		}
	} else {
		seg := dst[:n]
		copy(seg, s.frame[:s.hdr])
		copy(seg[s.hdr:], s.frame[s.off:s.off+plen])
		s.fix(seg, last)
	}
	s.off += plen
	s.n++
	s.pending = !last
	return n, true
}

// fix rewrites the headers copied into seg for this segment: IP lengths,
// the IPv4 ID and header checksum, TCP sequence number and flags (FIN and
// PSH only on the last segment, CWR only on the first), UDP length, and
// the transport checksum.
func (s *segmenter) fix(seg []byte, last bool) {
	be := binary.BigEndian
	ip, l4 := seg[s.l3:s.l4], seg[s.l4:]
	var pseudo uint64
	proto := uint8(6)
	if s.udp {
		proto = 17
	}
	if s.ipv6 {
		be.PutUint16(ip[4:], uint16(len(l4)))
		pseudo = pseudoSum(ip[8:24], ip[24:40], proto, len(l4))
	} else {
		be.PutUint16(ip[2:], uint16(len(ip)+len(l4)))
		be.PutUint16(ip[4:], be.Uint16(s.frame[s.l3+4:])+uint16(s.n))
		be.PutUint16(ip[10:], ipv4Checksum(ip))
		pseudo = pseudoSum(ip[12:16], ip[16:20], proto, len(l4))
	}
	if s.udp {
		be.PutUint16(l4[4:], uint16(len(l4)))
		l4[6], l4[7] = 0, 0
		be.PutUint16(l4[6:], transportChecksum(pseudo, l4))
		return
	}
	be.PutUint32(l4[4:], be.Uint32(s.frame[s.l4+4:])+uint32(s.off-s.hdr))
	if !last {
		l4[13] &^= 0x01 | 0x08 // FIN, PSH
	}
	if s.n > 0 {
		l4[13] &^= 0x80 // CWR
	}
	l4[16], l4[17] = 0, 0
	be.PutUint16(l4[16:], transportChecksum(pseudo, l4))
}
