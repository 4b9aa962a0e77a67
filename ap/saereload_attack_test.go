package ap

import (
	"slices"
	"testing"

	"github.com/airq/airq/ctl"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/sae"
)

// TestSAEReloadEndsOldPasswordAuthentication: a station that completed
// SAE with the guest BSS's old password but has not associated yet is
// returned by the reload that removes that password (reason 2, as an
// associated one), and the association it then asks for with the old
// exchange's PMK gets no handshake: the old password admits nobody after
// the reload.
func TestSAEReloadEndsOldPasswordAuthentication(t *testing.T) {
	h := newHarness(t, twoSAE(t, false))
	w := joinBSS(h, guestSTA, 1, rsn.AKMSAE)
	w.mfp = true
	keys, status := w.saeAuth(saePassword, 19, true)
	if keys == nil {
		t.Fatalf("SAE refused: status %d", status)
	}
	next := *h.a.cfg.BSSes[0].RSN
	next.SAE = &SAEConfig{Passwords: []sae.Password{{Password: []byte("a new guest password"), AnyPeer: true}}, PWE: sae.BothMethods}
	p, err := DerivePSKs(h.a.cfg.BSSes[0].RSN.Reloaded(&next), "guest")
	if err != nil {
		t.Fatal(err)
	}
	gone, err := h.a.SetPSKsFor(1, p)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(gone, guestSTA) {
		t.Errorf("stations returned by the reload: %v; want the one authenticated by the old password", gone)
	}
	for _, m := range gone {
		h.a.Control(h.now, ctl.Request{Op: ctl.OpStationDel, Addr: m, Reason: ieee80211.ReasonPrevAuthNotValid})
	}
	if _, s := h.a.sta.lookup(guestSTA); s != nil {
		t.Fatalf("the station authenticated by the old password is still in the table (%v)", s.State)
	}
	// Its association with the old exchange's PMK is refused (reason 6).
	b := ieee80211.AppendAssocReq(w.mgmtHeader(ieee80211.SubtypeAssocReq), 0x0431, 10)
	b = ieee80211.AppendRates(ieee80211.AppendSSID(b, w.ssid()), gRates)
	w.akm = rsn.AKMSAE
	h.take()
	h.air(append(append(b, w.rsne()...), ieee80211.AppendWMMInfo(nil, 0)...))
	out, _ := h.take()
	findMgmt(t, out, ieee80211.SubtypeDeauth, guestSTA)
	if h.a.bsses[1].Associated != 0 {
		t.Fatal("the old password's exchange associated after the reload")
	}
}
