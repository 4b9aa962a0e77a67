package rsn

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// Real elements: hostapd's beacon RSNE with WMM (wpa=2, WPA-PSK, CCMP),
// wpa_supplicant's in an association request, iwd's in a message 2 (no
// RSN Capabilities), and iwd's test element for PMF (MFPC, an empty PMKID
// list, BIP-CMAC-128).
const (
	hostapdBeaconRSNE = "30140100000fac040100000fac040100000fac020c00"
	supplicantRSNE    = "30140100000fac040100000fac040100000fac020000"
	iwdRSNE           = "30120100000fac040100000fac040100000fac02"
	iwdPMFRSNE        = "301a0100000fac020100000fac020100000fac0280000000000fac06"
)

func TestParseElement(t *testing.T) {
	e, err := ParseElement(unhex(t, iwdPMFRSNE))
	if err != nil {
		t.Fatal(err)
	}
	if e.Version != 1 || e.Group != CipherTKIP || !slices.Equal(e.Pairwise, []Cipher{CipherTKIP}) ||
		!slices.Equal(e.AKMs, []AKM{AKMPSK}) || e.Caps != CapMFPC || len(e.PMKIDs) != 0 ||
		e.GroupMgmt != CipherBIPCMAC128 || e.Last != FieldGroupMgmt || e.Extra != nil {
		t.Fatalf("parsed %+v", e)
	}
	for _, s := range []string{hostapdBeaconRSNE, supplicantRSNE, iwdRSNE, iwdPMFRSNE} {
		b := unhex(t, s)
		e, err := ParseElement(b)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if got := e.Append(nil); !bytes.Equal(got, b) {
			t.Errorf("%s re-encoded as %x", s, got)
		}
	}
	e, _ = ParseElement(unhex(t, "30020100"))
	if e.GroupCipher() != CipherCCMP || !slices.Equal(e.PairwiseCiphers(), []Cipher{CipherCCMP}) ||
		!slices.Equal(e.AKMSuites(), []AKM{AKM8021X}) || e.GroupMgmtCipher() != CipherBIPCMAC128 {
		t.Errorf("defaults of a bare element: %+v", e)
	}
}

func TestParseElementErrors(t *testing.T) {
	for _, c := range []struct {
		hex  string
		want error
	}{
		{"", ErrTruncated},
		{"3001", ErrTruncated},
		{"dd020100", ErrElementID},
		{"30030100", ErrLength},
		{"30020200", ErrVersion},
		{"30050100000fac", ErrTruncated},                            // group cut short
		{"30070100000fac0401", ErrTruncated},                        // one octet after the group
		{"300c0100000fac040000000fac04", ErrSuiteCount},             // zero pairwise
		{"300c0100000fac040200000fac04", ErrSuiteCount},             // count beyond the element
		{"300d0100000fac040100000fac0400", ErrTruncated},            // one octet for the AKM count
		{"30120100000fac040100000fac040000000fac02", ErrSuiteCount}, // zero AKMs
		{"30180100000fac040100000fac040100000fac0200000100aabb", ErrPMKIDCount},
		{"30160100000fac040100000fac040100000fac020000ffff", ErrPMKIDCount}, // octets after the capabilities are a PMKID count
	} {
		if _, err := ParseElement(unhex(t, c.hex)); err != c.want {
			t.Errorf("%s: %v, want %v", c.hex, err, c.want)
		}
	}
	// Octets hostapd ignores: one after the AKMs, and after the last field.
	for _, s := range []string{"30130100000fac040100000fac040100000fac02ff",
		"301c0100000fac040100000fac040100000fac0200000000000fac06eeee", "30150100000fac040100000fac040100000fac020000ff"} {
		e, err := ParseElement(unhex(t, s))
		if err != nil || len(e.Extra) == 0 {
			t.Errorf("%s: %v, extra %x", s, err, e.Extra)
		}
	}
}

// rsne builds an element for the validation table.
func rsne(group Cipher, pairwise []Cipher, akms []AKM, caps uint16, rest ...func(*Element)) []byte {
	e := Element{Version: 1, Group: group, Pairwise: pairwise, AKMs: akms, Caps: caps, Last: FieldCaps}
	for _, f := range rest {
		f(&e)
	}
	return e.Append(nil)
}

func withMgmt(c Cipher) func(*Element) {
	return func(e *Element) { e.Last, e.GroupMgmt = FieldGroupMgmt, c }
}

var (
	ccmp    = []Cipher{CipherCCMP}
	psk     = []AKM{AKMPSK}
	bothPSK = []AKM{AKMPSK, AKMPSKSHA256}
)

