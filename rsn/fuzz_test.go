package rsn

import (
	"bytes"
	"testing"
)

func seedElements(f *testing.F) {
	for _, s := range []string{hostapdBeaconRSNE, supplicantRSNE, iwdRSNE, iwdPMFRSNE,
		"30180100000fac040100000fac040200000fac02000fac06cc20", "30020100"} {
		f.Add(unhex(f, s))
	}
}

// FuzzParseElement: an element that decodes encodes back to the same
// bytes, and validation never panics and accepts only what decodes.
func FuzzParseElement(f *testing.F) {
	seedElements(f)
	p := DefaultPolicy()
	p.AKMs, p.MFP, p.ExtendedKeyID = []AKM{AKMPSK, AKMPSKSHA256}, MFPOptional, 1
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := ParseElement(b)
		n, status := p.Validate(b)
		if err != nil {
			if status != 40 {
				t.Fatalf("malformed element (%v) answered %d", err, status)
			}
			return
		}
		if got := e.Append(nil); !bytes.Equal(got, b) {
			t.Fatalf("re-encoded %x, was %x", got, b)
		}
		if status == 0 && (n.AKM == 0 || n.Pairwise != CipherCCMP || !bytes.Equal(n.RSNE, b)) {
			t.Fatalf("accepted with %+v", n)
		}
	})
}

// FuzzParseKeyData: no Key Data field panics the decoder, what it finds
// lies inside the field, and KDEs re-encoded from the decoded values
// decode to the same values.
func FuzzParseKeyData(f *testing.F) {
	c := loadCapture(f, "hwsim-4way.txt")
	ptk := c.ptk(f)
	for _, m := range []string{"msg3", "group1"} {
		k, _ := ParseKeyFrame(c[m])
		plain, _ := UnwrapKeyData(nil, &ptk.KEK, k.KeyData())
		f.Add(plain)
	}
	igtk := Key{9}
	f.Add(AppendIGTKKDE(AppendKeyIDKDE(AppendMACKDE(nil, [6]byte{2}), 1), 5, 77, &igtk))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := ParseKeyData(b)
		if err != nil {
			return
		}
		for _, s := range [][]byte{d.RSNE, d.RSNXE, d.GTK, d.IGTK} {
			if len(s) > len(b) {
				t.Fatalf("a field longer than the input")
			}
		}
		var re []byte
		if d.HasGTK && len(d.GTK) == 16 {
			re = AppendGTKKDE(re, d.GTKKeyID, d.GTKTx, (*Key)(d.GTK))
		}
		if d.HasIGTK && len(d.IGTK) == 16 {
			re = AppendIGTKKDE(re, d.IGTKKeyID, d.IPN, (*Key)(d.IGTK))
		}
		if d.HasMAC {
			re = AppendMACKDE(re, d.MAC)
		}
		if d.HasKeyID {
			re = AppendKeyIDKDE(re, d.KeyID)
		}
		e, err := ParseKeyData(re)
		if err != nil || e.HasGTK != (d.HasGTK && len(d.GTK) == 16) || e.HasGTK && (e.GTKKeyID != d.GTKKeyID ||
			e.GTKTx != d.GTKTx || !bytes.Equal(e.GTK, d.GTK)) || e.HasMAC != d.HasMAC || e.MAC != d.MAC ||
			e.HasKeyID != d.HasKeyID || e.KeyID != d.KeyID || e.HasIGTK && (e.IPN != d.IPN || e.IGTKKeyID != d.IGTKKeyID) {
			t.Fatalf("re-decoded %+v, was %+v", e, d)
		}
	})
}

// FuzzParseKeyFrame: any EAPOL frame is safe to decode and inspect, and a
// decoded frame encodes back from its fields (when its unused fields are
// zero, as every sender leaves them, and no octets follow the Key Data).
func FuzzParseKeyFrame(f *testing.F) {
	for _, name := range []string{"hwsim-4way.txt", "ap-4way.txt"} {
		for _, b := range loadCapture(f, name) {
			if len(b) > 6 {
				f.Add(b)
			}
		}
	}
	var kck Key
	f.Fuzz(func(t *testing.T, b []byte) {
		k, err := ParseKeyFrame(b)
		if err != nil {
			return
		}
		_, _, _ = k.Info(), k.RSC(), k.IV()
		VerifyMIC(k, &kck)
		if k.Descriptor() != DescriptorRSN || !bytes.Equal(k.IV(), make([]byte, 16)) ||
			!bytes.Equal(k[offRSC+8:offMIC], make([]byte, 8)) || len(k) != offData+len(k.KeyData()) {
			return
		}
		re := AppendKeyFrame(nil, &KeyFields{ProtocolVersion: k.ProtocolVersion(), Info: k.Info(), KeyLength: k.KeyLength(),
			Replay: k.Replay(), Nonce: k.Nonce(), RSC: k.RSC(), Data: k.KeyData()})
		copy(re[offMIC:], k.MIC())
		if !bytes.Equal(re, k) {
			t.Fatalf("re-encoded %x\n       was %x", re, k)
		}
	})
}
