package bss

import (
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// TestRepeatsOnceElement: a second RSNE or HE Capabilities is caught, a
// second Vendor Specific element is not.
func TestRepeatsOnceElement(t *testing.T) {
	for _, c := range []struct {
		name string
		ies  []byte
		want bool
	}{
		{"one of each", []byte{ieee80211.ElemRSN, 1, 1, ElemRSNX, 1, 0x20}, false},
		{"two RSNEs", []byte{ieee80211.ElemRSN, 1, 1, ieee80211.ElemRSN, 1, 2}, true},
		{"two vendor elements", []byte{221, 1, 0, 221, 1, 0}, false},
		{"two HE capabilities", []byte{ieee80211.ElemExtension, 1, ieee80211.ElemExtHECap, ieee80211.ElemExtension, 1, ieee80211.ElemExtHECap}, true},
		{"empty extension", []byte{ieee80211.ElemExtension, 0, ieee80211.ElemExtension, 0}, false},
	} {
		if got := RepeatsOnceElement(ieee80211.Elements(c.ies)); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func FuzzRepeatsOnceElement(f *testing.F) {
	f.Add([]byte{ieee80211.ElemRSN, 1, 1, ieee80211.ElemRSN, 1, 2})
	f.Add([]byte{ieee80211.ElemExtension, 1, ieee80211.ElemExtHECap})
	f.Add([]byte{ieee80211.ElemExtension, 0, 221, 3, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		ies := ieee80211.Elements(b)
		if ies.Validate() != nil {
			return
		}
		RepeatsOnceElement(ies)
	})
}
