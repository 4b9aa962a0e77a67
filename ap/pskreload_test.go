package ap

import (
	"slices"
	"testing"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// New PSKs replace the old for the next handshake; a connected station
// whose PMK is gone is returned to be disconnected, one whose PMK stays
// (the same line, or another that gives it) is kept.
func TestSetPSKs(t *testing.T) {
	other := ieee80211.MAC{2, 0, 0, 0, 9, 9}
	h := newHarness(t, wpaConfig(t, rsn.AKMPSK))
	h.advance(0)
	h.take()
	w := newWPASTA(h, staMAC, rsn.AKMPSK)
	w.associate(testPassphrase)
	w.associateDone(t)

	kept := &RSNConfig{PSKs: []bss.PSK{{Addr: other, PMK: ptr(testPMK(t, "another passphrase"))}, {PMK: ptr(testPMK(t, testPassphrase)), KeyID: "all"}}}
	p, err := DerivePSKs(kept, "")
	if err != nil {
		t.Fatal(err)
	}
	if gone, err := h.a.SetPSKs(p); err != nil || len(gone) != 0 {
		t.Fatalf("the station's PMK is still a wildcard: gone %v, %v", gone, err)
	}
	if got := h.a.radios[0].rsn.psks.PMKs(nil, other); len(got) != 2 || got[0] != testPMK(t, "another passphrase") {
		t.Errorf("%v's candidates: %d", other, len(got))
	}
	p, _ = DerivePSKs(&RSNConfig{PSKs: []bss.PSK{{Addr: other, PMK: ptr(testPMK(t, testPassphrase))}, {PMK: ptr(testPMK(t, "a new passphrase"))}}}, "")
	if gone, err := h.a.SetPSKs(p); err != nil || !slices.Equal(gone, []ieee80211.MAC{staMAC}) {
		t.Errorf("the station's PMK is now another station's only: gone %v, %v", gone, err)
	}
	if _, err := DerivePSKs(&RSNConfig{}, ""); err == nil {
		t.Error("no PSK at all was accepted")
	}
	open := newHarness(t, Config{})
	if _, err := open.a.SetPSKs(p); err == nil {
		t.Error("an open BSS took PSKs")
	}
}

// SameSecrets tells a changed key from an unchanged one.
func TestSameSecrets(t *testing.T) {
	pmk := testPMK(t, testPassphrase)
	a := &RSNConfig{Passphrase: bss.NewPassphrase("correct horse"), PSKs: []bss.PSK{{KeyID: "x", PMK: ptr(pmk)}}}
	b := &RSNConfig{Passphrase: bss.NewPassphrase("correct horse"), PSKs: []bss.PSK{{KeyID: "x", PMK: ptr(pmk)}}}
	if !a.SameSecrets(b) {
		t.Error("equal secrets differ")
	}
	for _, c := range []*RSNConfig{
		{Passphrase: bss.NewPassphrase("correct horses"), PSKs: b.PSKs},
		{Passphrase: b.Passphrase, PSKs: []bss.PSK{{KeyID: "y", PMK: ptr(pmk)}}},
		{Passphrase: b.Passphrase, PSKs: []bss.PSK{{KeyID: "x", PMK: ptr(testPMK(t, "other passphrase"))}}},
		{Passphrase: b.Passphrase},
		{Passphrase: b.Passphrase, PSK: ptr(pmk), PSKs: b.PSKs},
		nil,
	} {
		if a.SameSecrets(c) {
			t.Errorf("%+v: the same as %+v", c, a)
		}
	}
}
