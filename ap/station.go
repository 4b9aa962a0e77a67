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
	stateAssociated
)

func (s staState) String() string {
	switch s {
	case stateAuthenticated:
		return "authenticated"
	case stateAssociated:
		return "associated"
	}
	return "none"
}

// authTimeout drops a station that authenticated but never associated, so
// that authentication alone cannot hold a slot.
const authTimeout = 5 * time.Second

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
	// only then. Open networks authorize at association; an RSN
	// authenticator would authorize after its 4-way handshake.
	authorized   bool
	ht, vht      bool          // HT/VHT in use with this station
	heAnnounced  bool          // it offers HE, which airq does not send
	maxAMSDU     int           // longest A-MSDU it receives, 0 if none
	rc           *rate.Station // rate selection for its data frames
	nonERP       bool          // no OFDM rate: 802.11b only
	longPreamble bool          // no short preamble capability
	polling      bool          // an inactivity poll is queued or in flight

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

// stationTable maps addresses to slots 1..max; slot 0 is never used.
type stationTable struct {
	slots  []station
	byAddr map[ieee80211.MAC]uint16
	free   []uint16
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
	s := &t.slots[slot]
	delete(t.byAddr, s.addr)
	s.state = stateNone
	// Keep the free list sorted descending so the lowest slot is reused first.
	i := len(t.free)
	t.free = append(t.free, 0)
	for i > 0 && t.free[i-1] < slot {
		t.free[i] = t.free[i-1]
		i--
	}
	t.free[i] = slot
}
