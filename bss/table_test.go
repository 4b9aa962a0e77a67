package bss

import (
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

func mac(i byte) ieee80211.MAC { return ieee80211.MAC{2, 0, 0, 0, 0, i} }

// TestTableReusesLowestAID: AIDs are handed out lowest first, a freed one
// is the next given, and a full table refuses.
func TestTableReusesLowestAID(t *testing.T) {
	tab := NewTable(3)
	for i := byte(1); i <= 3; i++ {
		if aid, ok := tab.Add(mac(i)); !ok || aid != uint16(i) {
			t.Fatalf("add %d: aid %d, %v", i, aid, ok)
		}
	}
	if _, ok := tab.Add(mac(4)); ok || tab.Free() != 0 || tab.Len() != 3 {
		t.Fatalf("full table: add %v, free %d, len %d", ok, tab.Free(), tab.Len())
	}
	tab.Remove(2, mac(2))
	tab.Remove(1, mac(1))
	if tab.Lookup(mac(1)) != 0 || tab.Lookup(mac(3)) != 3 {
		t.Fatalf("lookup after remove: %d %d", tab.Lookup(mac(1)), tab.Lookup(mac(3)))
	}
	if aid, _ := tab.Add(mac(5)); aid != 1 {
		t.Errorf("after freeing 2 then 1, got AID %d, want 1", aid)
	}
	if aid, _ := tab.Add(mac(6)); aid != 2 {
		t.Errorf("next AID %d, want 2", aid)
	}
}

// TestTableListsKeepOrder: each list is in the order its AIDs joined it; an
// AID moves between lists and leaves its old one whole.
func TestTableListsKeepOrder(t *testing.T) {
	tab := NewTable(8)
	for i := byte(1); i <= 4; i++ {
		aid, _ := tab.Add(mac(i))
		tab.Enlist(aid, ListAuth)
	}
	walk := func(l List) []uint16 {
		var out []uint16
		for aid := tab.Oldest(l); aid != 0; aid = tab.Next(aid) {
			out = append(out, aid)
		}
		return out
	}
	tab.Enlist(2, ListPending) // from the middle
	tab.Enlist(1, ListPending) // from the head
	tab.Enlist(4, ListQuiet)   // from the tail
	if got := walk(ListAuth); len(got) != 1 || got[0] != 3 {
		t.Errorf("auth list %v, want [3]", got)
	}
	if got := walk(ListPending); len(got) != 2 || got[0] != 2 || got[1] != 1 {
		t.Errorf("pending list %v, want [2 1]", got)
	}
	tab.Remove(2, mac(2))
	if got := walk(ListPending); len(got) != 1 || got[0] != 1 {
		t.Errorf("pending list after removing 2: %v, want [1]", got)
	}
	tab.Enlist(4, ListNone)
	if tab.Oldest(ListQuiet) != 0 {
		t.Errorf("quiet list holds %d after leaving it", tab.Oldest(ListQuiet))
	}
}

// TestTableLookupAllocatesNothing: the downlink looks a station up per frame.
func TestTableLookupAllocatesNothing(t *testing.T) {
	tab := NewTable(16)
	tab.Add(mac(1))
	if n := testing.AllocsPerRun(100, func() { tab.Lookup(mac(1)) }); n != 0 {
		t.Errorf("%v allocations per lookup", n)
	}
}
