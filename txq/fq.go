package txq

import "time"

// Flow-fair queueing after include/net/fq_impl.h: one table of hashed flows
// shared by every queue (a flow belongs to one queue at a time; a hash that
// collides with another queue's flow goes to the queue's default flow), new
// and old flow lists per queue so that sparse flows go first, a byte
// quantum, and drops from the fattest flow when a bound is exceeded.

const (
	listNone uint8 = iota
	listNew
	listOld
)

type item struct {
	h    Handle
	ln   uint32
	enq  time.Duration
	next int32
}

type flow struct {
	head, tail    int32
	frames, bytes uint32
	deficit       int32
	q             int32 // owning queue, -1 if none
	prev, next    int32
	list          uint8
	cv            codelVars
}

type fq struct {
	flows   []flow // hashed flows, then one default flow per queue
	items   []item
	free    int32
	nHashed uint64
	quantum int32

	frames, bytes int   // totals queued
	backlog       qlist // queues holding frames
	collisions    uint64
}

func (f *fq) init(c *Config, nq int) {
	f.nHashed = uint64(c.Flows)
	f.quantum = int32(c.Quantum)
	f.flows = make([]flow, c.Flows+nq)
	for i := range f.flows {
		fl := &f.flows[i]
		fl.head, fl.tail, fl.q, fl.prev, fl.next = -1, -1, -1, -1, -1
		if i >= c.Flows {
			fl.q = int32(i - c.Flows)
		}
	}
	// One spare slot: like fq_tin_enqueue, a frame is queued first and the
	// bound enforced after, so the new frame competes for the drop.
	f.items = make([]item, c.Limit+1)
	for i := range f.items {
		f.items[i].next = int32(i + 1)
	}
	f.items[len(f.items)-1].next = -1
	f.free = 0
	f.backlog = emptyList
}

// classify is fq_flow_classify: reciprocal_scale of the hash onto the table.
func (s *Scheduler) classify(qi int32, hash uint32) int32 {
	i := int32((uint64(hash) * s.nHashed) >> 32)
	f := &s.flows[i]
	if f.q >= 0 && f.q != qi {
		s.collisions++
		return s.queues[qi].defFlow
	}
	f.q = qi
	return i
}

// Enqueue queues a frame on a station's TID (for station 0, on the
// non-station queue of the TID's AC) and schedules the queue. It returns
// false, keeping nothing, if the station is not present; otherwise the
// handle now belongs to the Scheduler until Dequeue returns it or
// Owner.Drop gives it back (possibly before Enqueue returns, if a bound is
// hit and this frame's flow is the fattest).
func (s *Scheduler) Enqueue(sta uint16, tid uint8, it Item, now time.Duration) bool {
	if int(sta) >= len(s.stas) || (sta != 0 && !s.stas[sta].present) {
		return false
	}
	qi := s.queueIndex(sta, tid)
	q := &s.queues[qi]
	fi := s.classify(qi, it.Hash)
	f := &s.flows[fi]

	ii := s.free
	s.free = s.items[ii].next
	s.items[ii] = item{h: it.Handle, ln: it.Len, enq: s.clk.now(now), next: -1}
	if f.tail >= 0 {
		s.items[f.tail].next = ii
	} else {
		f.head = ii
	}
	f.tail = ii
	f.frames++
	f.bytes += it.Len
	if q.frames == 0 {
		s.backlog.bpush(s.queues, qi)
	}
	q.frames++
	q.bytes += it.Len
	s.frames++
	s.bytes += int(it.Len)
	if f.list == listNone {
		f.deficit = s.quantum
		f.list = listNew
		q.newFlows.fpushTail(s.flows, fi)
	}
	if s.overBound(q) { // tested here: few frames find a bound passed
		s.enforce(q)
	}
	if q.frames > 0 && q.state != stListed { // a listed queue stays as it is
		s.schedule(q, true, now)
	}
	return true
}

// overBound reports whether queue q or the whole holds more than its bound.
func (s *Scheduler) overBound(q *TXQ) bool {
	return q.frames > uint32(s.cfg.QueueLimit) || q.bytes > uint32(s.cfg.QueueBytes) || s.frames > s.cfg.Limit || s.bytes > s.cfg.MemoryLimit
}

// enforce applies the per-queue bounds, then the total ones, dropping from
// the fattest flow each time like fq_tin_enqueue.
func (s *Scheduler) enforce(q *TXQ) {
	for q.frames > uint32(s.cfg.QueueLimit) || q.bytes > uint32(s.cfg.QueueBytes) {
		s.dropFat(s.fattestIn(q), DropQueueFull)
	}
	for s.frames > s.cfg.Limit {
		s.dropFat(s.fattest(), DropOverlimit)
	}
	for s.bytes > s.cfg.MemoryLimit {
		s.dropFat(s.fattest(), DropOvermemory)
	}
}

