package ap

import (
	"iter"
	"time"

	"github.com/airq/airq/bss"
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
// eviction lists of their BSS (bss.Table) and each station's state, by slot. A station's
// slot is its AID and its index in the scheduler; slot 0 is never used.
type stationTable struct {
	slots []station
	ids   *bss.Table // the BSS's
}

func newStationTable(max int, ids *bss.Table) stationTable {
	return stationTable{slots: make([]station, max+1), ids: ids}
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
	slot := t.ids.Lookup(addr)
	if slot == 0 {
		return 0, nil
	}
	return slot, &t.slots[slot]
}

// add returns a fresh slot for addr, or false when the table is full. The
// lowest free slot is used, so AIDs are reused.
func (t *stationTable) add(addr ieee80211.MAC) (uint16, *station, bool) {
	slot, ok := t.ids.Add(addr)
	if !ok {
		return 0, nil, false
	}
	s := &t.slots[slot]
	*s = station{addr: addr}
	return slot, s, true
}

func (t *stationTable) remove(slot uint16) {
	s := &t.slots[slot]
	t.ids.Remove(slot, s.addr)
	s.state = stateNone
	s.rc, s.rsn, s.sae = nil, nil, nil
}

// enlist moves slot to the tail of list l (bss.ListNone: off every list).
func (t *stationTable) enlist(slot uint16, l bss.List) { t.ids.Enlist(slot, l) }

// oldest returns the slot longest on list l, 0 if it is empty.
func (t *stationTable) oldest(l bss.List) uint16 { return t.ids.Oldest(l) }
