package ap

import (
	"encoding/binary"
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
