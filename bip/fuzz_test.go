package bip

import (
	"bytes"
	"testing"
)

// FuzzParseMME: an element that decodes encodes back to its own bytes.
func FuzzParseMME(f *testing.F) {
	for _, v := range vectors {
		p := unhex(f, v.prot)
		f.Add(p[len(p)-MMELen:])
	}
	f.Add([]byte{ElemMME, 24})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseMME(b)
		if err != nil {
			return
		}
		if re := m.Append(nil); !bytes.Equal(re, b) {
			t.Fatalf("%x re-encoded as %x", b, re)
		}
	})
}

// FuzzOpen: no frame panics the receive path; one it accepts carries an
// MME of an installed key with an IPN above the last, which it records,
// and its body is the frame between the header and the MME.
func FuzzOpen(f *testing.F) {
	for _, v := range vectors {
		f.Add(unhex(f, v.prot))
	}
	f.Add([]byte{0xc0, 0})
	k, _ := New(unhex(f, vectors[0].igtk), 4)
	f.Fuzz(func(t *testing.T, b []byte) {
		var r Receiver
		r.Install(k, 3)
		body, err := r.Open(bytes.Clone(b))
		if err != nil {
			if r.LastIPN(4) != 3 {
				t.Fatalf("a refused frame moved the IPN to %d", r.LastIPN(4))
			}
			return
		}
		m, _ := FrameMME(b)
		if m.KeyID != 4 || m.IPN <= 3 || r.LastIPN(4) != m.IPN || len(body) != len(b)-hdrLen-MMELen {
			t.Fatalf("accepted: MME %+v, last %d, body %d of %d", m, r.LastIPN(4), len(body), len(b))
		}
	})
}
