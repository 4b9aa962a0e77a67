package tap

import (
	"encoding/binary"
)

// segSpec describes one TCP segment field by field, so that a test can
// change any of them; frame builds it by hand, every length and checksum
// computed (refChecksum), unless a bad checksum is asked for.
type segSpec struct {
	ipv6            bool
	dst, src        [6]byte
	tos, ttl        uint8 // traffic class and hop limit for IPv6
	ipFlags         uint8 // the high byte of IPv4's flags and fragment offset (0x40: DF)
	id              uint16
	flowLabel       uint32
	saddr, daddr    [16]byte
	sport, dport    uint16
	seq, ack        uint32
	flags           uint8
	window, urg     uint16
	options         []byte // a multiple of 4 bytes
	ipOptions       []byte // IPv4 only, a multiple of 4 bytes
	payload         int    // length; the bytes are payloadByte(seq + i)
	badIP, badTCP   bool
	etherType       uint16 // 0: the family's
	proto           uint8  // 0: TCP
	headerRemainder uint8  // the low 4 bits of TCP's data offset byte
}

// payloadByte makes a segment's bytes depend on its sequence numbers, so
// that merged payloads out of order or shifted show.
func payloadByte(seq uint32) byte { return byte(seq*7 + seq>>8) }

func baseSpec(ipv6 bool) segSpec {
	s := segSpec{ipv6: ipv6, dst: [6]byte{2, 0, 0, 0, 0, 2}, src: [6]byte{2, 0, 0, 0, 0, 1}, ttl: 64, ipFlags: 0x40,
		id: 0xfffe, sport: 40000, dport: 5201, seq: 0xfffff000, ack: 77, flags: tcpACK, window: 512,
		options: []byte{1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2}, payload: 1000}
	if ipv6 {
		s.saddr = [16]byte{0xfd, 15: 1}
		s.daddr = [16]byte{0xfd, 15: 2}
	} else {
		s.saddr = [16]byte{10, 0, 0, 1}
		s.daddr = [16]byte{10, 0, 0, 2}
	}
	return s
}

func (s segSpec) frame() []byte {
	be := binary.BigEndian
	b := append(s.dst[:], s.src[:]...)
	et := s.etherType
	if et == 0 {
		et = 0x0800
		if s.ipv6 {
			et = 0x86dd
		}
	}
	b = be.AppendUint16(b, et)
	proto := s.proto
	if proto == 0 {
		proto = 6
	}
	l4len := 20 + len(s.options) + s.payload
	var pseudo []byte
	if s.ipv6 {
		b = be.AppendUint32(b, 6<<28|uint32(s.tos)<<20|s.flowLabel&0xfffff)
		b = be.AppendUint16(b, uint16(l4len))
		b = append(b, proto, s.ttl)
		b = append(append(b, s.saddr[:]...), s.daddr[:]...)
		pseudo = append(append([]byte{}, s.saddr[:]...), s.daddr[:]...)
	} else {
		ihl := 20 + len(s.ipOptions)
		ip := []byte{0x40 | byte(ihl/4), s.tos}
		ip = be.AppendUint16(ip, uint16(ihl+l4len))
		ip = be.AppendUint16(ip, s.id)
		ip = append(ip, s.ipFlags, 0, s.ttl, proto, 0, 0)
		ip = append(append(ip, s.saddr[:4]...), s.daddr[:4]...)
		ip = append(ip, s.ipOptions...)
		c := refChecksum(ip)
		if s.badIP {
			c++
		}
		be.PutUint16(ip[10:], c)
		b = append(b, ip...)
		pseudo = append(append([]byte{}, s.saddr[:4]...), s.daddr[:4]...)
	}
	l4 := len(b)
	b = be.AppendUint16(b, s.sport)
	b = be.AppendUint16(b, s.dport)
	b = be.AppendUint32(b, s.seq)
	b = be.AppendUint32(b, s.ack)
	b = append(b, byte((20+len(s.options))/4)<<4|s.headerRemainder&0xf, s.flags)
	b = be.AppendUint16(b, s.window)
	b = append(b, 0, 0)
	b = be.AppendUint16(b, s.urg)
	b = append(b, s.options...)
	for i := range s.payload {
		b = append(b, payloadByte(s.seq+uint32(i)))
	}
	pseudo = append(pseudo, 0, proto)
	pseudo = be.AppendUint16(pseudo, uint16(l4len))
	c := refChecksum(pseudo, b[l4:])
	if s.badTCP {
		c++
	}
	be.PutUint16(b[l4+16:], c)
	return b
}

// run builds n segments of one flow from base: sequence numbers and IPv4
// IDs follow on; each can then be changed by mod.
func run(base segSpec, n int, mod func(i int, s *segSpec)) [][]byte {
	out := make([][]byte, n)
	seq, id := base.seq, base.id
	for i := range out {
		s := base
		s.seq, s.id = seq, id
		if mod != nil {
			mod(i, &s)
		}
		out[i] = s.frame()
		seq, id = s.seq+uint32(s.payload), s.id+1
	}
	return out
}
