package ap

import (
	"slices"
	"testing"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
)

// authStatus authenticates from and returns the status of the answer.
func (h *harness) authStatus(from ieee80211.MAC) uint16 {
	h.t.Helper()
	h.auth(from, 0, 1)
	out, _ := h.take()
	au, err := ieee80211.ParseAuth(findMgmt(h.t, out, ieee80211.SubtypeAuth, from).Body())
	if err != nil {
		h.t.Fatal(err)
	}
	return au.Status()
}

func TestACLDenyListRefusesAuthentication(t *testing.T) {
	other := ieee80211.MAC{0x02, 0, 0, 0, 0x03, 0}
	h := newHarness(t, Config{
		ACL: bss.NewACL(bss.ACLAcceptUnlessDenied, nil, []ieee80211.MAC{staMAC}),
	})
	h.take()
	if st := h.authStatus(staMAC); st != ieee80211.StatusUnspecified {
		t.Errorf("denied station: auth status %d, want %d (unspecified failure, as hostapd)", st, ieee80211.StatusUnspecified)
	}
	if _, s := h.a.sta.lookup(staMAC); s != nil {
		t.Error("denied station is in the table")
	}
	// Its association finds no authentication: class 2 deauthentication.
	h.assoc(staMAC, "airq-test", gRates, false)
	out, _ := h.take()
	findMgmt(t, out, ieee80211.SubtypeDeauth, staMAC)
	var refused []string
	for _, e := range h.takeEvents() {
		if e.Kind == EventRefused {
			refused = append(refused, e.Addr.String()+" "+e.Why)
		}
	}
	if h.a.ACLDenied() != 1 || !slices.Equal(refused, []string{staMAC.String() + " authentication"}) {
		t.Errorf("denied %d, reported %q", h.a.ACLDenied(), refused)
	}
	h.join(other, false) // others are admitted
}

func TestACLAcceptModeAdmitsOnlyListed(t *testing.T) {
	listed := ieee80211.MAC{0x02, 0, 0, 0, 0x03, 0}
	h := newHarness(t, Config{ACL: bss.NewACL(bss.ACLDenyUnlessAccepted, []ieee80211.MAC{listed}, nil)})
	h.take()
	if st := h.authStatus(staMAC); st != ieee80211.StatusUnspecified {
		t.Errorf("unlisted station: status %d", st)
	}
	h.join(listed, false)
	// The accept list wins over the deny list, as in hostapd_check_acl.
	both := bss.NewACL(bss.ACLDenyUnlessAccepted, []ieee80211.MAC{staMAC}, []ieee80211.MAC{staMAC})
	if !both.Allows(staMAC) {
		t.Error("a station in both lists is refused")
	}
	if (&bss.ACL{}).Allows(staMAC) != true {
		t.Error("the zero ACL refuses")
	}
}

func TestACLBadMode(t *testing.T) {
	_, err := New(Config{SSID: "x", BSSID: bssid, Channel: 1, ACL: bss.ACL{Mode: 2}})
	if err == nil {
		t.Fatal("macaddr_acl 2 accepted")
	}
}

