package handshake

import (
	"testing"

	"github.com/airq/airq/rsn"
)

// saePMK and saePMKID stand for what an SAE exchange gave both sides.
var (
	saePMK   = rsn.PMK{0x5a, 0xe0, 1, 2, 3}
	saePMKID = rsn.PMKID{0x1d, 0x5a, 0xe0}
)

func saeSetup(mfp rsn.MFP) setup {
	pmk := saePMK
	return setup{akm: rsn.AKMSAE, mfp: mfp, ownPMK: &pmk, ownPMKID: saePMKID,
		sup: func(c *SupplicantConfig) { c.PMK = saePMK }}
}

// AKM 8's handshake: descriptor version 0 both ways, the PMKID KDE in
// message 1, the SAE PMK alone (not the passphrase's), the same keys on
// both sides.
func TestSAEHandshake(t *testing.T) {
	for _, mfp := range []rsn.MFP{rsn.MFPOptional, rsn.MFPRequired} {
		l := newLink(t, saeSetup(mfp))
		if !l.s.Authorized() || !l.sup.Completed() {
			t.Fatalf("mfp %d: not completed: %s", mfp, l.s)
		}
		frames := append(sends(t, l.ap), sends(t, l.sta)...)
		for _, f := range frames {
			if f.DescriptorVersion() != rsn.VersionAKMDefined {
				t.Fatalf("mfp %d: descriptor version %d", mfp, f.DescriptorVersion())
			}
		}
		d, err := rsn.ParseKeyData(frames[0].KeyData())
		if err != nil || !d.HasPMKID || d.PMKID != saePMKID {
			t.Fatalf("mfp %d: message 1 key data %v, want the SAE PMKID", mfp, d)
		}
		if id, ok := l.sup.Message1PMKID(); !ok || id != saePMKID {
			t.Fatal("the supplicant did not see the PMKID")
		}
		if installedTK(t, l.ap, 0) != installedTK(t, l.sta, 0) {
			t.Fatal("the two sides installed different TKs")
		}
	}
}

// A station that authenticated by SAE is held to that exchange's PMK: the
// passphrase's PMK, which the BSS also knows, must not complete it.
func TestSAEStationHeldToItsPMK(t *testing.T) {
	su := saeSetup(rsn.MFPRequired)
	su.sup = nil // the supplicant uses the passphrase's PMK
	l := newLink(t, su)
	if l.s.Authorized() || l.sup.Completed() {
		t.Fatal("an SAE station completed with the passphrase's PMK")
	}
}

// A WPA-PSK station on a transition BSS keeps the configured PMK and gets
// no PMKID in message 1, where it would help an offline search.
func TestTransitionPSKStation(t *testing.T) {
	p := rsn.DefaultPolicy()
	p.AKMs, p.MFP = []rsn.AKM{rsn.AKMPSK, rsn.AKMSAE}, rsn.MFPOptional
	su := setup{akm: rsn.AKMPSK, mfp: rsn.MFPOptional,
		cfg: func(c *Config) { c.IEs = p.Element() },
		sup: func(c *SupplicantConfig) { c.APRSNE = p.Element() }}
	l := newLink(t, su)
	if !l.s.Authorized() {
		t.Fatal("WPA-PSK station not served")
	}
	d, _ := rsn.ParseKeyData(sends(t, l.ap)[0].KeyData())
	if d.HasPMKID {
		t.Error("a PMKID KDE in a WPA-PSK message 1")
	}
}

// transition_disable puts its bits in message 3's Transition Disable KDE;
// without it message 3 has none.
func TestTransitionDisableKDE(t *testing.T) {
	for _, td := range []uint8{0, rsn.TransitionDisableWPA3Personal} {
		su := saeSetup(rsn.MFPRequired)
		su.cfg = func(c *Config) { c.TransitionDisable = td }
		l := newLink(t, su)
		if !l.sup.Completed() || l.sup.TransitionDisable() != td {
			t.Errorf("transition_disable %d: the station read %d", td, l.sup.TransitionDisable())
		}
	}
}
