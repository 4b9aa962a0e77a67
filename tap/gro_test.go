package tap

import (
	"bytes"
	"testing"

	"pgregory.net/rapid"
)

// segments builds n full segments of one flow (gopacket, checksums
// computed), the last one last bytes long and pushed.
func segments(tb testing.TB, f flowSpec, n, last int) [][]byte {
	var out [][]byte
	seq := uint32(0xffffff00)
	for i := range n {
		size := f.mss
		if i == n-1 {
			size = last
		}
		p := bytes.Repeat([]byte{byte(i + 1)}, size)
		out = append(out, f.build(tb, p, seq, uint16(0xfff0+i), false, i == n-1, false, true))
		seq += uint32(size)
	}
	return out
}

// TestMergeRoundTrip: the segmenter cuts what the coalescer merged back
// into the very frames it was given, byte for byte.
func TestMergeRoundTrip(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		f := flowSpec{ipv6: rapid.Bool().Draw(rt, "ipv6"), mss: rapid.IntRange(1, 1448).Draw(rt, "mss")}
		n := rapid.IntRange(2, 40).Draw(rt, "n")
		if n*f.mss > 60000 {
			n = 60000 / f.mss
		}
		if n < 2 {
			return
		}
		segs := segments(t, f, n, rapid.IntRange(1, f.mss).Draw(rt, "last"))
		c := newCoalescer()
		k, merged := c.merge(segs)
		if k != n {
			rt.Fatalf("merged %d of %d segments", k, n)
		}
		var s segmenter
		if err := s.reset(decodeVnetHdr(c.hdr[:]), bytes.Clone(merged)); err != nil {
			rt.Fatalf("the merged frame's vnet header: %v", err)
		}
		dst := make([]byte, 2048)
		for i := 0; ; i++ {
			m, ok := s.next(dst)
			if !ok {
				if i != n {
					rt.Fatalf("cut into %d segments, want %d", i, n)
				}
				break
			}
			if !bytes.Equal(dst[:m], segs[i]) {
				rt.Fatalf("segment %d:\n got %x\nwant %x", i, dst[:m], segs[i])
			}
		}
	})
}

func TestMergeAllocs(t *testing.T) {
	segs := segments(t, flowSpec{mss: 1448}, 32, 1448)
	c := newCoalescer()
	if a := testing.AllocsPerRun(20, func() { c.merge(segs) }); a != 0 {
		t.Fatalf("%v allocations per merge, want 0", a)
	}
}

// BenchmarkMergeTCP merges 32 segments of 1448 bytes (the bytes are the
// payload carried), checksums verified.
func BenchmarkMergeTCP(b *testing.B) {
	segs := segments(b, flowSpec{mss: 1448}, 32, 1448)
	c := newCoalescer()
	b.ReportAllocs()
	b.SetBytes(32 * 1448)
	for b.Loop() {
		c.merge(segs)
	}
}

