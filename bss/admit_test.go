package bss_test

import (
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/answered"
	"github.com/airq/airq/internal/ieee80211"
)

// TestAdmissionBooks: a station's way through authentication, a pending
// association, association, power save, a reassociation and its leaving
// moves the BSS's counts, ERP counts and eviction lists with it.
func TestAdmissionBooks(t *testing.T) {
	addr := ieee80211.MAC{2, 0, 0, 0, 0, 1}
	b := &bss.BSS{Shared: &bss.Shared{}, Stations: bss.NewTable(4), Senders: bss.NewSenders(ieee80211.MAC{2, 0, 0, 0, 0, 9}),
		Answered: answered.New(16, time.Second, 1)}
	aid, _ := b.Stations.Add(addr)
	s := &bss.Station{Addr: addr, NonERP: true}
	b.Stations.Bind(aid, s)
	count := func(step string, pending, associated, dozing int, list bss.List) {
		t.Helper()
		if b.Pending != pending || b.Associated != associated || b.Dozing != dozing {
			t.Errorf("%s: %d pending, %d associated, %d dozing; want %d, %d, %d", step, b.Pending, b.Associated, b.Dozing, pending, associated, dozing)
		}
		if list != bss.ListNone && b.Stations.Oldest(list) != aid {
			t.Errorf("%s: not on list %d", step, list)
		}
	}
	b.Authenticate(time.Second, aid, s, true)
	if s.State != bss.StateAuthenticated || s.AuthAt != time.Second || !s.Known {
		t.Fatalf("authenticated: %+v", s)
	}
	count("authenticated", 0, 0, 0, bss.ListAuth)
	if b.FollowPM(s, true) {
		t.Error("an authenticated station's power save followed")
	}
	b.Reserve(2*time.Second, aid, s, false)
	count("pending", 1, 0, 0, bss.ListPending)
	b.Confirm(3*time.Second, aid, s)
	count("associated", 0, 1, 0, bss.ListQuiet)
	if b.Shared.ERP.Flags()&bss.ERPNonERPPresent == 0 || s.AssocAt != 3*time.Second {
		t.Errorf("associated: ERP flags %#x, associated at %v", b.Shared.ERP.Flags(), s.AssocAt)
	}
	if !b.FollowPM(s, true) || b.FollowPM(s, true) {
		t.Error("a dozing associated station's Power Management bit not followed once")
	}
	count("dozing", 0, 1, 1, bss.ListNone)
	b.Unassociate(s)
	b.Reserve(4*time.Second, aid, s, true)
	count("reassociating", 1, 0, 0, bss.ListPending)
	if !s.Reassoc || b.Shared.ERP.Flags()&bss.ERPNonERPPresent != 0 {
		t.Errorf("reassociating: reassoc %v, ERP flags %#x", s.Reassoc, b.Shared.ERP.Flags())
	}
	b.Answered.Add(5*time.Second, addr)
	b.Release(5*time.Second, aid, s)
	count("released", 0, 0, 0, bss.ListAuth)
	s.HadData = true
	b.Leave(6*time.Second, s)
	if !b.Senders.Known(6*time.Second, time.Minute, addr) || b.Answered.Has(6*time.Second, addr) {
		t.Error("a station that sent data is not known after it left, or its answer still counts")
	}
}
