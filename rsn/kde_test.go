package rsn

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

func TestKDERoundTrip(t *testing.T) {
	gtk := Key{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	igtk := Key{0xa0, 0xa1}
	mac := ieee80211.MAC{2, 0, 0, 0, 1, 0}
	b := unhex(t, supplicantRSNE)
	b = append(b, ElemRSNX, 1, 0x20)
	b = AppendKeyIDKDE(b, 1)
	b = AppendGTKKDE(b, 2, true, &gtk)
	b = AppendIGTKKDE(b, 4, 0x0000a1b2c3d4e5f6&0xffffffffffff, &igtk)
	b = AppendMACKDE(b, mac)
	b = AppendPMKIDKDE(b, PMKID{0xee})
	b = append(b, 0xdd, 0x05, 0x00, 0x50, 0xf2, 0x04, 0x00) // a vendor element that is no KDE: skipped
	b = append(b, 0xdd, 0x00, 0x00)                         // padding
	d, err := ParseKeyData(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(d.RSNE, unhex(t, supplicantRSNE)) || !bytes.Equal(d.RSNXE, []byte{ElemRSNX, 1, 0x20}) ||
		!d.HasKeyID || d.KeyID != 1 || !d.HasGTK || d.GTKKeyID != 2 || !d.GTKTx || !bytes.Equal(d.GTK, gtk[:]) ||
		!d.HasIGTK || d.IGTKKeyID != 4 || d.IPN != 0xa1b2c3d4e5f6 || !bytes.Equal(d.IGTK, igtk[:]) ||
		!d.HasMAC || d.MAC != mac || !d.HasPMKID || d.PMKID != (PMKID{0xee}) {
		t.Fatalf("%+v", d)
	}
}

func TestParseKeyDataEdges(t *testing.T) {
	if _, err := ParseKeyData([]byte{0x30, 0x14, 0x01}); err != ErrKeyData {
		t.Errorf("overrunning element: %v", err)
	}
	// Padding ends the field even with octets after it.
	d, err := ParseKeyData([]byte{0xdd, 0x00, 0x30, 0x99})
	if err != nil || d.RSNE != nil {
		t.Errorf("padding: %+v %v", d, err)
	}
	// KDEs too short for their type are skipped, as hostapd skips them.
	short := []byte{0xdd, 0x06, 0x00, 0x0f, 0xac, KDEGTK, 0x01, 0x00, 0xdd, 0x07, 0x00, 0x0f, 0xac, KDEMAC, 1, 2, 3}
	if d, err := ParseKeyData(short); err != nil || d.HasGTK || d.HasMAC {
		t.Errorf("short KDEs: %+v %v", d, err)
	}
	// An IGTK KDE too short for its key is reported with no key, for the
	// user to refuse (hostapd checks its length where it uses it).
	igtk := []byte{0xdd, 0x08, 0x00, 0x0f, 0xac, KDEIGTK, 4, 0, 1, 0}
	if d, _ := ParseKeyData(igtk); !d.HasIGTK || d.IGTK != nil {
		t.Errorf("short IGTK KDE: %+v", d)
	}
	// The last of two GTK KDEs wins.
	g1, g2 := Key{1}, Key{2}
	two := AppendGTKKDE(AppendGTKKDE(nil, 1, false, &g1), 2, false, &g2)
	if d, _ := ParseKeyData(two); d.GTKKeyID != 2 || d.GTK[0] != 2 {
		t.Errorf("two GTK KDEs: %+v", d)
	}
}

func TestKeyDataFormat(t *testing.T) {
	gtk := Key{0xab, 0xab, 0xab, 0xab}
	d, _ := ParseKeyData(AppendGTKKDE(nil, 1, false, &gtk))
	for _, verb := range []string{"%v", "%+v", "%#v", "%x"} {
		if s := fmt.Sprintf(verb, d); strings.Contains(s, "ab") || strings.Contains(s, "171") || !strings.Contains(s, "GTK:1") {
			t.Fatalf("%s printed %s", verb, s)
		}
	}
}

func TestTransitionDisableKDE(t *testing.T) {
	b := AppendTransitionDisableKDE(nil, TransitionDisableWPA3Personal)
	if want := []byte{0xdd, 5, 0x50, 0x6f, 0x9a, 0x20, 1}; !bytes.Equal(b, want) {
		t.Fatalf("KDE %x, want %x", b, want)
	}
	d, err := ParseKeyData(b)
	if err != nil || !d.HasTransitionDisable || d.TransitionDisable != 1 {
		t.Fatalf("parsed %+v %v", d, err)
	}
	if d, _ := ParseKeyData([]byte{0xdd, 4, 0x50, 0x6f, 0x9a, 0x20}); d.HasTransitionDisable {
		t.Error("an empty Transition Disable KDE parsed")
	}
}
