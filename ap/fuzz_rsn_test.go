package ap

import (
	"testing"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// keyedStation is a WPA2 BSS with 802.11w offered (WPA-PSK-SHA256) and one
// station that negotiated MFP and completed its 4-way handshake. Its
// randomness is seeded, so every call builds the same keys: a frame sealed
// under one call's PTK opens under the next one's.
func keyedStation(tb testing.TB) (*harness, *wpaSTA) { return mfpStation(tb, rsn.MFPOptional) }

// FuzzKeyedStationFrame hands the core one 802.11 frame from the air while a
// station holds its keys. Seeds reach the RSN and 802.11w paths: frames
// sealed under the station's PTK (data, Power Management, robust Action,
// deauthentication), the same unprotected, EAPOL, Null frames. Whatever
// the frame, the core stays accounted, and unless it legitimately ended
// the association, the station's next protected frame still reaches the
// wired side: no frame that fails its checks moves the station's replay
// counters or keys.
func FuzzKeyedStationFrame(f *testing.F) {
	h, w := keyedStation(f)
	ip := ipv4(0)
	saQuery := []byte{8, 0, 0x12, 0x34} // SA Query Request
	for _, b := range [][]byte{
		w.frame(0x0800, ip, true, false),
		w.frame(0x0800, ip, true, true),
		w.frame(0x0800, ip, false, false),
		w.frame(etherTypeEAPOL, []byte{2, 3, 0, 95, 2, 0x01, 0x0a}, false, false),
		w.frame(etherTypeEAPOL, []byte{2, 3, 0, 95, 2, 0x01, 0x0a}, true, false),
		w.mgmtFrame(ieee80211.SubtypeAction, saQuery, true),
		w.mgmtFrame(ieee80211.SubtypeAction, saQuery, false),
		w.mgmtFrame(ieee80211.SubtypeDeauth, []byte{7, 0}, true),
		w.mgmtFrame(ieee80211.SubtypeDeauth, []byte{7, 0}, false),
		w.mgmtFrame(ieee80211.SubtypeDisassoc, []byte{8, 0}, false),
		ieee80211.AppendNullData(nil, bssid, staMAC, h.nextSeq(), true),
		h.upIPv4(staMAC, host, 0, true),
	} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		h, w := keyedStation(t)
		h.air(b)
		h.take()
		if !h.a.Accounted() {
			t.Fatal("accounting broken")
		}
		_, s := h.a.sta.lookup(staMAC)
		if s == nil || s.State != bss.StateAssociated || !s.Authorized {
			return // a protected deauthentication, or the like, ended it
		}
		w.pn += 1 << 20 // beyond any PN the seeds used
		wired := len(h.wired)
		h.air(w.frame(0x0800, ip, true, false))
		if len(h.wired) != wired+1 {
			t.Fatalf("the station's next protected frame did not get through (PN %d)", w.pn)
		}
	})
}

// TestKeyedStationRepeats: a frame sealed under one keyedStation's PTK
// reaches the wired side of another, so FuzzKeyedStationFrame's sealed seeds
// get past the MIC.
func TestKeyedStationRepeats(t *testing.T) {
	_, w := keyedStation(t)
	b := w.frame(0x0800, ipv4(0), true, false)
	h, _ := keyedStation(t)
	h.air(b)
	if len(h.wired) != 1 {
		t.Fatalf("%d frames on the wired side; counters %v", len(h.wired), h.a.cnt.String())
	}
}
