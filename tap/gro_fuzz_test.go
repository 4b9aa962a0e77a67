package tap

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// resegment cuts a merged frame the way the kernel's TSO does, written
// here from the rules and not from the segmenter: every segment gets the
// headers of the merged frame with its own lengths, IPv4 ID (the first's
// plus its index), sequence number, flags (PSH and FIN on the last only,
// CWR on the first only) and checksums. It fails t when the vnet header or
// the merged frame's own headers are not what the kernel needs.
func resegment(t *testing.T, hb, m []byte) [][]byte {
	t.Helper()
	be := binary.BigEndian
	h := decodeVnetHdr(hb)
	ipv6 := be.Uint16(m[12:]) == 0x86dd
	l4, gso := 14+20, uint8(gsoTCPv4)
	if ipv6 {
		l4, gso = 14+40, gsoTCPv6
	}
	hdr := l4 + int(m[l4+12]>>4)*4
	if h.flags != vnetNeedsCsum || h.gsoType != gso || int(h.csumStart) != l4 || h.csumOffset != 16 ||
		int(h.hdrLen) != hdr || h.gsoSize == 0 || len(m)-hdr <= int(h.gsoSize) || len(m) > 14+65535 {
		t.Fatalf("vnet header %+v for a frame of %d bytes, TCP at %d, payload at %d", h, len(m), l4, hdr)
	}
	var pseudo []byte
	if ipv6 {
		if int(be.Uint16(m[14+4:])) != len(m)-l4 {
			t.Fatal("merged IPv6 payload length")
		}
		pseudo = bytes.Clone(m[14+8 : 14+40])
	} else {
		if int(be.Uint16(m[14+2:])) != len(m)-14 || refChecksum(m[14:l4]) != 0 {
			t.Fatal("merged IPv4 total length or header checksum")
		}
		pseudo = bytes.Clone(m[14+12 : 14+20])
	}
	pseudoOfLen := func(n int) []byte { return be.AppendUint16(append(bytes.Clone(pseudo), 0, 6), uint16(n)) }
	// NEEDS_CSUM: the field holds the pseudo-header's folded sum.
	if got, want := be.Uint16(m[l4+16:]), ^refChecksum(pseudoOfLen(len(m)-l4)); got != want {
		t.Fatalf("merged checksum field %#04x, want the pseudo-header's sum %#04x", got, want)
	}
	var segs [][]byte
	for i, off := 0, hdr; off < len(m); i, off = i+1, off+int(h.gsoSize) {
		end := min(off+int(h.gsoSize), len(m))
		s := append(bytes.Clone(m[:hdr]), m[off:end]...)
		if ipv6 {
			be.PutUint16(s[14+4:], uint16(len(s)-l4))
		} else {
			be.PutUint16(s[14+2:], uint16(len(s)-14))
			be.PutUint16(s[14+4:], be.Uint16(m[14+4:])+uint16(i))
			s[14+10], s[14+11] = 0, 0
			be.PutUint16(s[14+10:], refChecksum(s[14:l4]))
		}
		be.PutUint32(s[l4+4:], be.Uint32(m[l4+4:])+uint32(off-hdr))
		if end < len(m) {
			s[l4+13] &^= tcpPSH | tcpFIN
		}
		if i > 0 {
			s[l4+13] &^= tcpCWR
		}
		s[l4+16], s[l4+17] = 0, 0
		be.PutUint16(s[l4+16:], refChecksum(pseudoOfLen(len(s)-l4), s[l4:]))
		segs = append(segs, s)
	}
	return segs
}

// validTCP: the frame's IPv4 header checksum (if any) and TCP checksum
// hold, by the reference sum.
func validTCP(b []byte) bool {
	be := binary.BigEndian
	var pseudo []byte
	var l4 int
	if be.Uint16(b[12:]) == 0x86dd {
		l4 = 14 + 40
		pseudo = bytes.Clone(b[14+8 : l4])
	} else {
		l4 = 14 + int(b[14]&0xf)*4
		if refChecksum(b[14:l4]) != 0 {
			return false
		}
		pseudo = bytes.Clone(b[14+12 : 14+20])
	}
	pseudo = be.AppendUint16(append(pseudo, 0, 6), uint16(len(b)-l4))
	return refChecksum(pseudo, b[l4:]) == 0
}

