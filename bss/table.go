package bss

import "github.com/airq/airq/internal/ieee80211"

// List names one of the admission's eviction lists: the AIDs of each kind
// of unconfirmed station in the order they became so, oldest first.
// Associated stations that have sent data are on none.
type List uint8

const (
	ListNone    List = iota
	ListAuth         // authenticated only
	ListPending      // association response awaiting its TX status
	ListQuiet        // associated, no data frame since
	numLists
)

type listEnds struct{ head, tail uint16 }

// link is an AID's place on its list.
type link struct {
	list       List
	prev, next uint16
}

// Table is the index of a BSS's station table: addresses to AIDs 1..max
// (0 is never used), the free AIDs with the lowest handed out first, and
// the eviction lists, and each held AID's Station record. The records
// live with the radio's part of each station (Bind).
type Table struct {
	byAddr map[ieee80211.MAC]uint16
	free   []uint16 // descending: the lowest free AID last
	links  []link
	recs   []*Station // by AID; nil: free
	bound  int        // AIDs with a record: this BSS's stations
	lists  [numLists]listEnds
}

// NewTable returns a table of max AIDs, all free.
func NewTable(max int) Table {
	t := Table{byAddr: make(map[ieee80211.MAC]uint16, max), free: make([]uint16, 0, max), links: make([]link, max+1), recs: make([]*Station, max+1)}
	for i := max; i >= 1; i-- {
		t.free = append(t.free, uint16(i))
	}
	return t
}

// Lookup returns addr's AID, 0 if it has none.
func (t *Table) Lookup(addr ieee80211.MAC) uint16 { return t.byAddr[addr] }

// Add gives addr the lowest free AID, or reports false when none is free.
// addr must have none.
func (t *Table) Add(addr ieee80211.MAC) (uint16, bool) {
	if len(t.free) == 0 {
		return 0, false
	}
	aid := t.free[len(t.free)-1]
	t.free = t.free[:len(t.free)-1]
	t.links[aid] = link{}
	t.byAddr[addr] = aid
	return aid, true
}

// Hold gives addr the AID aid, which must be free: a BSS beside the
// radio's first takes the AIDs the radio's index hands out (the radio's
// slots), so that an AID names one station on the whole radio.
func (t *Table) Hold(aid uint16, addr ieee80211.MAC) {
	// From the lowest end: the radio hands out its lowest free AID, which
	// is among this table's lowest too, so a flood costs no scan of the
	// whole list.
	for i := len(t.free) - 1; i >= 0; i-- {
		if t.free[i] == aid {
			t.free = append(t.free[:i], t.free[i+1:]...)
			break
		}
	}
	t.links[aid] = link{}
	t.byAddr[addr] = aid
}

// Remove frees aid, held by addr, and takes it off its list.
func (t *Table) Remove(aid uint16, addr ieee80211.MAC) {
	t.Enlist(aid, ListNone)
	if t.recs[aid] != nil {
		t.bound--
	}
	t.recs[aid] = nil
	delete(t.byAddr, addr)
	// Keep the free list sorted descending so the lowest AID is reused first.
	i := len(t.free)
	t.free = append(t.free, 0)
	for i > 0 && t.free[i-1] < aid {
		t.free[i] = t.free[i-1]
		i--
	}
	t.free[i] = aid
}

// Bind makes rec the record of aid, which Add gave out: the radio keeps
// the record beside its own part of the station, and the BSS reaches it
// here until Remove.
func (t *Table) Bind(aid uint16, rec *Station) {
	if t.recs[aid] == nil && rec != nil {
		t.bound++
	}
	t.recs[aid] = rec
}

// Stations is the number of AIDs bound to a record: the BSS's stations,
// where the first BSS's table also holds the addresses of the radio's
// other BSSes' stations (Hold).
func (t *Table) Stations() int { return t.bound }

// Station returns the record of aid, nil if none is bound.
func (t *Table) Station(aid uint16) *Station { return t.recs[aid] }

// Len is the number of AIDs held; Free the number left.
func (t *Table) Len() int  { return len(t.byAddr) }
func (t *Table) Free() int { return len(t.free) }

// Enlist moves aid to the tail of list l (ListNone: off every list).
func (t *Table) Enlist(aid uint16, l List) {
	s := &t.links[aid]
	if s.list != ListNone {
		from := &t.lists[s.list]
		if s.prev != 0 {
			t.links[s.prev].next = s.next
		} else {
			from.head = s.next
		}
		if s.next != 0 {
			t.links[s.next].prev = s.prev
		} else {
			from.tail = s.prev
		}
	}
	*s = link{list: l}
	if l == ListNone {
		return
	}
	to := &t.lists[l]
	s.prev = to.tail
	if to.tail != 0 {
		t.links[to.tail].next = aid
	} else {
		to.head = aid
	}
	to.tail = aid
}

// Oldest returns the AID longest on list l, 0 if it is empty.
func (t *Table) Oldest(l List) uint16 { return t.lists[l].head }

// Next returns the AID after aid on its list, 0 at the end.
func (t *Table) Next(aid uint16) uint16 { return t.links[aid].next }
