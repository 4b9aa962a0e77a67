package main

import (
	"bytes"
	"encoding/binary"
	"testing"
)

func TestForgedMsg2(t *testing.T) {
	f := mgmtForger{ta: [6]byte{2, 0, 0, 0, 0, 9}, bssid: [6]byte{2, 0, 0, 0, 0, 1}, akm: 2, noMFPC: true}
	a, b := forgedMsg2(f, 7, 1), forgedMsg2(f, 7, 2)
	eapol := a[24+8:]
	if int(binary.BigEndian.Uint16(eapol[2:]))+4 != len(eapol) {
		t.Fatalf("EAPOL body length %d for %d bytes", binary.BigEndian.Uint16(eapol[2:]), len(eapol))
	}
	if info := binary.BigEndian.Uint16(eapol[5:]); info != 0x010a {
		t.Errorf("key information %#x, want 0x010a", info)
	}
	if binary.BigEndian.Uint64(eapol[9:]) != 7 {
		t.Error("replay counter")
	}
	if bytes.Equal(a[24+8+17:24+8+49], b[24+8+17:24+8+49]) || bytes.Equal(a[24+8+81:24+8+97], b[24+8+81:24+8+97]) {
		t.Error("two messages 2 share their SNonce or MIC")
	}
	// The AP's message 1 to ta: ACK and pairwise, no MIC.
	m1 := append([]byte{0x88, 0x02, 0, 0}, f.ta[:]...)
	m1 = append(append(m1, f.bssid[:]...), f.bssid[:]...)
	m1 = append(m1, 0, 0, 7, 0) // sequence, QoS control
	m1 = append(m1, 0xaa, 0xaa, 0x03, 0, 0, 0, 0x88, 0x8e, 2, 3, 0, 95, 2, 0x00, 0x8a, 0, 16)
	m1 = binary.BigEndian.AppendUint64(m1, 42)
	m1 = append(m1, make([]byte, 32+16+8+8+16+2)...)
	if r, ok := msg1Replay(m1); !ok || r != 42 {
		t.Errorf("message 1: replay %d, %v", r, ok)
	}
	if _, ok := msg1Replay(a); ok {
		t.Error("a message 2 read as a message 1")
	}
}