func TestACLReloadLive(t *testing.T) {
	other := ieee80211.MAC{0x02, 0, 0, 0, 0x03, 0}
	authOnly := ieee80211.MAC{0x02, 0, 0, 0, 0x04, 0}
	h := newHarness(t, Config{})
	h.take()
	h.join(staMAC, false)
	h.join(other, false)
	h.auth(authOnly, 0, 1)
	h.take()

	gone, err := h.a.SetACL(bss.NewACL(bss.ACLAcceptUnlessDenied, nil, []ieee80211.MAC{staMAC, authOnly}))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(gone, []ieee80211.MAC{staMAC, authOnly}) {
		t.Fatalf("stations the new lists refuse: %v", gone)
	}
	// Until the caller removes it, the associated station stays.
	if _, s := h.a.sta.lookup(staMAC); s == nil || s.State != bss.StateAssociated {
		t.Fatal("SetACL removed a station itself")
	}
	// An authenticated station's association is refused and it is removed.
	h.assoc(authOnly, "airq-test", gRates, false)
	out, _ := h.take()
	ar, _ := ieee80211.ParseAssocResp(findMgmt(t, out, ieee80211.SubtypeAssocResp, authOnly).Body())
	if ar.Status() != ieee80211.StatusUnspecified {
		t.Errorf("association after the reload: status %d", ar.Status())
	}
	if _, s := h.a.sta.lookup(authOnly); s != nil {
		t.Error("refused station stays in the table")
	}
	// The daemon removes the associated one: deauthenticated.
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationDel, Addr: staMAC}); r.Err() != nil {
		t.Fatal(r.Err())
	}
	h.collect()
	out, _ = h.take()
	findMgmt(t, out, ieee80211.SubtypeDeauth, staMAC)
	// Its next authentication is refused; the other station is untouched.
	if st := h.authStatus(staMAC); st != ieee80211.StatusUnspecified {
		t.Errorf("re-authentication after the reload: status %d", st)
	}
	if _, s := h.a.sta.lookup(other); s == nil || s.State != bss.StateAssociated {
		t.Error("an admitted station was disturbed")
	}
	if n := h.askOK("status").Status.Counters[counter.ACLDenied]; n != 2 {
		t.Errorf("status acl_denied=%d, want 2", n)
	}
	if h.a.ACLDenied() != 2 {
		t.Errorf("denied %d, want 2", h.a.ACLDenied())
	}
	// An associated station the lists now refuse that authenticates again
	// loses its association.
	if _, err := h.a.SetACL(bss.NewACL(bss.ACLDenyUnlessAccepted, nil, nil)); err != nil {
		t.Fatal(err)
	}
	if st := h.authStatus(other); st != ieee80211.StatusUnspecified {
		t.Errorf("status %d", st)
	}
	if _, s := h.a.sta.lookup(other); s != nil || h.a.bss.Associated != 0 {
		t.Error("refused re-authentication kept the association")
	}
	// Swapping back admits again, and the counter carries over.
	if _, err := h.a.SetACL(bss.ACL{}); err != nil {
		t.Fatal(err)
	}
	h.join(staMAC, false)
	if h.a.ACLDenied() != 3 {
		t.Errorf("denied %d, want 3", h.a.ACLDenied())
	}
	if _, err := h.a.SetACL(bss.ACL{Mode: 7}); err == nil {
		t.Error("bad mode accepted")
	}
}

func TestDefaultAirtimeWeightReload(t *testing.T) {
	other := ieee80211.MAC{0x02, 0, 0, 0, 0x03, 0}
	h := newHarness(t, Config{AirtimeWeight: 100})
	h.take()
	old := h.join(staMAC, false)
	h.a.SetDefaultAirtimeWeight(500)
	nw := h.join(other, false)
	if w := h.a.sched.Weight(old); w != 100 {
		t.Errorf("existing station's weight %d, want 100", w)
	}
	if w := h.a.sched.Weight(nw); w != 500 {
		t.Errorf("new station's weight %d, want 500", w)
	}
}

// TestACLSetDuringACSHolds: access lists set while the start-up channel
// scan runs are the ones in force once the channel is chosen, and the
// configuration reports them: the choice rebuilds what depends on the
// channel, not the BSS's lists.
func TestACLSetDuringACSHolds(t *testing.T) {
	h := startACS(t)
	a := h.a
	deny := bss.NewACL(bss.ACLAcceptUnlessDenied, nil, []ieee80211.MAC{staMAC})
	if _, err := a.SetACL(deny); err != nil {
		t.Fatal(err)
	}
	h.untilChannelChosen()
	if l := a.ACL(); l.Allows(staMAC) {
		t.Error("the lists set during the scan were lost when the channel was chosen")
	}
	if l := a.Config().ACL; l.Allows(staMAC) {
		t.Error("the configuration reports the lists from before the scan")
	}
}
