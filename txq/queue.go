package txq

import "github.com/airq/airq/internal/ieee80211"

// Queue states. A queue is on its AC's list, checked out by the caller
// between Next and Return, or idle.
const (
	stIdle   uint8 = iota
	stListed       // on the AC's list
	stOut          // returned by Next, not yet given back with Return
)

const nonStationTID = 0xff

// TXQ is one queue: a station's TID, or the non-station queue of an AC.
// Pointers returned by Next stay valid for the Scheduler's lifetime.
type TXQ struct {
	sta   uint16
	tid   uint8
	ac    ieee80211.AC
	state uint8
	bit   uint8 // its bit in its station's air.listed and air.out (tidSlot)

	prev, next int32 // AC list links
	stamp      uint64
	// Production: the queue's place in the AC's cycle (labels increase
	// along the list), and whether it stood before the cursor when its
	// station was last filed.
	label  uint64
	behind bool

	newFlows, oldFlows flist
	defFlow            int32
	frames, bytes      uint32
	bPrev, bNext       int32 // backlogged-queue links, for the global fattest-flow search
}

// Station is the queue's station slot (0 for the non-station queue).
func (q *TXQ) Station() uint16 { return q.sta }

// TID is the queue's traffic identifier; ok is false for a non-station queue.
func (q *TXQ) TID() (tid uint8, ok bool) { return q.tid, q.tid != nonStationTID }

// AC is the queue's access category.
func (q *TXQ) AC() ieee80211.AC { return q.ac }

// Len is the number of frames queued.
func (q *TXQ) Len() int { return int(q.frames) }

// Bytes is the number of bytes queued.
func (q *TXQ) Bytes() int { return int(q.bytes) }

// index is the queue's position in Scheduler.queues.
func (s *Scheduler) index(q *TXQ) int32 {
	if q.sta == 0 {
		return int32(q.ac)
	}
	return int32(q.sta)*ieee80211.NumTIDs + int32(q.tid)
}
