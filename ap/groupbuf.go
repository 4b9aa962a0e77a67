package ap

import (
	"time"

	"github.com/airq/airq/counter"
)

// groupBufferLen bounds a BSS's buffered group frames, as mac80211's
// AP_MAX_BC_BUFFER does; a full buffer drops its oldest frame.
const groupBufferLen = 128

// groupBuffer is one BSS's group-addressed frames held for its next DTIM
// beacon, mac80211's ps->bc_buf: a ring of slab handles, oldest first.
// Held frames stay out of the radio's non-station queue, so another
// BSS's group frames never wait behind them.
type groupBuffer struct {
	h       [groupBufferLen]uint32
	head, n int
	// taken counts the frames at the front that came back from the
	// non-station queue (skim): older than those pushed, in their order.
	taken int
}

func (g *groupBuffer) push(h uint32) {
	g.h[(g.head+g.n)%groupBufferLen] = h
	g.n++
}

// pushTaken puts a frame back from the non-station queue after those
// taken before it and ahead of every frame pushed, which came later.
func (g *groupBuffer) pushTaken(h uint32) {
	for i := g.n; i > g.taken; i-- {
		g.h[(g.head+i)%groupBufferLen] = g.h[(g.head+i-1)%groupBufferLen]
	}
	g.h[(g.head+g.taken)%groupBufferLen] = h
	g.n, g.taken = g.n+1, g.taken+1
}

func (g *groupBuffer) pop() uint32 {
	h := g.h[g.head]
	g.head, g.n, g.taken = (g.head+1)%groupBufferLen, g.n-1, max(g.taken-1, 0)
	return h
}

// groupHeld reports whether r's BSS holds its group frames: a station of
// its dozes and no DTIM beacon of its has opened the window and gone out
// since. Frames released with the beacon could win the air ahead of it
// (data contends on another queue) while the stations still sleep; as a
// driver's after-beacon queue does, they follow its completion.
func (r *bssRadio) groupHeld() bool {
	return r.b.Dozing > 0 && (!r.b.GroupWindow || r.dtimOnAir)
}

// queueGroup queues the group-addressed MSDU in slab h (n bytes) of BSS
// bi: into its buffer while the BSS holds them (or older ones wait
// there), else into the radio's non-station queue.
func (a *AP) queueGroup(now time.Duration, bi uint8, h uint32, n int) {
	r := a.radios[bi]
	if !r.groupHeld() && r.group.n == 0 {
		a.enqueueGroup(now, r, bi, h, n)
		return
	}
	if r.group.n == groupBufferLen {
		a.dropParked(r.group.pop(), counter.WiredDroppedQueueFull)
	}
	r.group.push(h)
	a.parked++
}

// enqueueGroup puts a group frame of BSS bi into the non-station queue.
// Each BSS's flows are flows of their own there, so one BSS's broadcast
// flood is served beside another's broadcasts, not ahead of them.
func (a *AP) enqueueGroup(now time.Duration, r *bssRadio, bi uint8, h uint32, n int) {
	it := a.itemOf(h, n)
	it.Hash ^= uint32(bi) * 0x9e3779b1
	r.groupQueued++
	if !a.sched.Enqueue(0, 0, it, now) {
		r.groupQueued--
		a.backlog--
		a.pool.put(h)
		a.cnt[counter.WiredDroppedNoStation]++
	}
}

// releaseGroups moves the buffered group frames of each BSS that no
// longer holds them (its DTIM beacon announced them, or its last dozing
// station woke or left) into the non-station queue, oldest first.
func (a *AP) releaseGroups(now time.Duration) {
	for bi, r := range a.radios {
		for r.group.n > 0 && !r.groupHeld() {
			h := r.group.pop()
			a.parked--
			a.enqueueGroup(now, r, uint8(bi), h, int(a.slabLen[h]))
		}
	}
}

// skim takes back a group frame the non-station queue handed out whose
// BSS holds its group frames again (a station of its dozed, or its
// window closed, after the frame was queued) and reports whether it did:
// the frame waits in the BSS's buffer for its next DTIM beacon, as it
// would have had it come later.
func (a *AP) skim(h uint32) bool {
	r := a.radios[a.slabGroup[h]]
	if !r.groupHeld() {
		return false
	}
	r.groupQueued--
	if r.group.n == groupBufferLen {
		a.dropParked(r.group.pop(), counter.WiredDroppedQueueFull)
	}
	r.group.pushTaken(h)
	a.parked++
	return true
}

// groupDequeued books a group frame the non-station queue handed out and
// reports whether more of its BSS's follow (More Data). Its BSS's group
// window closes with its last frame: the dozing stations go back to
// sleep at More Data clear, so later frames wait for the next DTIM.
func (a *AP) groupDequeued(h uint32) (more bool) {
	r := a.radios[a.slabGroup[h]]
	r.groupQueued--
	if r.groupQueued > 0 {
		return true
	}
	if r.b.Dozing > 0 {
		r.b.GroupWindow = false
	}
	return false
}

// dropParked drops a frame taken out of a group buffer.
func (a *AP) dropParked(h uint32, reason counter.ID) {
	a.parked--
	a.backlog--
	a.cnt[reason]++
	a.pool.put(h)
}

// flushGroup drops what r's BSS holds buffered: the BSS restarts and its
// stations are gone.
func (a *AP) flushGroup(r *bssRadio) {
	for r.group.n > 0 {
		a.dropParked(r.group.pop(), counter.WiredDroppedFlushed)
	}
}
