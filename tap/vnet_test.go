package tap

import (
	"bytes"
	"encoding/binary"
	"net"
	"strings"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"pgregory.net/rapid"
)

// refChecksum is RFC 1071 done the obvious way: 16-bit words, carries
// folded at the end.
func refChecksum(parts ...[]byte) uint16 {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	var s uint32
	for i := 0; i+1 < len(b); i += 2 {
		s += uint32(b[i])<<8 | uint32(b[i+1])
	}
	if len(b)%2 == 1 {
		s += uint32(b[len(b)-1]) << 8
	}
	for s>>16 != 0 {
		s = s>>16 + s&0xffff
	}
	return ^uint16(s)
}

func TestSumMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.Byte(), 0, 3000).Draw(t, "b")
		if got, want := ^fold(sum(b, 0)), refChecksum(b); got != want {
			t.Fatalf("checksum of %d bytes = %#04x, want %#04x", len(b), got, want)
		}
	})
}

var (
	macA = net.HardwareAddr{2, 0, 0, 0, 0, 1}
	macB = net.HardwareAddr{2, 0, 0, 0, 0, 2}
)

type flowSpec struct {
	ipv6, udp, vlan bool
	payload         int
	mss             int
	fin, cwr        bool
}

// build serializes one frame with gopacket: checksums computed when full,
// else the transport checksum field holds the pseudo-header sum, as tun
// leaves it. off and id shift the TCP sequence number and IPv4 ID.
func (f flowSpec) build(tb testing.TB, payload []byte, seq uint32, id uint16, fin, psh, cwr, full bool) []byte {
	tb.Helper()
	var ls []gopacket.SerializableLayer
	eth := &layers.Ethernet{SrcMAC: macA, DstMAC: macB, EthernetType: layers.EthernetTypeIPv4}
	if f.ipv6 {
		eth.EthernetType = layers.EthernetTypeIPv6
	}
	ls = append(ls, eth)
	if f.vlan {
		ls = append(ls, &layers.Dot1Q{VLANIdentifier: 7, Type: eth.EthernetType})
		eth.EthernetType = layers.EthernetTypeDot1Q
	}
	proto := layers.IPProtocolTCP
	if f.udp {
		proto = layers.IPProtocolUDP
	}
	var nl gopacket.NetworkLayer
	if f.ipv6 {
		ip := &layers.IPv6{Version: 6, HopLimit: 64, NextHeader: proto,
			SrcIP: net.ParseIP("fd00::1"), DstIP: net.ParseIP("fd00::2")}
		nl = ip
		ls = append(ls, ip)
	} else {
		ip := &layers.IPv4{Version: 4, IHL: 5, TTL: 64, Id: id, Flags: layers.IPv4DontFragment, Protocol: proto,
			SrcIP: net.IPv4(10, 0, 0, 1), DstIP: net.IPv4(10, 0, 0, 2)}
		nl = ip
		ls = append(ls, ip)
	}
	if f.udp {
		u := &layers.UDP{SrcPort: 4000, DstPort: 5201}
		u.SetNetworkLayerForChecksum(nl)
		ls = append(ls, u)
	} else {
		tcp := &layers.TCP{SrcPort: 5201, DstPort: 40000, Seq: seq, Ack: 77, ACK: true, PSH: psh, FIN: fin, CWR: cwr,
			Window: 512, Options: []layers.TCPOption{{OptionType: layers.TCPOptionKindNop}, {OptionType: layers.TCPOptionKindNop},
				{OptionType: layers.TCPOptionKindTimestamps, OptionLength: 10, OptionData: make([]byte, 8)}}}
		tcp.SetNetworkLayerForChecksum(nl)
		ls = append(ls, tcp)
	}
	ls = append(ls, gopacket.Payload(payload))
	buf := gopacket.NewSerializeBuffer()
	if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, ls...); err != nil {
		tb.Fatal(err)
	}
	b := bytes.Clone(buf.Bytes())
	if !full {
		// The field holds ~fold(P+T); leave fold(P), the pseudo-header's
		// share: fold(P+T) minus fold(T) in ones' complement.
		l4, field := f.offsets()
		c := binary.BigEndian.Uint16(b[l4+field:])
		b[l4+field], b[l4+field+1] = 0, 0
		t := ^refChecksum(b[l4:])
		binary.BigEndian.PutUint16(b[l4+field:], fold(uint64(^c)+uint64(^t)))
	}
	return b
}

func (f flowSpec) offsets() (l4, field int) {
	l4 = 14 + 20
	if f.ipv6 {
		l4 = 14 + 40
	}
	if f.vlan {
		l4 += 4
	}
	field = 16
	if f.udp {
		field = 6
	}
	return l4, field
}

func (f flowSpec) hdr(frame []byte) vnetHdr {
	l4, field := f.offsets()
	h := vnetHdr{flags: vnetNeedsCsum, gsoSize: uint16(f.mss), csumStart: uint16(l4), csumOffset: uint16(field)}
	switch {
	case f.udp:
		h.gsoType = gsoUDPL4
	case f.ipv6:
		h.gsoType = gsoTCPv6
	default:
		h.gsoType = gsoTCPv4
	}
	if f.mss == 0 {
		h.gsoType = gsoNone
	}
	return h
}

