package ap

import (
	"testing"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
)

// TestFourAddrToAnotherBSSIsAStrangers: an associated station's
// 4-address data frame to the guest BSS's BSSID is a stranger's class 3
// frame there, as its other data frames are: dropped, answered from the
// guest BSS with a deauthentication (reason 7), and its association with
// its own BSS goes on. The same frame to its own BSS is ignored silently.
func TestFourAddrToAnotherBSSIsAStrangers(t *testing.T) {
	h := newHarness(t, threeBSSes())
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	h.join(sta, false)
	h.take()
	f := h.fourAddr(sta)
	copy(f[4:10], guest2ID[:])
	h.air(f)
	out, wired := h.take()
	if len(wired) != 0 {
		t.Errorf("%d frames to the wired side from a 4-address frame", len(wired))
	}
	if sub, reason, ok := reasonFrom(t, out, guest2ID, sta); !ok || sub != ieee80211.SubtypeDeauth || reason != ieee80211.ReasonClass3FromNonAssoc {
		t.Errorf("from the guest BSS: subtype %d reason %d (sent %v), want a deauthentication with reason 7", sub, reason, ok)
	}
	if c := h.a.Counters(); c[counter.Rx4Addr] != 1 || c[counter.Rx4AddrDropped] != 0 || c[counter.RxFromUnknown] != 1 {
		t.Errorf("4-address frames %d (%d dropped as such), %d from unknown; want 1, 0, 1",
			c[counter.Rx4Addr], c[counter.Rx4AddrDropped], c[counter.RxFromUnknown])
	}
	if _, s := h.a.sta.lookup(sta); s == nil || s.bss != h.a.bss || s.State != bss.StateAssociated {
		t.Fatalf("the station after a frame to the guest BSS: %+v, want associated with the first", s)
	}
	// To its own BSS the frame is an associated station's: ignored.
	h.air(h.fourAddr(sta))
	out, _ = h.take()
	if sub, reason, ok := reasonFrom(t, out, bssid, sta); ok {
		t.Errorf("its own BSS answered a 4-address frame: subtype %d reason %d", sub, reason)
	}
	if c := h.a.Counters(); c[counter.Rx4AddrDropped] != 1 {
		t.Errorf("%d 4-address frames dropped as such, want 1", c[counter.Rx4AddrDropped])
	}
}
