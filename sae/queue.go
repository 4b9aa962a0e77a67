package sae

import "time"

// QueueMax is how many received frames a BSS's Queue holds, hostapd's
// bound: a 16th is dropped.
const QueueMax = 15

// queueSpacing is the wait per frame still queued before the next is
// worked (hostapd's queue_len * 10 ms).
const queueSpacing = 10 * time.Millisecond

// MaxQueuedBody is the longest Frame.Body a Queue keeps: an MMPDU's
// body is at most 2304 octets, of which the Authentication frame's
// algorithm, transaction and status take 6.
const MaxQueuedBody = 2304 - 6

// Queue holds a BSS's received SAE Authentication frames before any
// work on them, as hostapd's sae_commit_queue (auth_sae_queue,
// auth_sae_process_commit): every Commit, and a Confirm from a peer with
// a frame queued (Queues), waits here; the core works one at a time at
// Deadline (Next), the next after a wait of 10 ms per frame still
// queued, or at once when the queue was empty. A flood so fills the
// queue that frames are worked about every 140 ms, and the frames that
// find it full are dropped (Add), whatever they carry: no reply, no
// state, no work. Frames queued count toward anti_clogging_threshold
// (Authenticator.SetQueue).
//
// The bodies are copied into one buffer of QueueMax frames, allocated at
// the first Add: nothing grows with the input. Time is the caller's.
type Queue struct {
	slots [QueueMax]queued
	buf   []byte // QueueMax bodies of MaxQueuedBody octets, slot i's at i*MaxQueuedBody
	head  int    // the oldest frame's slot
	n     int
	due   time.Time // when Next works the head
	armed bool
}

type queued struct {
	from  MAC
	trans uint16
	stat  uint16
	size  int
}

// Queues reports whether a frame of transaction trans from peer goes
// through the queue: every Commit, and a Confirm from a peer with a frame
// queued, so that it is not worked before that peer's Commit
// (auth_sae_queued_addr).
func (q *Queue) Queues(from MAC, trans uint16) bool {
	return trans == 1 || trans == 2 && q.holds(from)
}

func (q *Queue) holds(from MAC) bool {
	for k := range q.n {
		if q.slots[q.at(k)].from == from {
			return true
		}
	}
	return false
}

func (q *Queue) at(k int) int { return (q.head + k) % QueueMax }

// Add queues f from peer at now, its body copied (at most MaxQueuedBody
// octets, longer is the caller's to refuse): in place of a frame queued
// from peer with the same transaction (a peer's retry makes its older
// attempt pointless), else at the tail. It reports false, the frame
// dropped, when the queue is full, a retry included: as hostapd's
// auth_sae_queue, room is checked first, so that under a flood a frame
// forged with a queued station's address cannot take its frame's place.
// With no work pending the next frame is due after the wait of the
// frames that were queued: at now for the first.
func (q *Queue) Add(now time.Time, from MAC, f Frame) bool {
	if len(f.Body) > MaxQueuedBody || q.n == QueueMax {
		return false
	}
	waiting := q.n
	i := q.find(from, f.Transaction)
	if i < 0 {
		i = q.at(q.n)
		q.n++
	}
	if q.buf == nil {
		q.buf = make([]byte, QueueMax*MaxQueuedBody)
	}
	q.slots[i] = queued{from: from, trans: f.Transaction, stat: f.Status, size: copy(q.buf[i*MaxQueuedBody:], f.Body)}
	if !q.armed {
		q.due, q.armed = now.Add(time.Duration(waiting)*queueSpacing), true
	}
	return true
}

// find returns the slot of the frame queued from peer with transaction
// trans, -1 if none.
func (q *Queue) find(from MAC, trans uint16) int {
	for k := range q.n {
		if s := q.at(k); q.slots[s].from == from && q.slots[s].trans == trans {
			return s
		}
	}
	return -1
}

// Len is how many frames are queued.
func (q *Queue) Len() int { return q.n }

// Deadline is when Next has a frame to work, ok false when none is
// queued.
func (q *Queue) Deadline() (t time.Time, ok bool) { return q.due, q.armed }

// Next takes the oldest frame when it is due at now, and arms the next
// one's turn: 10 ms per frame still queued. The body is the queue's,
// valid until the next Add.
func (q *Queue) Next(now time.Time) (from MAC, f Frame, ok bool) {
	if !q.armed || now.Before(q.due) {
		return MAC{}, Frame{}, false
	}
	s := q.slots[q.head]
	body := q.buf[q.head*MaxQueuedBody:][:s.size:s.size]
	q.head, q.n = q.at(1), q.n-1
	q.armed = q.n > 0
	q.due = now.Add(time.Duration(q.n) * queueSpacing)
	return s.from, Frame{Transaction: s.trans, Status: s.stat, Body: body}, true
}

// Clear drops every frame queued.
func (q *Queue) Clear() { q.head, q.n, q.armed = 0, 0, false }
