package rsn

import (
	"bytes"
	"encoding/hex"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// SAE's 4-way handshake is AKM 8's: descriptor version 0 ("AKM-defined"),
// AES-128-CMAC for the MIC, KDF-SHA256 for the PTK and HMAC-SHA256 for a
// PMKID (hostapd's wpa_use_akm_defined, wpa_eapol_key_mic,
// wpa_key_mgmt_sha256).
func TestSAEKeyAlgorithms(t *testing.T) {
	if v := DescriptorVersion(AKMSAE); v != VersionAKMDefined {
		t.Fatalf("SAE descriptor version %d, want 0", v)
	}
	pmk, _ := ParsePSK(j4[1].psk)
	aa, spa := ieee80211.MAC(unhex(t, "a0a1a1a3a4a5")), ieee80211.MAC(unhex(t, "b0b1b2b3b4b5"))
	var anonce, snonce Nonce
	anonce[0], snonce[0] = 1, 2
	// The J.7.1 inputs under KDF-SHA256, the vector TestDerivePTK holds
	// for AKM 6.
	p := DerivePTK(AKMSAE, &pmk, aa, spa, &anonce, &snonce)
	if p != DerivePTK(AKMPSKSHA256, &pmk, aa, spa, &anonce, &snonce) || p == DerivePTK(AKMPSK, &pmk, aa, spa, &anonce, &snonce) {
		t.Error("SAE's PTK is not KDF-SHA256's")
	}
	if id := PMKIDOf(&pmk, aa, spa, AKMSAE); hex.EncodeToString(id[:]) != "657f44df65722492b0b55c5d13c4b970" {
		t.Errorf("SAE PMKID %x, want HMAC-SHA256's", id)
	}
	f := KeyFrame(AppendKeyFrame(nil, &KeyFields{ProtocolVersion: 2, Info: InfoPairwise | InfoMIC | VersionAKMDefined, Replay: 1, Nonce: snonce}))
	if err := SetMIC(f, &p.KCK); err != nil {
		t.Fatalf("version 0 MIC: %v", err)
	}
	cmacMIC, _ := ComputeMIC(VersionAESCMAC, &p.KCK, f)
	if !bytes.Equal(f.MIC(), cmacMIC[:]) || !VerifyMIC(f, &p.KCK) {
		t.Error("version 0's MIC is not AES-128-CMAC")
	}
	var c MICChecker
	if !c.Check(AKMSAE, &pmk, aa, spa, &anonce, &snonce, f) {
		t.Error("the MIC checker refuses SAE's message")
	}
	if c.Check(AKMPSK, &pmk, aa, spa, &anonce, &snonce, f) {
		t.Error("the MIC checker took SAE's MIC under PRF-384's KCK")
	}
}

func TestValidateSAE(t *testing.T) {
	sae := DefaultPolicy()
	sae.AKMs, sae.MFP = []AKM{AKMSAE}, MFPRequired
	transition := DefaultPolicy()
	transition.AKMs, transition.MFP = []AKM{AKMPSK, AKMSAE}, MFPOptional
	requireMFP := transition
	requireMFP.SAERequireMFP = true
	both := []AKM{AKMPSK, AKMSAE}
	for _, c := range []struct {
		name   string
		p      Policy
		ie     []byte
		status uint16
		akm    AKM
	}{
		{"SAE with MFP", sae, rsne(CipherCCMP, ccmp, []AKM{AKMSAE}, CapMFPC), 0, AKMSAE},
		{"SAE BSS, WPA-PSK station", sae, rsne(CipherCCMP, ccmp, psk, CapMFPC), 43, 0},
		{"transition, WPA-PSK station", transition, rsne(CipherCCMP, ccmp, psk, 0), 0, AKMPSK},
		{"transition, SAE station", transition, rsne(CipherCCMP, ccmp, []AKM{AKMSAE}, CapMFPC), 0, AKMSAE},
		{"transition, station offering both gets SAE", transition, rsne(CipherCCMP, ccmp, both, CapMFPC), 0, AKMSAE},
		{"transition, SAE without MFPC", transition, rsne(CipherCCMP, ccmp, []AKM{AKMSAE}, 0), 0, AKMSAE},
		{"sae_require_mfp, SAE without MFPC", requireMFP, rsne(CipherCCMP, ccmp, []AKM{AKMSAE}, 0), 31, 0},
		{"sae_require_mfp, SAE with MFPC", requireMFP, rsne(CipherCCMP, ccmp, []AKM{AKMSAE}, CapMFPC), 0, AKMSAE},
		{"sae_require_mfp, WPA-PSK without MFPC", requireMFP, rsne(CipherCCMP, ccmp, psk, 0), 0, AKMPSK},
	} {
		if err := c.p.Check(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		n, status := c.p.Validate(c.ie)
		if status != c.status || status == 0 && n.AKM != c.akm {
			t.Errorf("%s: status %d AKM %v, want %d %v", c.name, status, n.AKM, c.status, c.akm)
		}
	}
	e, _ := ParseElement(sae.Element())
	if len(e.AKMs) != 1 || e.AKMs[0] != AKMSAE {
		t.Errorf("SAE BSS RSNE AKMs %v", e.AKMs)
	}
	e, _ = ParseElement(transition.Element())
	if len(e.AKMs) != 2 || e.AKMs[0] != AKMPSK || e.AKMs[1] != AKMSAE {
		t.Errorf("transition RSNE AKMs %v, want hostapd's order", e.AKMs)
	}
}

func TestRSNXElement(t *testing.T) {
	p := DefaultPolicy()
	p.AKMs, p.SAEH2E = []AKM{AKMPSK, AKMSAE}, true
	if got := p.RSNXElement(); !bytes.Equal(got, []byte{ElemRSNX, 1, 0x20}) || !RSNXH2E(got) {
		t.Errorf("H2E RSNXE %x", got)
	}
	p.SAEH2E = false
	if got := p.RSNXElement(); got != nil {
		t.Errorf("hunting and pecking only: RSNXE %x", got)
	}
	p.AKMs, p.SAEH2E = []AKM{AKMPSK}, true
	if got := p.RSNXElement(); got != nil {
		t.Errorf("no SAE: RSNXE %x", got)
	}
	for _, e := range [][]byte{nil, {ElemRSNX, 0}, {ElemRSNX, 1, 0x0f}, {ieee80211.ElemRSN, 1, 0x20}} {
		if RSNXH2E(e) {
			t.Errorf("%x read as H2E", e)
		}
	}
}

func TestPMKSACache(t *testing.T) {
	var c PMKSACache
	a, b := ieee80211.MAC{2, 0, 0, 0, 0, 1}, ieee80211.MAC{2, 0, 0, 0, 0, 2}
	idA, idB := PMKID{1}, PMKID{2}
	now := time.Minute
	c.Add(now, PMKSA{SPA: a, PMKID: idA, PMK: PMK{0xaa}, AKM: AKMSAE, Group: 19})
	if e, ok := c.Get(now, a, idA); !ok || e.PMK != (PMK{0xaa}) || e.Group != 19 {
		t.Fatal("entry not found")
	}
	if _, ok := c.Get(now, a, idB); ok {
		t.Error("another PMKID matched")
	}
	if _, ok := c.Get(now, b, idA); ok {
		t.Error("another station matched")
	}
	if _, ok := c.Get(now+PMKSALifetime, a, idA); ok {
		t.Error("an entry outlived 43,200 s")
	}
	if _, ok := c.Get(now+PMKSALifetime-time.Second, a, idA); !ok {
		t.Error("an entry expired early")
	}
	c.Add(now, PMKSA{SPA: a, PMKID: idB, AKM: AKMSAE})
	if _, ok := c.Get(now, a, idA); ok || c.Len() != 1 {
		t.Error("a station's new PMKSA did not replace its old one")
	}
	c.Flush()
	if c.Len() != 0 {
		t.Error("Flush left entries")
	}
	for i := range PMKSACacheLimit + 1 {
		spa := ieee80211.MAC{2, 0, 0, 0, byte(i >> 8), byte(i)}
		if ev := c.Add(now, PMKSA{SPA: spa, PMKID: PMKID{byte(i)}}); ev != 0 && i < PMKSACacheLimit {
			t.Fatalf("evicted at %d", i)
		}
	}
	if c.Len() != PMKSACacheLimit {
		t.Fatalf("%d entries past the limit", c.Len())
	}
	if _, ok := c.Get(now, ieee80211.MAC{2, 0, 0, 0, 0, 0}, PMKID{0}); ok {
		t.Error("the oldest entry was not the one evicted")
	}
	if _, ok := c.Get(now, ieee80211.MAC{2, 0, 0, 0, 4, 0}, PMKID{0}); !ok {
		t.Error("the newest entry is missing")
	}
	c.Add(now+PMKSALifetime, PMKSA{SPA: a, PMKID: idA})
	if c.Len() != 1 {
		t.Errorf("expired entries kept: %d", c.Len())
	}
}