func TestValidate(t *testing.T) {
	def := DefaultPolicy()
	both := DefaultPolicy()
	both.AKMs = bothPSK
	mfpReq := both
	mfpReq.MFP = MFPRequired
	mfpOpt := both
	mfpOpt.MFP = MFPOptional
	ext1, ext2 := def, def
	ext1.ExtendedKeyID, ext2.ExtendedKeyID = 1, 2
	for _, c := range []struct {
		name   string
		p      Policy
		ie     []byte
		status uint16
		akm    AKM
		mfp    bool
	}{
		{"wpa_supplicant", def, unhex(t, supplicantRSNE), 0, AKMPSK, false},
		{"iwd, no capabilities", def, unhex(t, iwdRSNE), 0, AKMPSK, false},
		{"no element", def, nil, 40, 0, false},
		{"not an RSNE", def, unhex(t, "dd0401000000"), 40, 0, false},
		{"version 2", def, unhex(t, "30140200000fac040100000fac040100000fac020000"), 40, 0, false},
		{"zero pairwise", def, unhex(t, "30100100000fac0400000100000fac020000"), 40, 0, false},
		{"TKIP group", def, rsne(CipherTKIP, ccmp, psk, 0), 41, 0, false},
		{"WEP-40 group (invalid selector)", def, rsne(CipherWEP40, ccmp, psk, 0), 40, 0, false},
		{"CMAC as group", def, rsne(CipherBIPCMAC128, ccmp, psk, 0), 40, 0, false},
		{"TKIP pairwise", def, rsne(CipherCCMP, []Cipher{CipherTKIP}, psk, 0), 42, 0, false},
		{"GCMP pairwise", def, rsne(CipherCCMP, []Cipher{CipherGCMP128}, psk, 0), 42, 0, false},
		{"CMAC in the pairwise list", def, rsne(CipherCCMP, []Cipher{CipherCCMP, CipherBIPCMAC128}, psk, 0), 40, 0, false},
		{"unknown pairwise beside CCMP", def, rsne(CipherCCMP, []Cipher{0x00112201, CipherCCMP}, psk, 0), 0, AKMPSK, false},
		{"802.1X", def, rsne(CipherCCMP, ccmp, []AKM{AKM8021X}, 0), 43, 0, false},
		{"SAE", def, rsne(CipherCCMP, ccmp, []AKM{AKMSAE}, 0), 43, 0, false},
		{"no AKM list (802.1X by default)", def, unhex(t, "300c0100000fac040100000fac04"), 43, 0, false},
		{"only a version", def, unhex(t, "30020100"), 43, 0, false},
		{"TKIP group and 802.1X: group first", def, rsne(CipherTKIP, ccmp, []AKM{AKM8021X}, 0), 41, 0, false},
		{"802.1X and TKIP pairwise: AKM first", def, rsne(CipherCCMP, []Cipher{CipherTKIP}, []AKM{AKM8021X}, 0), 43, 0, false},
		{"both PSKs: SHA-256 preferred", both, rsne(CipherCCMP, ccmp, bothPSK, 0), 0, AKMPSKSHA256, false},
		{"both PSKs offered, WPA-PSK allowed", def, rsne(CipherCCMP, ccmp, bothPSK, 0), 0, AKMPSK, false},
		{"ieee80211w=2 without MFPC", mfpReq, rsne(CipherCCMP, ccmp, bothPSK, 0), 31, 0, false},
		{"ieee80211w=2 with BIP-GMAC-128", mfpReq, rsne(CipherCCMP, ccmp, bothPSK, CapMFPC, withMgmt(CipherBIPGMAC128)), 46, 0, false},
		{"ieee80211w=2 with CCMP as group mgmt", mfpReq, rsne(CipherCCMP, ccmp, bothPSK, CapMFPC, withMgmt(CipherCCMP)), 40, 0, false},
		{"ieee80211w=2 with MFPC", mfpReq, rsne(CipherCCMP, ccmp, bothPSK, CapMFPC), 0, AKMPSKSHA256, true},
		{"ieee80211w=2, explicit BIP-CMAC-128", mfpReq, unhex(t, "301a0100000fac040100000fac040100000fac0680000000000fac06"), 0, AKMPSKSHA256, true},
		{"ieee80211w=1 with MFPC", mfpOpt, rsne(CipherCCMP, ccmp, psk, CapMFPC), 0, AKMPSK, true},
		{"ieee80211w=1 without MFPC", mfpOpt, rsne(CipherCCMP, ccmp, psk, 0), 0, AKMPSK, false},
		{"ieee80211w=0, station MFPR", def, rsne(CipherCCMP, ccmp, psk, CapMFPC|CapMFPR), 0, AKMPSK, false},
		{"PMKID count beyond the element", def, unhex(t, "30180100000fac040100000fac040100000fac0200000100aabb"), 40, 0, false},
		{"an octet after the capabilities", def, unhex(t, "30150100000fac040100000fac040100000fac020000ff"), 0, AKMPSK, false},
		{"octets after the capabilities: a PMKID count", def, unhex(t, "30160100000fac040100000fac040100000fac020000ffff"), 40, 0, false},
	} {
		n, status := c.p.Validate(c.ie)
		if status != c.status || status == 0 && (n.AKM != c.akm || n.MFP != c.mfp || n.Pairwise != CipherCCMP ||
			n.Group != CipherCCMP || !bytes.Equal(n.RSNE, c.ie)) {
			t.Errorf("%s: status %d %+v, want %d %v mfp %v", c.name, status, n, c.status, c.akm, c.mfp)
		}
	}
	pmkids := rsne(CipherCCMP, ccmp, psk, 0, func(e *Element) { e.Last, e.PMKIDs = FieldPMKID, []PMKID{{1}, {2}} })
	if n, s := def.Validate(pmkids); s != 0 || len(n.PMKIDs) != 2 || n.PMKIDs[1][0] != 2 {
		t.Errorf("PMKID list: %d %+v", s, n)
	}
	ext := rsne(CipherCCMP, ccmp, psk, CapExtKeyID)
	if n, _ := ext1.Validate(ext); !n.ExtKeyID || n.KeyID != 0 {
		t.Errorf("extended_key_id=1: %+v", n)
	}
	if n, _ := ext2.Validate(ext); !n.ExtKeyID || n.KeyID != 1 {
		t.Errorf("extended_key_id=2: %+v", n)
	}
	if n, _ := ext2.Validate(unhex(t, supplicantRSNE)); n.ExtKeyID {
		t.Errorf("Extended Key ID without the station's bit: %+v", n)
	}
	if n, _ := def.Validate(ext); n.ExtKeyID {
		t.Errorf("Extended Key ID with extended_key_id=0: %+v", n)
	}
}

