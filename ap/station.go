package ap

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
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

	txSeq   [ieee80211.NumTIDs]uint16     // next sequence number per TID
	rxSeq   [ieee80211.NumTIDs + 1]uint16 // last sequence control per TID (+ non-QoS)
	rxValid [ieee80211.NumTIDs + 1]bool

	q        fifo
	inFlight [ieee80211.NumACs]int

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
	RxDroppedUnauthorize uint64
}

// stationTable maps addresses to slots 1..max; slot 0 is never used.
type stationTable struct {
	slots  []station
	byAddr map[ieee80211.MAC]uint16
	free   []uint16
}

func newStationTable(max, queueFrames int) stationTable {
	t := stationTable{slots: make([]station, max+1), byAddr: make(map[ieee80211.MAC]uint16, max), free: make([]uint16, 0, max)}
	for i := max; i >= 1; i-- {
		t.free = append(t.free, uint16(i))
	}
	for i := range t.slots {
		t.slots[i].q = newFIFO(queueFrames)
	}
	return t
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
	q := s.q
	*s = station{addr: addr, q: q}
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

func (t *stationTable) count(state staState) int {
	n := 0
	for _, slot := range t.byAddr {
		if t.slots[slot].state == state {
			n++
		}
	}
	return n
}

// fifo is the per-station downlink queue: a ring of slab handles.
type fifo struct {
	h          []uint32
	n          []uint16 // 802.3 frame length
	tid        []uint8
	head, size int
}

func newFIFO(n int) fifo {
	return fifo{h: make([]uint32, n), n: make([]uint16, n), tid: make([]uint8, n)}
}

func (q *fifo) push(h uint32, n int, tid uint8) bool {
	if q.size == len(q.h) {
		return false
	}
	i := (q.head + q.size) % len(q.h)
	q.h[i], q.n[i], q.tid[i] = h, uint16(n), tid
	q.size++
	return true
}

func (q *fifo) pop() (h uint32, n int, tid uint8, ok bool) {
	if q.size == 0 {
		return 0, 0, 0, false
	}
	h, n, tid = q.h[q.head], int(q.n[q.head]), q.tid[q.head]
	q.head = (q.head + 1) % len(q.h)
	q.size--
	return h, n, tid, true
}

func (q *fifo) peekTID() uint8 { return q.tid[q.head] }
