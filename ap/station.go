package ap

import (
	"iter"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rate"
)

// station is one entry of the station table, indexed by slot. An associated
// station's AID equals its slot.
type station struct {
	bss.Station // the BSS's part: admission, handshakes, what it announced

	lastRx    time.Duration
	lastTx    time.Duration // last data frame handed to the radio
	bss       *bss.BSS      // the network it belongs to
	rc        *rate.Station // rate selection for its data frames
	txRate    radio.Rate
	rxRate    radio.Rate // of its last received data frame
	signal    int8
	polling   bool  // an inactivity poll is queued or in flight
	rcTried   bool  // the rate table was built (or could not be) since the last release
	bssIdx    uint8 // its BSS's index in the radio's BSSes and radios: its wired side and RSN
	signalAvg signalAverage

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

// stationTable is the radio's stations: the index of addresses, AIDs and
// eviction lists of their BSS (bss.Table, which binds each AID to the
// station's bss.Station record) and each station's entry, by slot. A
// station's slot is its AID and its index in the scheduler; slot 0 is
// never used.
type stationTable struct {
	slots []station
	ids   *bss.Table // the BSS's
	// departed, when set, takes each station's counters as it leaves.
	departed func(*station)
	// recent remembers, by a hash of the address, the slot lookup last
	// found for it, so that a run of frames to or from the same stations
	// skips the map; an entry counts only while its slot holds that
	// address, and remove clears it (0: none).
	recent [recentSlots]uint16
}

// recentSlots is the size of stationTable.recent, a power of two.
const recentSlots = 64

// recentIndex spreads addresses over stationTable.recent by their last
// octets, the ones that differ between stations of a vendor.
func recentIndex(addr ieee80211.MAC) int {
	return int(addr[5]^addr[4]<<1^addr[3]<<2) & (recentSlots - 1)
}

// newStationTable makes the slots of the stations of the radio's one BSS,
// whose table ids is.
func newStationTable(max int, ids *bss.Table) stationTable {
	return stationTable{slots: make([]station, max+1), ids: ids}
}

// used yields the slots in use in slot order, so that everything the core
// does for each station happens in a deterministic order.
func (t *stationTable) used() iter.Seq[uint16] {
	return func(yield func(uint16) bool) {
		for i := 1; i < len(t.slots); i++ {
			if t.slots[i].State != bss.StateNone && !yield(uint16(i)) {
				return
			}
		}
	}
}

func (t *stationTable) lookup(addr ieee80211.MAC) (uint16, *station) {
	k := &t.recent[recentIndex(addr)]
	if slot := *k; slot != 0 && t.slots[slot].Addr == addr {
		return slot, &t.slots[slot]
	}
	slot := t.ids.Lookup(addr)
	if slot == 0 {
		return 0, nil
	}
	*k = slot
	return slot, &t.slots[slot]
}

// add returns a fresh slot for addr joining b, or false when the table is
// full. The lowest free slot is used, so AIDs are reused. The first BSS's
// table (ids) hands out the slots and finds every station of the radio by
// its address; a BSS beside it holds its stations at those slots in its
// own table, so its TIM, lists and counts are its stations' alone.
func (t *stationTable) add(b *bss.BSS, addr ieee80211.MAC) (uint16, *station, bool) {
	slot, ok := t.ids.Add(addr)
	if !ok {
		return 0, nil, false
	}
	s := &t.slots[slot]
	*s = station{Station: bss.Station{Addr: addr}, bss: b}
	if &b.Stations != t.ids {
		b.Stations.Hold(slot, addr)
	}
	b.Stations.Bind(slot, &s.Station)
	return slot, s, true
}

func (t *stationTable) remove(slot uint16) {
	s := &t.slots[slot]
	if t.departed != nil {
		t.departed(s)
	}
	if &s.bss.Stations != t.ids {
		s.bss.Stations.Remove(slot, s.Addr)
	}
	t.ids.Remove(slot, s.Addr)
	if k := &t.recent[recentIndex(s.Addr)]; *k == slot {
		*k = 0
	}
	s.State = bss.StateNone
	s.rc, s.RSN, s.SAE = nil, nil, nil
}

// enlist moves slot to the tail of list l of its BSS (bss.ListNone: off
// every list).
func (t *stationTable) enlist(slot uint16, l bss.List) { t.slots[slot].bss.Stations.Enlist(slot, l) }