// TestSegmenterMatchesGopacket cuts GSO frames and compares every segment
// byte for byte with the one gopacket builds from scratch (lengths, IDs,
// sequence numbers, flags and checksums computed independently).
func TestSegmenterMatchesGopacket(t *testing.T) {
	for _, f := range []flowSpec{
		{payload: 5000, mss: 1448, fin: true, cwr: true},
		{payload: 65000, mss: 1448},
		{payload: 1448, mss: 1448},
		{payload: 100, mss: 1448},
		{payload: 7777, mss: 1000, ipv6: true, fin: true},
		{payload: 3001, mss: 1400, vlan: true},
		{payload: 4000, mss: 1472, udp: true},
		{payload: 999, mss: 300, udp: true, ipv6: true},
	} {
		payload := make([]byte, f.payload)
		for i := range payload {
			payload[i] = byte(i*7 + i>>8)
		}
		const seq0, id0 = 0xfffff000, 0xfffe // both wrap
		super := f.build(t, payload, seq0, id0, f.fin, true, f.cwr, false)
		var s segmenter
		if err := s.reset(f.hdr(super), super); err != nil {
			t.Fatalf("%+v: reset: %v", f, err)
		}
		dst := make([]byte, 2048)
		off := 0
		for i := 0; ; i++ {
			n, ok := s.next(dst)
			if !ok {
				if off != len(payload) {
					t.Fatalf("%+v: segments carried %d of %d bytes", f, off, len(payload))
				}
				break
			}
			end := min(off+f.mss, len(payload))
			last := end == len(payload)
			want := f.build(t, payload[off:end], seq0+uint32(off), uint16(id0+i), f.fin && last, last, f.cwr && i == 0, true)
			if !bytes.Equal(dst[:n], want) {
				t.Fatalf("%+v: segment %d:\n got %x\nwant %x", f, i, dst[:n], want)
			}
			off = end
		}
	}
}

func TestFinishCsum(t *testing.T) {
	for _, f := range []flowSpec{{payload: 333}, {payload: 1, ipv6: true}, {payload: 1200, udp: true}} {
		payload := bytes.Repeat([]byte{0xa5, 0x5a, 0xff}, f.payload)[:f.payload]
		partial := f.build(t, payload, 1, 1, false, true, false, false)
		want := f.build(t, payload, 1, 1, false, true, false, true)
		h := f.hdr(partial)
		if err := checkCsum(h, partial); err != nil {
			t.Fatal(err)
		}
		finishCsum(h, partial)
		if !bytes.Equal(partial, want) {
			t.Fatalf("%+v: got %x, want %x", f, partial, want)
		}
	}
}

func TestSegmenterRefuses(t *testing.T) {
	f := flowSpec{payload: 3000, mss: 1448}
	good := f.build(t, make([]byte, 3000), 1, 1, false, false, false, false)
	for name, mod := range map[string]func(h *vnetHdr, b []byte) []byte{
		"no NEEDS_CSUM":       func(h *vnetHdr, b []byte) []byte { h.flags = 0; return b },
		"zero gso_size":       func(h *vnetHdr, b []byte) []byte { h.gsoSize = 0; return b },
		"csum_start off":      func(h *vnetHdr, b []byte) []byte { h.csumStart += 4; return b },
		"csum_offset off":     func(h *vnetHdr, b []byte) []byte { h.csumOffset = 6; return b },
		"UFO":                 func(h *vnetHdr, b []byte) []byte { h.gsoType = 3; return b },
		"truncated TCP":       func(h *vnetHdr, b []byte) []byte { return b[:40] },
		"not IPv4":            func(h *vnetHdr, b []byte) []byte { b[12] = 0x86; return b },
		"IPv4 options":        func(h *vnetHdr, b []byte) []byte { b[14] = 0x46; return b },
		"UDP in TCP GSO":      func(h *vnetHdr, b []byte) []byte { b[23] = 17; return b },
		"doff past end":       func(h *vnetHdr, b []byte) []byte { b[34+12] = 0xf0; return b[:60] },
		"partial csum at end": func(h *vnetHdr, b []byte) []byte { h.gsoType = 0; h.csumStart = uint16(len(b) - 1); return b },
	} {
		b := bytes.Clone(good)
		h := f.hdr(b)
		b = mod(&h, b)
		var s segmenter
		if err := s.reset(h, b); err == nil || s.pending {
			t.Errorf("%s: reset = %v, pending %v; want errOffload", name, err, s.pending)
		}
	}
}

func TestSegmenterAllocs(t *testing.T) {
	f := flowSpec{payload: 65000, mss: 1448}
	super := f.build(t, make([]byte, f.payload), 1, 1, false, true, false, false)
	h := f.hdr(super)
	dst := make([]byte, 1600)
	var s segmenter
	if a := testing.AllocsPerRun(20, func() {
		_ = s.reset(h, super)
		for _, ok := s.next(dst); ok; _, ok = s.next(dst) {
		}
	}); a != 0 {
		t.Fatalf("%v allocations per GSO frame, want 0", a)
	}
}

