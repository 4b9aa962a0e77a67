package main

import (
	"bytes"
	"crypto/ecdh"
	"encoding/binary"
	"testing"
)

// A Commit is what a station sends in group 19: the status of its method,
// the token where the method puts it, a scalar in range and a point on
// P-256.
func TestSAECommit(t *testing.T) {
	token := bytes.Repeat([]byte{0xab}, 32)
	for _, h2e := range []bool{false, true} {
		s := newSAEFlood(h2e, nil)
		for _, tok := range [][]byte{nil, token} {
			b := s.commit(nil, 3, tok)
			wantStatus, wantLen := uint16(0), 6+2+len(tok)+96
			if h2e {
				wantStatus = 126
				if tok != nil {
					wantLen += 3
				}
			}
			if len(b) != wantLen || binary.LittleEndian.Uint16(b) != 3 || binary.LittleEndian.Uint16(b[2:]) != 1 ||
				binary.LittleEndian.Uint16(b[4:]) != wantStatus || binary.LittleEndian.Uint16(b[6:]) != 19 {
				t.Fatalf("h2e %v token %v: % x", h2e, tok != nil, b)
			}
			fields := b[8:]
			if !h2e {
				if !bytes.Equal(fields[:len(tok)], tok) {
					t.Errorf("H&P: token not before the scalar: % x", b)
				}
				fields = fields[len(tok):]
			}
			if scalar := fields[:32]; scalar[0] >= 0x80 || bytes.Count(scalar, []byte{0}) == 32 {
				t.Errorf("scalar % x", scalar)
			}
			if _, err := ecdh.P256().NewPublicKey(append([]byte{4}, fields[32:96]...)); err != nil {
				t.Errorf("element: %v", err)
			}
			if h2e && tok != nil && !bytes.Equal(fields[96:], append([]byte{255, 33, 93}, tok...)) {
				t.Errorf("H2E: token container % x", fields[96:])
			}
		}
	}
}

// The token of a status-76 body: after the group, bare or in its
// container under H2E; a container that overruns the body is refused.
func TestSAEToken(t *testing.T) {
	tok := []byte{1, 2, 3, 4, 5}
	hnp, h2e := newSAEFlood(false, nil), newSAEFlood(true, nil)
	if got, ok := hnp.token(append([]byte{19, 0}, tok...)); !ok || !bytes.Equal(got, tok) {
		t.Errorf("H&P: %x %v", got, ok)
	}
	if got, ok := h2e.token(append([]byte{19, 0, 255, 6, 93}, tok...)); !ok || !bytes.Equal(got, tok) {
		t.Errorf("H2E: %x %v", got, ok)
	}
	if _, ok := h2e.token(append([]byte{19, 0, 255, 9, 93}, tok...)); ok {
		t.Error("H2E: an overrunning container accepted")
	}
	if got := poolOf([6]byte{2, 0x5a, 0xe0, 0, 0, 0}, 2); got[1] != [6]byte{2, 0x5a, 0xe0, 0, 0, 2} {
		t.Errorf("pool %x", got)
	}
}