// TestMergeRefuses: each rule of the coalescer on its own. Four segments
// of 1000 bytes go in; mod changes one field of one or more of them (its
// lengths and checksums redone unless the case is a bad checksum); want is
// how many the first write carries. What is merged must also cut back into
// the very segments (coalesceAll).
func TestMergeRefuses(t *testing.T) {
	at := func(j int, f func(s *segSpec)) func(int, *segSpec) {
		return func(i int, s *segSpec) {
			if i == j {
				f(s)
			}
		}
	}
	for _, tc := range []struct {
		name string
		ipv6 bool
		mod  func(int, *segSpec)
		want int
	}{
		{"all", false, nil, 4},
		{"all, IPv6", true, nil, 4},
		{"sequence gap", false, at(2, func(s *segSpec) { s.seq++ }), 2},
		{"retransmission", false, at(2, func(s *segSpec) { s.seq -= 1000 }), 2},
		{"other ACK number", false, at(1, func(s *segSpec) { s.ack++ }), 1},
		{"other window", false, at(1, func(s *segSpec) { s.window++ }), 1},
		{"other urgent pointer", false, at(1, func(s *segSpec) { s.urg = 1 }), 1},
		{"URG", false, at(1, func(s *segSpec) { s.flags |= tcpURG; s.urg = 1 }), 1},
		{"SYN", false, at(2, func(s *segSpec) { s.flags |= tcpSYN }), 2},
		{"FIN", false, at(2, func(s *segSpec) { s.flags |= tcpFIN }), 2},
		{"RST", false, at(2, func(s *segSpec) { s.flags |= tcpRST }), 2},
		{"no ACK", false, at(1, func(s *segSpec) { s.flags = 0 }), 1},
		{"CWR first", false, at(0, func(s *segSpec) { s.flags |= tcpCWR }), 1},
		{"ECE on all", false, func(_ int, s *segSpec) { s.flags |= tcpECE }, 4},
		{"ECE on one", false, at(2, func(s *segSpec) { s.flags |= tcpECE }), 2},
		{"PSH first", false, at(0, func(s *segSpec) { s.flags |= tcpPSH }), 1},
		{"PSH second ends the run", false, at(1, func(s *segSpec) { s.flags |= tcpPSH }), 2},
		{"PSH last", false, at(3, func(s *segSpec) { s.flags |= tcpPSH }), 4},
		{"no payload", false, at(1, func(s *segSpec) { s.payload = 0 }), 1},
		{"longer second", false, at(1, func(s *segSpec) { s.payload++ }), 1},
		{"shorter second ends the run", false, at(1, func(s *segSpec) { s.payload-- }), 2},
		{"other option", false, at(1, func(s *segSpec) { s.options = []byte{1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 3} }), 1},
		{"other options length", false, at(1, func(s *segSpec) { s.options = s.options[:8] }), 1},
		{"reserved TCP bits", false, at(1, func(s *segSpec) { s.headerRemainder = 1 }), 1},
		{"other TTL", false, at(1, func(s *segSpec) { s.ttl-- }), 1},
		{"other TOS", false, at(1, func(s *segSpec) { s.tos = 0x10 }), 1},
		{"other ECN codepoint", false, at(1, func(s *segSpec) { s.tos = 0x03 }), 1},
		{"DF cleared", false, at(1, func(s *segSpec) { s.ipFlags = 0 }), 1},
		{"reserved IPv4 flag", false, at(1, func(s *segSpec) { s.ipFlags |= 0x80 }), 1},
		{"more fragments", false, at(1, func(s *segSpec) { s.ipFlags |= 0x20 }), 1},
		{"IPv4 ID skips", false, at(1, func(s *segSpec) { s.id++ }), 1},
		{"IPv4 ID fixed", false, func(_ int, s *segSpec) { s.id = 7 }, 1},
		{"IPv4 ID counts without DF", false, func(_ int, s *segSpec) { s.ipFlags = 0 }, 4},
		{"IPv4 options", false, at(1, func(s *segSpec) { s.ipOptions = []byte{1, 1, 1, 0} }), 1},
		{"other source port", false, at(1, func(s *segSpec) { s.sport++ }), 1},
		{"other destination port", false, at(1, func(s *segSpec) { s.dport++ }), 1},
		{"other source address", false, at(1, func(s *segSpec) { s.saddr[3]++ }), 1},
		{"other destination address", false, at(1, func(s *segSpec) { s.daddr[3]++ }), 1},
		{"other MAC", false, at(1, func(s *segSpec) { s.src[5]++ }), 1},
		{"VLAN tag", false, at(0, func(s *segSpec) { s.etherType = 0x8100 }), 1},
		{"UDP", false, at(0, func(s *segSpec) { s.proto = 17 }), 1},
		{"bad TCP checksum", false, at(2, func(s *segSpec) { s.badTCP = true }), 2},
		{"bad TCP checksum first", false, at(0, func(s *segSpec) { s.badTCP = true }), 1},
		{"bad IPv4 header checksum", false, at(2, func(s *segSpec) { s.badIP = true }), 2},
		{"other hop limit", true, at(1, func(s *segSpec) { s.ttl-- }), 1},
		{"other traffic class", true, at(1, func(s *segSpec) { s.tos = 0x02 }), 1},
		{"other flow label", true, at(1, func(s *segSpec) { s.flowLabel = 5 }), 1},
		{"other IPv6 source", true, at(1, func(s *segSpec) { s.saddr[15]++ }), 1},
		{"IPv6 next header", true, at(0, func(s *segSpec) { s.proto = 17 }), 1},
		{"bad TCP checksum, IPv6", true, at(1, func(s *segSpec) { s.badTCP = true }), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			segs := run(baseSpec(tc.ipv6), 4, tc.mod)
			c := newCoalescer()
			if k, _ := c.merge(segs); k != tc.want {
				t.Errorf("merged %d, want %d", k, tc.want)
			}
			coalesceAll(t, &c, segs)
		})
	}
}

// TestMergeBound: a merged frame stays within an IP datagram's 64 KiB;
// the segments past it start the next write.
func TestMergeBound(t *testing.T) {
	for _, ipv6 := range []bool{false, true} {
		base := baseSpec(ipv6)
		base.payload = 1460
		segs := run(base, 46, nil)
		c := newCoalescer()
		// headers of 66 (IPv4) or 86 (IPv6) bytes and 44 payloads of 1460
		// fit in 14 + 65535; a 45th does not
		if k, m := c.merge(segs); k != 44 || len(m) > 14+65535 {
			t.Errorf("ipv6=%v: merged %d segments into %d bytes, want 44", ipv6, k, len(m))
		}
		if w := coalesceAll(t, &c, segs); w != 2 {
			t.Errorf("ipv6=%v: %d writes, want 2", ipv6, w)
		}
	}
}