// coalesceAll runs the coalescer over segs as the writer does and checks
// every merged frame: cut again, it gives back the segments it took, byte
// for byte, each of which had good checksums. It returns the number of
// frames written.
func coalesceAll(t *testing.T, c *coalescer, segs [][]byte) int {
	t.Helper()
	writes := 0
	for i := 0; i < len(segs); writes++ {
		k, merged := c.merge(segs[i:])
		if k < 1 || i+k > len(segs) || (k == 1) != (merged == nil) {
			t.Fatalf("merge at %d: k=%d, frame %d bytes", i, k, len(merged))
		}
		if k > 1 {
			for j, s := range segs[i : i+k] {
				if !validTCP(s) {
					t.Fatalf("segment %d, with a bad checksum, merged", i+j)
				}
			}
			got := resegment(t, c.hdr[:], merged)
			if len(got) != k {
				t.Fatalf("merged %d segments at %d, cut again into %d", k, i, len(got))
			}
			for j := range got {
				if !bytes.Equal(got[j], segs[i+j]) {
					t.Fatalf("segment %d of the run at %d, cut again:\n got %x\nwant %x", j, i, got[j], segs[i+j])
				}
			}
		}
		i += k
	}
	return writes
}

// FuzzCoalesce: random sequences of TCP segments, most of one flow in
// order, each maybe changed in one field (sequence number, size, flags,
// IP and TCP header fields, checksums, addresses); whatever the coalescer
// merges must cut back into exactly its input.
func FuzzCoalesce(f *testing.F) {
	f.Add([]byte{0, 0x05, 0xa8, 8})
	f.Add([]byte{1, 0x05, 0xa8, 47})
	f.Add([]byte{0, 0x00, 0x10, 20, 0, 0, 3, 0, 0, 7, 0, 0, 12, 0, 0, 19})
	f.Add([]byte{1, 0x02, 0x00, 12, 0, 0, 1, 0, 0, 2, 0, 0, 25, 0, 0, 14, 0, 0, 9})
	f.Fuzz(func(t *testing.T, in []byte) {
		pos := 0
		next := func() byte {
			if pos >= len(in) {
				return 0
			}
			pos++
			return in[pos-1]
		}
		base := baseSpec(next()&1 == 1)
		base.payload = 1 + int(binary.BigEndian.Uint16([]byte{next(), next()}))%1460
		n := 1 + int(next())%48
		if next()&1 == 1 {
			base.options = nil
		}
		segs := run(base, n, func(i int, s *segSpec) {
			op, arg := next(), next()
			switch op % 40 {
			case 1:
				s.seq += uint32(arg) - 128
			case 2:
				s.payload = 1 + int(arg)%s.payload
			case 3:
				s.payload += int(arg) % 8
			case 4:
				s.flags |= arg & (tcpFIN | tcpSYN | tcpRST | tcpPSH | tcpURG | tcpECE | tcpCWR)
			case 5:
				s.flags = arg
			case 6:
				s.ttl += arg
			case 7:
				s.tos ^= arg
			case 8:
				s.ipFlags ^= arg & 0xe0
			case 9:
				s.id += uint16(arg)
			case 10:
				s.ack += uint32(arg)
			case 11:
				s.window ^= uint16(arg)
			case 12:
				s.urg = uint16(arg)
			case 13:
				if len(s.options) > 0 {
					s.options = bytes.Clone(s.options)
					s.options[int(arg)%len(s.options)] ^= 1
				}
			case 14:
				s.badTCP = true
			case 15:
				s.badIP = true
			case 16:
				s.sport ^= uint16(arg)
			case 17:
				s.saddr[15] ^= arg
				s.daddr[3] ^= arg
			case 18:
				s.flowLabel ^= uint32(arg)
			case 19:
				s.src[5] ^= arg
			case 20:
				s.ipFlags |= arg & 0x1f // a fragment offset
			case 21:
				s.headerRemainder = arg
			}
		})
		c := newCoalescer()
		coalesceAll(t, &c, segs)
	})
}
