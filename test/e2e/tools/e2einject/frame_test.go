package main

import (
	"encoding/binary"
	"testing"
)

func testForger() forger {
	return forger{ta: [6]byte{2, 0, 0, 0, 1, 0}, bssid: [6]byte{2, 0, 0, 0, 0, 0}, da: [6]byte{2, 9, 9, 9, 9, 9},
		src: [4]byte{10, 0, 0, 11}, dst: [4]byte{10, 0, 0, 1}, port: 9997}
}

// checkUDP verifies the IPv4 and UDP checksums of the datagram at b.
func checkUDP(t *testing.T, b []byte, f forger) {
	t.Helper()
	if checksum(0, b[:20]) != 0 {
		t.Error("IPv4 header checksum")
	}
	ulen := int(binary.BigEndian.Uint16(b[24:]))
	pseudo := append(append(append([]byte{}, f.src[:]...), f.dst[:]...), 0, 17, byte(ulen>>8), byte(ulen))
	if checksum(sum(0, pseudo), b[20:20+ulen]) != 0 {
		t.Error("UDP checksum")
	}
	if int(binary.BigEndian.Uint16(b[2:])) != len(b) {
		t.Errorf("IPv4 total length %d, have %d bytes", binary.BigEndian.Uint16(b[2:]), len(b))
	}
}

func TestPlain(t *testing.T) {
	f := testForger()
	q, d := f.plain(0), f.plain(1)
	if !isQoS(q) || isQoS(d) || q[1] != 0x01 {
		t.Fatalf("frame control %x %x", q[:2], d[:2])
	}
	checkUDP(t, q[26+8:], f)
	checkUDP(t, d[24+8:], f)
}

func TestAMSDU(t *testing.T) {
	f := testForger()
	b := f.amsdu(3)
	if !isQoS(b) || b[24]&0x80 == 0 {
		t.Fatal("not an A-MSDU")
	}
	body := b[26:]
	if [6]byte(body[:6]) != [6]byte{0xaa, 0xaa, 3, 0, 0, 0} {
		t.Errorf("first DA % x", body[:6])
	}
	first := 14 + int(binary.BigEndian.Uint16(body[12:]))
	sub := body[(first+3)/4*4:]
	if [6]byte(sub[:6]) != f.da || [6]byte(sub[6:12]) != f.ta {
		t.Errorf("second subframe's addresses % x", sub[:12])
	}
	if n := int(binary.BigEndian.Uint16(sub[12:])); n != len(sub)-14 {
		t.Errorf("second subframe length %d, have %d", n, len(sub)-14)
	}
	checkUDP(t, sub[14+8:], f)
}
