package ap

import (
	"testing"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/sae"
)

// saeCommitFrom is a valid first Commit of a station at addr to the BSS.
func saeCommitFrom(h *harness, addr ieee80211.MAC) sae.Frame {
	h.t.Helper()
	g, _ := sae.GroupByID(19)
	st, err := sae.NewStation(g, sae.MAC(addr), sae.MAC(h.a.bsses[0].BSSID), []byte(h.a.cfg.SSID), []byte(saePassword), nil, false)
	if err != nil {
		h.t.Fatal(err)
	}
	f, err := st.Commit(newSeeded(addr[5]))
	if err != nil {
		h.t.Fatal(err)
	}
	return f
}

// A BSS at max_num_sta answers a new station's first Commit with status
// 17 in transaction 1, as hostapd's handle_auth, and starts no SAE work
// for it; its associated station may still run SAE again.
func TestSAEFullBSSRefusesNewPeer(t *testing.T) {
	cfg := saeConfig(t, sae.HuntAndPeck)
	cfg.MaxStations = 1
	h := newHarness(t, cfg)
	w := newWPASTA(h, staMAC, rsn.AKMSAE)
	w.mfp = true
	keys, status := w.saeAuth(saePassword, 19, false)
	if keys == nil {
		t.Fatalf("first station: SAE status %d", status)
	}
	if st := w.saeAssociate(&keys.PMK, nil); st != 0 || !w.done {
		t.Fatalf("first station: association status %d", st)
	}
	h.take()
	other := ieee80211.MAC{0x02, 0, 0, 0, 0x05, 0x09}
	h.sendSAE(other, saeCommitFrom(h, other))
	h.collect()
	got := h.saeFrames(other)
	if len(got) != 1 || got[0].Transaction != 1 || got[0].Status != ieee80211.StatusAPUnableToHandleNewSta || len(got[0].Body) != 0 {
		t.Fatalf("replies to a new peer of a full BSS: %+v, want one of status 17 in transaction 1", got)
	}
	if len(h.saeJobs) != 0 || h.a.saeQueued != 0 {
		t.Fatalf("%d SAE jobs run, %d queued for a peer refused", len(h.saeJobs), h.a.saeQueued)
	}
	if s := h.a.saeOf(h.a.bsses[0]).auth.State(sae.MAC(other)); s != sae.Nothing {
		t.Fatalf("the refused peer has an instance in state %v", s)
	}
	// The associated station's own Commit is not a new station's.
	h.take()
	h.sendSAE(staMAC, saeCommitFrom(h, staMAC))
	h.collect()
	if len(h.saeJobs) != 1 {
		t.Fatalf("%d SAE jobs for the associated station's Commit, want 1", len(h.saeJobs))
	}
}

// max_num_sta bounds the BSS's SAE instances: with room for two
// stations, a third peer's Commit while two exchanges run starts no work.
func TestSAEInstancesBoundedByMaxStations(t *testing.T) {
	cfg := saeConfig(t, sae.HuntAndPeck)
	cfg.MaxStations = 2
	cfg.RSN.SAE.AntiCloggingThreshold = 100
	h := newHarness(t, cfg)
	for i := range byte(3) {
		p := ieee80211.MAC{0x02, 0, 0, 0, 0x05, i + 1}
		h.sendSAE(p, saeCommitFrom(h, p))
	}
	h.collect()
	if len(h.saeJobs) != 2 {
		t.Fatalf("%d SAE jobs for three new peers of a BSS of two stations, want 2", len(h.saeJobs))
	}
}