// BenchmarkSegmentTSO cuts a 64 KB TCP/IPv4 send into 1448-byte segments;
// the bytes are the payload carried.
func BenchmarkSegmentTSO(b *testing.B) {
	f := flowSpec{payload: 65000, mss: 1448}
	super := f.build(b, make([]byte, f.payload), 1, 1, false, true, false, false)
	h := f.hdr(super)
	dst := make([]byte, 1600)
	var s segmenter
	b.ReportAllocs()
	b.SetBytes(int64(f.payload))
	for b.Loop() {
		_ = s.reset(h, super)
		for _, ok := s.next(dst); ok; _, ok = s.next(dst) {
		}
	}
}

func FuzzSegmenter(f *testing.F) {
	for _, spec := range []flowSpec{{payload: 3000, mss: 1448}, {payload: 500, mss: 100, ipv6: true},
		{payload: 2000, mss: 700, udp: true}, {payload: 40}, {payload: 900, vlan: true, mss: 400}} {
		frame := spec.build(f, make([]byte, spec.payload), 9, 9, true, true, true, false)
		var hb [vnetHdrLen]byte
		spec.hdr(frame).encode(hb[:])
		f.Add(hb[:], frame)
	}
	f.Fuzz(func(t *testing.T, hb, frame []byte) {
		if len(hb) < vnetHdrLen {
			return
		}
		h := decodeVnetHdr(hb)
		var s segmenter
		if err := s.reset(h, frame); err != nil || !s.pending {
			if err == nil && h.gsoType&^gsoECN == gsoNone {
				finishCsum(h, frame) // checked offsets: must not panic
			}
			return
		}
		dst := make([]byte, 1600)
		carried := 0
		for i := 0; ; i++ {
			n, ok := s.next(dst)
			if !ok {
				break
			}
			if i > len(frame) {
				t.Fatal("segmenter does not end")
			}
			carried += n - s.hdr
			if n > len(dst) {
				continue
			}
			seg := dst[:n]
			l4 := seg[s.l4:]
			// Invariant: every segment that fits checks out.
			var pseudo []byte
			if s.ipv6 {
				pseudo = append(append(bytes.Clone(seg[s.l3+8:s.l3+40]), 0, 0), binary.BigEndian.AppendUint16(nil, uint16(len(l4)))...)
			} else {
				if refChecksum(seg[s.l3:s.l4]) != 0 {
					t.Fatalf("segment %d: bad IPv4 header checksum", i)
				}
				pseudo = append(bytes.Clone(seg[s.l3+12:s.l3+20]), 0, 0)
				pseudo = binary.BigEndian.AppendUint16(pseudo, uint16(len(l4)))
			}
			pseudo[len(pseudo)-3] = seg[s.l3+9]
			if s.ipv6 {
				pseudo[len(pseudo)-3] = seg[s.l3+6]
			}
			if c := refChecksum(pseudo, l4); c != 0 {
				t.Fatalf("segment %d: transport checksum off by %#04x", i, c)
			}
		}
		if carried != len(frame)-s.hdr {
			t.Fatalf("segments carried %d payload bytes of %d", carried, len(frame)-s.hdr)
		}
	})
}

func TestParseOffload(t *testing.T) {
	for o := range numOffloads {
		if got, err := ParseOffload(o.String()); err != nil || got != o {
			t.Errorf("%v: %v, %v", o, got, err)
		}
	}
	if _, err := ParseOffload("1"); err == nil || !strings.Contains(err.Error(), "want gro, tso or off") {
		t.Errorf("bad name: %v", err)
	}
}

// TestSumChains: a sum continued over pieces that start at even offsets
// (the pseudo-header, then the segment; an IPv4 header around its own
// checksum field) is the sum of the whole.
func TestSumChains(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.Byte(), 0, 3000).Draw(t, "b")
		cut := rapid.IntRange(0, len(b)/2).Draw(t, "cut") * 2
		pseudo := rapid.SliceOfN(rapid.Byte(), 0, 40).Draw(t, "pseudo")
		pseudo = pseudo[:len(pseudo)&^1]
		got := ^fold(sum(b[cut:], sum(b[:cut], sum(pseudo, 0))))
		if want := refChecksum(pseudo, b); got != want {
			t.Fatalf("chained checksum of %d+%d+%d bytes = %#04x, want %#04x", len(pseudo), cut, len(b)-cut, got, want)
		}
	})
}

func BenchmarkSum(b *testing.B) {
	seg := make([]byte, 1480) // a full-sized TCP segment with its header
	for i := range seg {
		seg[i] = byte(i * 7)
	}
	b.SetBytes(int64(len(seg)))
	b.ReportAllocs()
	var acc uint64
	for b.Loop() {
		acc = sum(seg, acc&0xffff)
	}
	if acc == 0 {
		b.Fatal("zero sum")
	}
}
