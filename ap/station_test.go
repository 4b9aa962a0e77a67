package ap

import (
	"testing"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
)

// TestStationLookupRecent: the lookup's memory of recent slots never
// answers for a station that left or moved, nor confuses two addresses
// that share its entry.
func TestStationLookupRecent(t *testing.T) {
	b := &bss.BSS{Stations: bss.NewTable(8)}
	tab := newStationTable(8, &b.Stations)
	a1 := ieee80211.MAC{2, 0, 0, 0, 1, 1}
	a2 := ieee80211.MAC{2, 0, 0, 0, 1, 1 ^ recentSlots} // a1's entry
	if recentIndex(a1) != recentIndex(a2) {
		t.Fatal("the two addresses do not share an entry")
	}
	find := func(addr ieee80211.MAC, want uint16) {
		t.Helper()
		for range 2 { // the map's answer, then the remembered one
			slot, s := tab.lookup(addr)
			if slot != want || (s == nil) != (want == 0) || s != nil && s.Addr != addr {
				t.Fatalf("lookup(%v) = %d, %v; want slot %d", addr, slot, s, want)
			}
		}
	}
	s1, _, _ := tab.add(b, a1)
	find(a1, s1)
	s2, _, _ := tab.add(b, a2)
	find(a2, s2)
	find(a1, s1)
	tab.remove(s1)
	find(a1, 0)
	find(a2, s2)
	tab.remove(s2)
	find(a2, 0)
	// a1 again, in the lowest free slot; a2 stays gone
	if s, _, _ := tab.add(b, a1); s != s1 {
		t.Fatalf("a1 back in slot %d, want the lowest free, %d", s, s1)
	}
	find(a1, s1)
	find(a2, 0)
}
