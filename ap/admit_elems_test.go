package ap

import (
	"testing"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// TestAssocRepeatedElementRefused refuses with status 40 a request whose
// valid RSNE is followed by one asking for TKIP, with PMF off and required:
// two parsers that pick different copies are how downgrades happen. A
// repeated Vendor Specific element is fine.
func TestAssocRepeatedElementRefused(t *testing.T) {
	ccmp := []rsn.Cipher{rsn.CipherCCMP}
	good := func(akm rsn.AKM, caps uint16) []byte {
		return rsn.Element{Version: 1, Group: rsn.CipherCCMP, Pairwise: ccmp, AKMs: []rsn.AKM{akm}, Caps: caps, Last: rsn.FieldCaps}.Append(nil)
	}
	tkip := rsn.Element{Version: 1, Group: rsn.CipherCCMP, Pairwise: []rsn.Cipher{rsn.CipherTKIP}, AKMs: []rsn.AKM{rsn.AKMPSK}, Last: rsn.FieldAKM}.Append(nil)
	const mfpCapable, mfpRequired = rsn.CapMFPC, rsn.CapMFPR
	for _, c := range []struct {
		name string
		cfg  Config
		ies  func(h *harness) []byte
		want uint16
	}{
		{"PMF off: RSNE then TKIP RSNE", wpaConfig(t, rsn.AKMPSK), func(h *harness) []byte {
			return append(append(h.assocBase(), good(rsn.AKMPSK, 0)...), tkip...)
		}, ieee80211.StatusInvalidIE},
		{"PMF required: RSNE then TKIP RSNE", pmfConfig(t, rsn.MFPRequired), func(h *harness) []byte {
			return append(append(h.assocBase(), good(rsn.AKMPSKSHA256, mfpCapable|mfpRequired)...), tkip...)
		}, ieee80211.StatusInvalidIE},
		{"two SSIDs", wpaConfig(t, rsn.AKMPSK), func(h *harness) []byte {
			return append(ieee80211.AppendSSID(h.assocBase(), "other"), good(rsn.AKMPSK, 0)...)
		}, ieee80211.StatusInvalidIE},
		{"two RSNXEs", wpaConfig(t, rsn.AKMPSK), func(h *harness) []byte {
			return append(append(h.assocBase(), good(rsn.AKMPSK, 0)...), elemRSNX, 1, 0x20, elemRSNX, 1, 0)
		}, ieee80211.StatusInvalidIE},
		{"two HE capabilities", wpaConfig(t, rsn.AKMPSK), func(h *harness) []byte {
			he := append([]byte{ieee80211.ElemExtension, 1 + ieee80211.ElemExtHECapMinLen, ieee80211.ElemExtHECap}, make([]byte, ieee80211.ElemExtHECapMinLen)...)
			return append(append(append(h.assocBase(), good(rsn.AKMPSK, 0)...), he...), he...)
		}, ieee80211.StatusInvalidIE},
		{"two vendor elements", wpaConfig(t, rsn.AKMPSK), func(h *harness) []byte {
			v := []byte{ieee80211.ElemVendor, 4, 0x00, 0x10, 0x18, 2}
			return append(append(append(h.assocBase(), good(rsn.AKMPSK, 0)...), v...), v...)
		}, ieee80211.StatusSuccess},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, c.cfg)
			h.take()
			h.auth(staMAC, 0, 1)
			h.air(append(ieee80211.AppendAssocReq(h.mgmt(ieee80211.SubtypeAssocReq, staMAC), 0x0431, 10), c.ies(h)...))
			out, _ := h.take()
			ar, _ := h.assocResp(out, staMAC)
			if ar.Status() != c.want {
				t.Fatalf("status %d, want %d", ar.Status(), c.want)
			}
			if n := h.a.Counters()[counter.AssocRepeatedElem]; (n == 1) != (c.want == ieee80211.StatusInvalidIE) {
				t.Errorf("counted %d refusals", n)
			}
		})
	}
}

// assocBase is the SSID and rates every request starts with.
func (h *harness) assocBase() []byte {
	return ieee80211.AppendRates(ieee80211.AppendSSID(nil, h.a.cfg.SSID), gRates)
}

func TestRepeatsOnceElementAllocs(t *testing.T) {
	ies := ieee80211.Elements(append(ieee80211.AppendRates(ieee80211.AppendSSID(nil, "x"), gRates), ieee80211.ElemVendor, 0, ieee80211.ElemVendor, 0))
	if n := testing.AllocsPerRun(100, func() { bss.RepeatsOnceElement(ies) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
