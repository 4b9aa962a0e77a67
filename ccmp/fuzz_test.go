package ccmp

import (
	"bytes"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// FuzzDecrypt: no input panics the receive path, and a frame it accepts
// has a valid CCMP header for this key and the length Encrypt produces.
func FuzzDecrypt(f *testing.F) {
	for _, v := range mpdus {
		f.Add(unhex(f, v.encrypted))
	}
	f.Add([]byte{0x08, 0x40})
	k, _ := New(unhex(f, mpdus[0].tk), 0)
	f.Fuzz(func(t *testing.T, b []byte) {
		pn, id, herr := ParseHeader(b)
		body, err := k.Decrypt(bytes.Clone(b))
		if err != nil {
			return
		}
		if herr != nil || id != 0 || pn > MaxPN {
			t.Fatalf("accepted with header error %v, key ID %d, PN %#x", herr, id, pn)
		}
		if h := ieee80211.Frame(b).HeaderLen(); len(body) != len(b)-h-Overhead {
			t.Fatalf("body %d of frame %d", len(body), len(b))
		}
	})
}

// FuzzRoundTrip: every data or management frame encrypts and decrypts back
// to its body, under any PN.
func FuzzRoundTrip(f *testing.F) {
	for _, v := range mpdus {
		f.Add(unhex(f, v.plain), v.pn)
	}
	k, _ := New(tk, 2)
	f.Fuzz(func(t *testing.T, plain []byte, pn uint64) {
		fr, err := ieee80211.ParseFrame(plain)
		if err != nil || fr.Type() == ieee80211.TypeCtrl {
			return
		}
		pn = 1 + pn%MaxPN
		h := fr.HeaderLen()
		enc, err := k.Encrypt(withGap(t, plain), pn)
		if err != nil {
			t.Fatal(err)
		}
		if got, _, _ := ParseHeader(enc); got != pn {
			t.Fatalf("PN %#x read back as %#x", pn, got)
		}
		body, err := k.Decrypt(enc)
		if err != nil || !bytes.Equal(body, plain[h:]) {
			t.Fatalf("decrypt: %v", err)
		}
	})
}

// FuzzOpenMgmt: no input panics the management receive path; a frame it
// refuses leaves the replay counter as it was, and one it accepts is a
// unicast management frame whose PN the counter now holds.
func FuzzOpenMgmt(f *testing.F) {
	f.Add(unhex(f, mpdus[4].encrypted))
	f.Add(unhex(f, mpdus[0].encrypted))
	k, _ := New(unhex(f, mpdus[4].tk), 0)
	f.Fuzz(func(t *testing.T, b []byte) {
		var r Replay
		r.Reset(0)
		_, err := k.OpenMgmt(bytes.Clone(b), &r)
		if err != nil {
			if !r.Fresh(MgmtCounter, 1) {
				t.Fatalf("a refused frame moved the counter (%v)", err)
			}
			return
		}
		fr := ieee80211.Frame(b)
		pn, _, _ := ParseHeader(b)
		if fr.Type() != ieee80211.TypeMgmt || fr.Addr1().IsMulticast() || r.Fresh(MgmtCounter, pn) || !r.Fresh(MgmtCounter, pn+1) {
			t.Fatalf("accepted %x", b)
		}
	})
}
