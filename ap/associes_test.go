package ap

import (
	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// TestMalformedAssociationRequests answers each malformed request as
// hostapd does: an element chain that overruns the frame (its
// ieee802_11_parse_elems fails) and a malformed WMM element get status 1;
// an HT or VHT Capabilities element shorter than its fixed fields is
// ignored, and the station is then not HT (VHT).
func TestMalformedAssociationRequests(t *testing.T) {
	base := func(wmm bool) []byte {
		b := ieee80211.AppendSSID(nil, "airq-test")
		b = ieee80211.AppendRates(b, ieee80211.Rates5GHz)
		if wmm {
			b = ieee80211.AppendWMMInfo(b, 0)
		}
		return b
	}
	ht := ieee80211.AppendHTCap(nil, ieee80211.HTPHY{Streams: 1, SGI20: true, MaxAMSDU: 7935}.Cap())
	vht := ieee80211.AppendVHTCap(nil, ieee80211.VHTPHY{Streams: 1, Width: 80, SGI80: true}.Cap())
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	over := func(elem []byte, keep int) []byte { return elem[:keep] } // the length octet claims more
	long255 := append([]byte{ieee80211.ElemVendor, 255}, make([]byte, 100)...)
	for _, c := range []struct {
		name    string
		ies     []byte
		noWMM   bool // the AP without WMM
		status  uint16
		ht, vht bool // with status 0: what the station is taken for
	}{
		{"well formed", cat(base(true), ht, vht), false, 0, true, true},
		{"HT capabilities overrun", cat(base(true), over(ht, 12)), false, 1, false, false},
		{"VHT capabilities overrun", cat(base(true), ht, over(vht, 6)), false, 1, false, false},
		{"HE capabilities overrun", cat(base(true), ht, []byte{ieee80211.ElemExtension, 30, ieee80211.ElemExtHECap, 1, 2, 3}), false, 1, false, false},
		{"RSN overrun", cat(base(true), []byte{ieee80211.ElemRSN, 20, 1, 0, 0, 0x0f, 0xac}), false, 1, false, false},
		{"extended capabilities overrun", cat(base(true), []byte{ieee80211.ElemExtCap, 8, 0, 0, 0}), false, 1, false, false},
		{"WMM overrun", cat(base(false), over(ieee80211.AppendWMMInfo(nil, 0), 6)), false, 1, false, false},
		{"255-byte last element", cat(base(true), long255), false, 1, false, false},
		{"one stray octet", cat(base(true), []byte{ieee80211.ElemSSID}), false, 1, false, false},
		{"WMM too short", cat(base(false), []byte{ieee80211.ElemVendor, 5, 0x00, 0x50, 0xf2, 2, 0}), false, 1, false, false},
		{"WMM parameter element", cat(base(false), ieee80211.AppendWMMParam(nil, ieee80211.DefaultEDCA(), 0)), false, 1, false, false},
		{"WMM version 2", cat(base(false), []byte{ieee80211.ElemVendor, 7, 0x00, 0x50, 0xf2, 2, 0, 2, 0}), false, 1, false, false},
		{"bad WMM, AP without WMM", cat(base(false), []byte{ieee80211.ElemVendor, 7, 0x00, 0x50, 0xf2, 2, 0, 2, 0}), true, 0, false, false},
		{"HT capabilities short", cat(base(true), []byte{ieee80211.ElemHTCap, 20}, make([]byte, 20)), false, 0, false, false},
		{"VHT capabilities short", cat(base(true), ht, []byte{ieee80211.ElemVHTCap, 8}, make([]byte, 8)), false, 0, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, Config{Channel: 36, WMM: !c.noWMM, PHY: bss.PHY{VHT: true, Width: 80}})
			h.take()
			h.auth(staMAC, 0, 1)
			h.air(append(ieee80211.AppendAssocReq(h.mgmt(ieee80211.SubtypeAssocReq, staMAC), 0x0421, 10), c.ies...))
			out, _ := h.take()
			ar, raw := h.assocResp(out, staMAC)
			if ar.Status() != c.status {
				t.Fatalf("status %d, want %d", ar.Status(), c.status)
			}
			if c.status != 0 {
				if h.a.Counters()[counter.AssocMalformed] != 1 || h.state(staMAC) != bss.StateAuthenticated {
					t.Errorf("malformed %d, state %v", h.a.Counters()[counter.AssocMalformed], h.state(staMAC))
				}
				return
			}
			h.echo(raw, radioAcked)
			_, s := h.a.sta.lookup(staMAC)
			if s == nil || s.State != bss.StateAssociated || s.HT != c.ht || s.VHT != c.vht {
				t.Fatalf("station %+v, want HT %v VHT %v", s, c.ht, c.vht)
			}
			_, htResp := ar.Elements().HTCap()
			_, vhtResp := ar.Elements().VHTCap()
			if htResp != c.ht || vhtResp != c.vht {
				t.Errorf("response announces HT %v VHT %v", htResp, vhtResp)
			}
		})
	}
}
