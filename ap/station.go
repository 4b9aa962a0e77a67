package ap

import (
	"iter"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rate"
)

type staState uint8

const (
	stateNone staState = iota
	stateAuthenticated
	// stateAssocPending: the association was accepted and the AID is
	// reserved; the station becomes associated when the echo of the
	// association response shows it acknowledged (as hostapd waits for
	// the TX status with mac80211).
	stateAssocPending
	stateAssociated
)

func (s staState) String() string {
	switch s {
	case stateAuthenticated:
		return "authenticated"
	case stateAssocPending:
		return "associating"
	case stateAssociated:
		return "associated"
	}
	return "none"
}

// station is one entry of the station table, indexed by slot. An associated
// station's AID equals its slot.
type station struct {
	state          staState
	addr           ieee80211.MAC
	qos            bool // WMM station: QoS data with TIDs
	capability     uint16
	listenInterval uint16
	rates          uint16 // bitmask over the AP's rate list
	txRate         radio.Rate
	authAt         time.Duration
	assocAt        time.Duration
	lastRx         time.Duration
	signal         int8
	signalAvg      signalAverage
	rxRate         radio.Rate // of its last received data frame
	dozing         bool       // Power Management bit set in its last frame
	// authorized opens the controlled port: data other than EAPOL passes
	// only then. Open networks authorize at association, WPA2 once the
	// 4-way handshake completes.
	authorized bool
	// announced: AP-STA-CONNECTED went out for this session, so its end
	// is announced too.
	announced    bool
	rsn          *staRSN       // its handshake and keys (WPA2); nil on an open network
	sae          *staSAE       // the keys its SAE exchange or a PMKSA gave it (sae.go)
	ht, vht      bool          // HT/VHT in use with this station
	heAnnounced  bool          // it offers HE, which airq does not send
	maxAMSDU     int           // longest A-MSDU it receives, 0 if none
	rc           *rate.Station // rate selection for its data frames
	nonERP       bool          // no OFDM rate: 802.11b only
	longPreamble bool          // no short preamble capability
	polling      bool          // an inactivity poll is queued or in flight

	// The association handshake (mlme.go, admit.go).
	known      bool          // heard from before it authenticated: replies to it are in the known class
	authOK     bool          // acknowledged its authentication response (or the status was lost)
	hadData    bool          // sent a data frame since it associated: never evicted for room
	reassoc    bool          // pending after being associated: a reassociation of a session
	respLost   bool          // the pending response's TX status was lost: its first frame confirms it
	respSeq    uint16        // sequence control of the latest association response
	assocSeq   uint16        // sequence control of its last (re)association request
	assocSeqOK bool          // assocSeq holds one
	pendingAt  time.Duration // when the association was accepted
	caps       rate.Caps     // what it announced, for the rate table built when first needed
	rcTried    bool          // the rate table was built (or could not be) since the last release
	lastTx     time.Duration // last data frame handed to the radio
	// Its place in the table's list for its kind of unconfirmed state.
	list       uint8
	prev, next uint16

	txSeq   [ieee80211.NumTIDs]uint16     // next sequence number per TID
	rxSeq   [ieee80211.NumTIDs + 1]uint16 // last sequence control per TID (+ non-QoS)
	rxValid [ieee80211.NumTIDs + 1]bool

	StationCounters
}

// StationCounters are the per-station figures `iw station dump` shows.
type StationCounters struct {
	RxBytes, RxPackets   uint64
	TxBytes, TxPackets   uint64
	TxRetries, TxFailed  uint64
	TxNoStatus           uint64
	RxDuplicates         uint64
	TxQueueDrops         uint64
	TxAirtime            uint64 // µs charged to the station
	RxAirtime            uint64 // µs its received frames took on the air
	AMSDUs               uint64 // A-MSDUs sent
	AMSDUSubframes       uint64 // MSDUs they carried
	AMSDUBytes           uint64 // 802.3 bytes they carried
	RxDroppedUnauthorize uint64 // data from an unassociated or unauthorized station
}

// Eviction lists: the slots of each kind of unconfirmed station in the
// order they became so, oldest first. Associated stations that have sent
// data are on none.
const (
	listNone    uint8 = iota
	listAuth          // authenticated only
	listPending       // association response awaiting its TX status
	listQuiet         // associated, no data frame since
	numLists
)

type slotList struct{ head, tail uint16 }

// stationTable maps addresses to slots 1..max; slot 0 is never used.
type stationTable struct {
	slots  []station
	byAddr map[ieee80211.MAC]uint16
	free   []uint16
	lists  [numLists]slotList
}

func newStationTable(max int) stationTable {
	t := stationTable{slots: make([]station, max+1), byAddr: make(map[ieee80211.MAC]uint16, max), free: make([]uint16, 0, max)}
	for i := max; i >= 1; i-- {
		t.free = append(t.free, uint16(i))
	}
	return t
}

// used yields the slots in use in slot order, so that everything the core
// does for each station happens in a deterministic order.
func (t *stationTable) used() iter.Seq[uint16] {
	return func(yield func(uint16) bool) {
		for i := 1; i < len(t.slots); i++ {
			if t.slots[i].state != stateNone && !yield(uint16(i)) {
				return
			}
		}
	}
}

func (t *stationTable) lookup(addr ieee80211.MAC) (uint16, *station) {
	slot, ok := t.byAddr[addr]
	if !ok {
		return 0, nil
	}
	return slot, &t.slots[slot]
}

// add returns a fresh slot for addr, or false when the table is full. The
// lowest free slot is used, so AIDs are reused.
func (t *stationTable) add(addr ieee80211.MAC) (uint16, *station, bool) {
	if len(t.free) == 0 {
		return 0, nil, false
	}
	slot := t.free[len(t.free)-1]
	t.free = t.free[:len(t.free)-1]
	s := &t.slots[slot]
	*s = station{addr: addr}
	t.byAddr[addr] = slot
	return slot, s, true
}

func (t *stationTable) remove(slot uint16) {
	t.enlist(slot, listNone)
	s := &t.slots[slot]
	delete(t.byAddr, s.addr)
	s.state = stateNone
	s.rc, s.rsn, s.sae = nil, nil, nil
	// Keep the free list sorted descending so the lowest slot is reused first.
	i := len(t.free)
	t.free = append(t.free, 0)
	for i > 0 && t.free[i-1] < slot {
		t.free[i] = t.free[i-1]
		i--
	}
	t.free[i] = slot
}

// enlist moves slot to the tail of list l (listNone: off every list).
func (t *stationTable) enlist(slot uint16, l uint8) {
	s := &t.slots[slot]
	if s.list != listNone {
		from := &t.lists[s.list]
		if s.prev != 0 {
			t.slots[s.prev].next = s.next
		} else {
			from.head = s.next
		}
		if s.next != 0 {
			t.slots[s.next].prev = s.prev
		} else {
			from.tail = s.prev
		}
	}
	s.list, s.prev, s.next = l, 0, 0
	if l == listNone {
		return
	}
	to := &t.lists[l]
	s.prev = to.tail
	if to.tail != 0 {
		t.slots[to.tail].next = slot
	} else {
		to.head = slot
	}
	to.tail = slot
}

// oldest returns the slot longest on list l, 0 if it is empty.
func (t *stationTable) oldest(l uint8) uint16 { return t.lists[l].head }