func TestPolicyElement(t *testing.T) {
	if got := DefaultPolicy().Element(); !bytes.Equal(got, unhex(t, hostapdBeaconRSNE)) {
		t.Errorf("default policy element %x, hostapd writes %s", got, hostapdBeaconRSNE)
	}
	p := Policy{Group: CipherCCMP, Pairwise: ccmp, AKMs: []AKM{AKMPSKSHA256, AKMPSK}, MFP: MFPRequired,
		GroupMgmt: CipherBIPCMAC128, ExtendedKeyID: 1, WMM: true}
	want := "30180100000fac040100000fac040200000fac02000fac06cc20"
	if got := p.Element(); !bytes.Equal(got, unhex(t, want)) {
		t.Errorf("MFP policy element %x, want %s", got, want)
	}
	p.WMM, p.MFP, p.ExtendedKeyID = false, MFPOptional, 0
	if e, _ := ParseElement(p.Element()); e.Caps != CapMFPC {
		t.Errorf("ieee80211w=1 capabilities %#x", e.Caps)
	}
	// An AP's own element passes its own validation.
	for _, q := range []Policy{DefaultPolicy(), p} {
		if _, s := q.Validate(q.Element()); s != ieee80211.StatusSuccess {
			t.Errorf("own element refused with %d", s)
		}
	}
}

func TestPolicyCheck(t *testing.T) {
	if err := DefaultPolicy().Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		mod  func(*Policy)
		want string
	}{
		{func(p *Policy) { p.Group = CipherTKIP }, "TKIP"},
		{func(p *Policy) { p.Pairwise = []Cipher{CipherCCMP, CipherTKIP} }, "TKIP"},
		{func(p *Policy) { p.Pairwise = nil }, "rsn_pairwise"},
		{func(p *Policy) { p.AKMs = []AKM{AKMOWE} }, "OWE"},
		{func(p *Policy) { p.AKMs = nil }, "wpa_key_mgmt"},
		{func(p *Policy) { p.MFP, p.GroupMgmt = MFPOptional, CipherBIPGMAC128 }, "BIP-GMAC-128"},
		{func(p *Policy) { p.MFP = 3 }, "ieee80211w"},
		{func(p *Policy) { p.ExtendedKeyID = 3 }, "extended_key_id"},
	} {
		p := DefaultPolicy()
		c.mod(&p)
		if err := p.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want an error naming %s, got %v", c.want, err)
		}
	}
}

func TestSuiteNames(t *testing.T) {
	for _, c := range []struct {
		s    interface{ String() string }
		want string
	}{{CipherCCMP, "CCMP"}, {CipherBIPCMAC128, "AES-128-CMAC"}, {AKMPSK, "WPA-PSK"}, {AKMPSKSHA256, "WPA-PSK-SHA256"},
		{Cipher(0x00112233), "00-11-22:51"}, {AKM(0x000fac63), "00-0f-ac:99"}} {
		if got := c.s.String(); got != c.want {
			t.Errorf("%#x: %q, want %q", c.s, got, c.want)
		}
	}
	if a, ok := ParseAKM("WPA-PSK-SHA256"); !ok || a != AKMPSKSHA256 {
		t.Error("ParseAKM")
	}
	if c, ok := ParseCipher("CCMP"); !ok || c != CipherCCMP {
		t.Error("ParseCipher")
	}
	if _, ok := ParseCipher("ROT13"); ok {
		t.Error("ParseCipher of an unknown name")
	}
}
