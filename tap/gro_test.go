package tap

import (
	"bytes"
	"encoding/binary"
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

func TestMergeStops(t *testing.T) {
	f := flowSpec{mss: 1000}
	for name, tc := range map[string]struct {
		mod  func(segs [][]byte)
		want int
	}{
		"all":           {func([][]byte) {}, 4},
		"gap":           {func(s [][]byte) { s[2][34+7]++; fixTCP(s[2]) }, 2},
		"other ack":     {func(s [][]byte) { s[1][34+11]++; fixTCP(s[1]) }, 1},
		"bad checksum":  {func(s [][]byte) { s[3][60]++ }, 3},
		"other TTL":     {func(s [][]byte) { s[1][14+8]--; fixIP(s[1]) }, 1},
		"FIN":           {func(s [][]byte) { s[2][34+13] |= tcpFIN; fixTCP(s[2]) }, 2},
		"first pushed":  {func(s [][]byte) { s[0][34+13] |= tcpPSH; fixTCP(s[0]) }, 1},
		"longer second": {func(s [][]byte) { s[0] = s[0][:len(s[0])-1]; fixIP(s[0]); fixTCP(s[0]) }, 1},
	} {
		segs := segments(t, f, 4, 1000)
		tc.mod(segs)
		c := newCoalescer()
		if k, _ := c.merge(segs); k != tc.want {
			t.Errorf("%s: merged %d, want %d", name, k, tc.want)
		}
	}
}

// fixIP and fixTCP redo an IPv4 test frame's lengths and checksums.
func fixIP(b []byte) {
	binary.BigEndian.PutUint16(b[14+2:], uint16(len(b)-14))
	binary.BigEndian.PutUint16(b[14+10:], ipv4Checksum(b[14:34]))
}

func fixTCP(b []byte) {
	s := tcpSeg{l4: 34}
	b[34+16], b[34+17] = 0, 0
	binary.BigEndian.PutUint16(b[34+16:], transportChecksum(pseudoOf(b, s, len(b)-34), b[34:]))
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
