package ccmp

import (
	"bytes"
	"errors"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// qosFrame is a plaintext QoS data frame laid out for Encrypt, with room
// for two MICs.
func qosFrame() []byte {
	h := ieee80211.DataHeader{Flags: ieee80211.FCToDS, QoS: true, TID: 5,
		Addr1: ieee80211.MAC{1, 2, 3, 4, 5, 6}, Addr2: ieee80211.MAC{7, 8, 9, 10, 11, 12}, Addr3: ieee80211.MAC{1, 1, 1, 1, 1, 1}}
	f := ieee80211.AppendDataHeader(nil, h)
	f = append(f, make([]byte, HeaderLen)...)
	f = append(f, "an LLC/SNAP header and an IP packet"...)
	return append(make([]byte, 0, len(f)+2*MICLen), f...)
}

// TestDecryptFailureKeepsFrame: a frame that fails under one key can be
// tried under another with the same key ID (the old and new TK of a PTK0
// rekey), and holds no plaintext meanwhile.
func TestDecryptFailureKeepsFrame(t *testing.T) {
	oldK, _ := New(bytes.Repeat([]byte{1}, 16), 0)
	newK, _ := New(bytes.Repeat([]byte{2}, 16), 0)
	plain := qosFrame()
	enc, err := oldK.Encrypt(append(make([]byte, 0, cap(plain)), plain...), 10)
	if err != nil {
		t.Fatal(err)
	}
	sent := bytes.Clone(enc)
	if _, err := newK.Decrypt(enc); !errors.Is(err, ErrMIC) {
		t.Fatalf("wrong key: %v", err)
	}
	if !bytes.Equal(enc, sent) {
		t.Fatalf("a failed Decrypt changed the frame")
	}
	h := ieee80211.Frame(plain).HeaderLen() + HeaderLen
	if body, err := oldK.Decrypt(enc); err != nil || !bytes.Equal(body, plain[h:]) {
		t.Fatalf("frame unusable after a failed attempt with another key: %v", err)
	}
}

// TestEncryptRefusesProtectedFrame: a retry path that calls Encrypt on the same buffer twice gets an error, never a second pass of
// the keystream, which with the same PN would undo the first and send the
// body in clear.
func TestEncryptRefusesProtectedFrame(t *testing.T) {
	k, _ := New(bytes.Repeat([]byte{1}, 16), 0)
	enc, err := k.Encrypt(qosFrame(), 10) // with room for another MIC
	if err != nil {
		t.Fatal(err)
	}
	sent := bytes.Clone(enc)
	pn, _, _ := ParseHeader(enc)
	for _, p := range []uint64{pn, pn + 1} {
		if _, err := k.Encrypt(enc, p); !errors.Is(err, ErrProtected) {
			t.Errorf("Encrypt of a protected frame with PN %d: %v", p, err)
		}
	}
	if !bytes.Equal(enc, sent) {
		t.Errorf("a refused Encrypt changed the frame")
	}
}

// TestEncryptTooLong: a body CCM's length field cannot count is an error,
// not a panic inside ccm.
func TestEncryptTooLong(t *testing.T) {
	k, _ := New(bytes.Repeat([]byte{1}, 16), 0)
	p := qosFrame()
	h := ieee80211.Frame(p).HeaderLen() + HeaderLen
	for _, body := range []int{MaxBody + 1, 70000} {
		f := append(make([]byte, 0, h+body+MICLen), p...)[:h+body]
		if _, err := k.Encrypt(f, 1); !errors.Is(err, ErrTooLong) {
			t.Errorf("%d-octet body: %v", body, err)
		}
	}
	f := append(make([]byte, 0, h+MaxBody+MICLen), p...)[:h+MaxBody]
	enc, err := k.Encrypt(f, 1)
	if err != nil {
		t.Fatalf("%d-octet body: %v", MaxBody, err)
	}
	if _, err := k.Decrypt(enc); err != nil {
		t.Fatalf("%d-octet body: decrypt: %v", MaxBody, err)
	}
}