func (s *Scheduler) fattestIn(q *TXQ) int32 {
	best, n := int32(-1), uint32(0)
	for _, l := range [2]flist{q.newFlows, q.oldFlows} {
		for i := l.first; i >= 0; i = s.flows[i].next {
			if b := s.flows[i].bytes; b > n {
				best, n = i, b
			}
		}
	}
	return best
}

// fattest is fq_find_fattest_flow over the queues that hold frames only, so
// its cost is bounded by the number of active flows, not the table size.
func (s *Scheduler) fattest() int32 {
	best, n := int32(-1), uint32(0)
	for qi := s.backlog.first; qi >= 0; qi = s.queues[qi].bNext {
		if i := s.fattestIn(&s.queues[qi]); i >= 0 && s.flows[i].bytes > n {
			best, n = i, s.flows[i].bytes
		}
	}
	return best
}

// dropFat is fq_flow_drop: half the flow's frames from its head, at most 32,
// at least one.
func (s *Scheduler) dropFat(fi int32, reason DropReason) {
	f := &s.flows[fi]
	q := &s.queues[f.q]
	n := min(f.frames/2, 32)
	n = max(n, 1)
	for range n {
		it, ok := s.pop(q, f)
		if !ok {
			break
		}
		s.acs[q.ac].stats.Drops[reason]++
		s.own.Drop(it.h, reason)
	}
}

// pop takes the head frame of a flow and frees its slot.
func (s *Scheduler) pop(q *TXQ, f *flow) (item, bool) {
	ii := f.head
	if ii < 0 {
		return item{}, false
	}
	it := s.items[ii]
	f.head = it.next
	if f.head < 0 {
		f.tail = -1
	}
	s.items[ii].next = s.free
	s.free = ii
	f.frames--
	f.bytes -= it.ln
	q.frames--
	q.bytes -= it.ln
	s.frames--
	s.bytes -= int(it.ln)
	if q.frames == 0 {
		s.backlog.bremove(s.queues, s.index(q))
	}
	return it, true
}

// Dequeue is fq_tin_dequeue with CoDel applied per flow: the next frame of
// the queue, new flows first, each flow served a quantum of bytes at a
// time. Frames CoDel drops or marks go through Owner first. The caller owns
// the returned handle.
func (s *Scheduler) Dequeue(q *TXQ, now time.Duration) (Frame, bool) {
	cnow := s.clk.now(now)
	for {
		head, isNew := &q.newFlows, true
		if head.empty() {
			head, isNew = &q.oldFlows, false
			if head.empty() {
				return Frame{}, false
			}
		}
		fi := head.first
		f := &s.flows[fi]
		if f.deficit <= 0 {
			if !isNew && head.last == fi {
				// The only old flow and no new one: the round robin
				// would come back to it a quantum at a time until
				// its deficit turns positive.
				f.deficit += (-f.deficit/s.quantum + 1) * s.quantum
			} else {
				f.deficit += s.quantum
				s.toOld(q, head, fi)
				continue
			}
		}
		var it item
		var ok bool
		switch {
		case q.sta != 0 && s.stas[q.sta].paused:
			// A dozing station's frames are fetched one by one (PS-Poll);
			// their wait is the power-save buffer, not a standing queue,
			// so CoDel neither drops them nor counts it.
			it, ok = s.pop(q, f)
			f.cv = codelVars{recInvSqrt: f.cv.recInvSqrt}
		case f.head < 0:
			// codelDequeue's answer for an empty flow, without the call:
			// the driver's last Dequeue of a round finds one.
			f.cv.dropping = false
		default:
			it, ok = s.codelDequeue(q, f, cnow)
		}
		if !ok {
			// An empty new flow passes through the old list once, so
			// that a flow cannot stay "new" by emptying every quantum.
			if isNew && !q.oldFlows.empty() {
				s.toOld(q, head, fi)
			} else {
				s.unlinkFlow(head, fi, q)
			}
			continue
		}
		f.deficit -= int32(it.ln)
		return Frame{Handle: it.h, Len: it.ln, Enqueued: it.enq, Sojourn: cnow - it.enq}, true
	}
}

func (s *Scheduler) toOld(q *TXQ, from *flist, fi int32) {
	from.fremove(s.flows, fi)
	q.oldFlows.fpushTail(s.flows, fi)
	s.flows[fi].list = listOld
}

func (s *Scheduler) unlinkFlow(from *flist, fi int32, q *TXQ) {
	from.fremove(s.flows, fi)
	f := &s.flows[fi]
	f.list = listNone
	if fi != q.defFlow {
		f.q = -1
	}
}

// flush drops every frame of a queue and resets its flows.
func (s *Scheduler) flush(q *TXQ, reason DropReason) {
	for _, l := range [2]*flist{&q.newFlows, &q.oldFlows} {
		for l.first >= 0 {
			fi := l.first
			f := &s.flows[fi]
			for {
				it, ok := s.pop(q, f)
				if !ok {
					break
				}
				s.acs[q.ac].stats.Drops[reason]++
				s.own.Drop(it.h, reason)
			}
			f.cv = codelVars{}
			s.unlinkFlow(l, fi, q)
		}
	}
}
