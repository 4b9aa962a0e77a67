package main

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// The forged management frames carry their subtype, the addresses asked
// for and the body the kind needs; the association request's elements
// chain to its end.
func TestMgmtFrames(t *testing.T) {
	sta, ap := [6]byte{2, 0, 0, 0, 1, 0}, [6]byte{2, 0, 0, 0, 0, 0}
	for _, c := range []struct {
		kind   string
		fromAP bool
		sub    byte
		body   []byte
	}{
		{"deauth", true, 12, []byte{7, 0}},
		{"disassoc", false, 10, []byte{7, 0}},
		{"auth", false, 11, []byte{0, 0, 1, 0, 0, 0}},
		{"auth", true, 11, []byte{0, 0, 2, 0, 0, 0}},
	} {
		f := mgmtForger{ta: sta, ra: ap, bssid: ap}
		if c.fromAP {
			f.ta, f.ra = ap, sta
		}
		b, err := f.frame(c.kind, c.fromAP)
		if err != nil {
			t.Fatal(err)
		}
		if b[0] != c.sub<<4 || b[1] != 0 || !bytes.Equal(b[4:10], f.ra[:]) || !bytes.Equal(b[10:16], f.ta[:]) ||
			!bytes.Equal(b[16:22], ap[:]) || !bytes.Equal(b[24:], c.body) {
			t.Errorf("%s from AP %v: % x", c.kind, c.fromAP, b)
		}
	}
	f := mgmtForger{ta: sta, ra: ap, bssid: ap, ssid: "airq-e2e", akm: 6}
	b, _ := f.frame("assoc", false)
	if binary.LittleEndian.Uint16(b[24:]) != 0x0431 {
		t.Errorf("capability % x", b[24:26])
	}
	var ids []byte
	for e := b[28:]; len(e) > 0; e = e[2+int(e[1]):] {
		if len(e) < 2 || len(e) < 2+int(e[1]) {
			t.Fatalf("element chain overruns the frame: % x", e)
		}
		ids = append(ids, e[0])
		if e[0] == 48 && (e[2+17] != 6 || e[2+18]&0x80 == 0) {
			t.Errorf("RSNE % x: want AKM 6 and MFPC", e)
		}
	}
	if !bytes.Equal(ids, []byte{0, 1, 48}) {
		t.Errorf("elements %v", ids)
	}
	f.noMFPC = true
	if b, _ := f.frame("assoc", false); b[len(b)-2] != 0 {
		t.Errorf("-no-mfpc: RSN capabilities % x", b[len(b)-2:])
	}
	resp := append([]byte{0x10, 0, 0, 0}, ap[:]...)
	resp = append(append(append(resp, ap[:]...), ap[:]...), 0, 0, 0x31, 0x04, 31, 0, 0, 0)
	resp = append(resp[:4], append(sta[:], resp[10:]...)...)
	if st, ok := statusOf(resp, true, mgmtForger{ta: sta, bssid: ap}, 1, 2); !ok || st != 31 {
		t.Errorf("association response status %d %v", st, ok)
	}
	if _, err := f.frame("probe", false); err == nil {
		t.Error("an unknown kind is accepted")
	}
}
