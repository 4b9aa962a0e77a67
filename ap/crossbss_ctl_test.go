package ap

import (
	"testing"

	"github.com/airq/airq/ctl"
	"github.com/airq/airq/rsn"
)

// TestSectionRequestsStayInTheirBSS: GET_PMK and SA_QUERY asked on one
// BSS's control socket (req.Dev) reach that BSS's stations alone, as
// hostapd's find the station in the socket's own BSS: the guest socket
// gets neither the main station's PMK nor an SA Query sent to it.
func TestSectionRequestsStayInTheirBSS(t *testing.T) {
	c := twoWPA2(t)
	c.Name, c.BSSes[0].Name = "wlan0", "guest"
	h := newHarness(t, c)
	connectBoth(h)
	for _, op := range []ctl.Op{ctl.OpStationPMK, ctl.OpSAQuery} {
		r := h.a.Control(h.now, ctl.Request{Op: op, Dev: "guest", Addr: mainSTA})
		if r.Errno != ctl.ENOENT || r.PMK != nil {
			t.Errorf("%v of the main station on the guest socket: errno %v, PMK %d bytes; want ENOENT and none", op, r.Errno, len(r.PMK))
		}
	}
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationPMK, Dev: "guest", Addr: guestSTA}); r.Err() != nil || len(r.PMK) != 32 {
		t.Errorf("the guest station's PMK on its own socket: %d bytes, %v", len(r.PMK), r.Err())
	}
}

// TestSectionPMKSAStaysInItsBSS: GET_PMK on the guest's socket for a
// departed station of the main BSS finds nothing, though the main BSS's
// PMKSA cache holds its PMK: hostapd's falls back to its own BSS's cache
// alone.
func TestSectionPMKSAStaysInItsBSS(t *testing.T) {
	c := twoSAE(t, true)
	c.Name, c.BSSes[0].Name = "wlan0", "guest"
	h := newHarness(t, c)
	w := joinBSS(h, mainSTA, 0, rsn.AKMSAE)
	if keys, status := w.saeAuth(saePassword, 19, true); keys == nil {
		t.Fatalf("SAE refused: status %d", status)
	}
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationDel, Addr: mainSTA}); r.Err() != nil {
		t.Fatal(r.Err())
	}
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationPMK, Dev: "wlan0", Addr: mainSTA}); r.Err() != nil || len(r.PMK) != 32 {
		t.Fatalf("the main BSS's PMKSA on its own socket: %d bytes, %v", len(r.PMK), r.Err())
	}
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationPMK, Dev: "guest", Addr: mainSTA}); r.Errno != ctl.ENOENT || r.PMK != nil {
		t.Errorf("the main BSS's PMKSA on the guest socket: errno %v, %d bytes; want ENOENT and none", r.Errno, len(r.PMK))
	}
}
