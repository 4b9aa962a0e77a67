package ap

import (
	"encoding/binary"
	"hash/fnv"
	"testing"
)

func checksum(h []byte) uint16 {
	var s uint32
	for i := 0; i < len(h); i += 2 {
		s += uint32(binary.BigEndian.Uint16(h[i:]))
	}
	for s > 0xffff {
		s = s&0xffff + s>>16
	}
	return ^uint16(s)
}

func TestMarkCEKeepsTheChecksumValid(t *testing.T) {
	for _, tos := range []byte{0x01, 0x02, 0xb9, 0xba} {
		p := ipv4(tos)
		binary.BigEndian.PutUint16(p[10:12], checksum(p[:20]))
		if !markCE(0x0800, p) {
			t.Fatalf("tos %#x: not marked", tos)
		}
		if p[1]&3 != 3 || checksum(p[:20]) != 0 {
			t.Errorf("tos %#x: got %#x, checksum residue %#x", tos, p[1], checksum(p[:20]))
		}
	}
	if markCE(0x0800, ipv4(0xb8)) {
		t.Error("marked a packet that is not ECN capable")
	}
}

func TestFlowHashSeparatesFlows(t *testing.T) {
	a, b := ipv4(0), ipv4(0)
	a[20], b[20] = 1, 2 // different source ports
	if flowHash(0x0800, a) == flowHash(0x0800, b) {
		t.Error("two flows share a hash")
	}
	if flowHash(0x0800, a) != flowHash(0x0800, append([]byte(nil), a...)) {
		t.Error("one flow, two hashes")
	}
}

// TestFlowHashIsFNV1a: the hash is FNV-1a (hash/fnv) over the EtherType and
// the flow's fields, so that the flows land where they always have.
func TestFlowHashIsFNV1a(t *testing.T) {
	ref := func(parts ...[]byte) uint32 {
		h := fnv.New32a()
		for _, p := range parts {
			h.Write(p)
		}
		return h.Sum32()
	}
	v4 := ipv4(0)
	v4[20], v4[21], v4[22], v4[23] = 0x12, 0x34, 0x56, 0x78
	frag := append([]byte(nil), v4...)
	frag[6] = 0x20 // more fragments, offset 0: still the first
	later := append([]byte(nil), v4...)
	later[7] = 1 // a later fragment: no ports
	v6 := make([]byte, 48)
	for i := range v6 {
		v6[i] = byte(i*7 + 1)
	}
	for _, c := range []struct {
		name      string
		etherType uint16
		payload   []byte
		want      uint32
	}{
		{"IPv4", 0x0800, v4, ref([]byte{8, 0}, v4[9:10], v4[12:20], v4[20:24])},
		{"IPv4 first fragment", 0x0800, frag, ref([]byte{8, 0}, frag[9:10], frag[12:20], frag[20:24])},
		{"IPv4 later fragment", 0x0800, later, ref([]byte{8, 0}, later[9:10], later[12:20])},
		{"IPv4 short", 0x0800, v4[:19], ref([]byte{8, 0})},
		{"IPv6", 0x86dd, v6, ref([]byte{0x86, 0xdd}, v6[6:7], v6[8:40], v6[40:44])},
		{"IPv6 without ports", 0x86dd, v6[:42], ref([]byte{0x86, 0xdd}, v6[6:7], v6[8:40])},
		{"ARP", 0x0806, v4, ref([]byte{8, 6})},
	} {
		if got := flowHash(c.etherType, c.payload); got != c.want {
			t.Errorf("%s: %#x, want %#x", c.name, got, c.want)
		}
	}
}
