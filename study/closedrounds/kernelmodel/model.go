package kernelmodel

import (
	"math/rand/v2"
	"time"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/internal/eventq"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/txq"
)

const (
	be       = ieee80211.ACBE
	sta      = 1
	flowHash = 0x5eed0000 // one TCP flow
	hwRing   = 256        // > one aggregate in flight + one queued
	// wiredDelay is the host-to-AP one-way latency besides serialisation
	// (switch and the AP's receive path).
	wiredDelay = 50 * time.Microsecond
	// wiredMbps is the host's link. The seed forwarded 99-100 Mbit/s of
	// TCP, more than a 100 Mbit/s link carries (1448 payload octets per
	// 1538 on the wire: 94.1 Mbit/s), so its host was on gigabit.
	wiredMbps = 1000
	// ingressPerFrame is one Ethernet frame on that link.
	ingressPerFrame = time.Duration(wireBytes*8*1000/wiredMbps) * time.Nanosecond
)

// hwFrame is a frame the driver pushed to the device, with its AQL receipt.
type hwFrame struct {
	h   txq.Handle
	tok aql.Token
}

// model is one run's state. The device ring is a fixed array because aql
// tokens must not move once issued.
type model struct {
	cfg Config
	now time.Duration
	ev  eventq.Queue[event]
	rng *rand.Rand
	phy *phy
	s   *txq.Scheduler
	aq  *aql.Tracker
	snd *sender

	sent []time.Duration // per handle: when TCP sent the segment
	dup  []bool          // per handle: a loss probe, no new data
	free []txq.Handle

	hw         [hwRing]hwFrame
	hwHead     int
	hwLen      int
	hwDone     int // frames at the ring's head sent, completion not yet reported
	hwAir      int // frames of the aggregate on air, after those
	busy       bool
	idleSince  time.Duration
	idle       time.Duration
	charge     uint32 // aql.KernelCharge of one frame
	delivered  uint64
	aggs       uint64
	aggFrames  uint64
	codelDrops uint64
	nic        []txq.Handle // host NIC FIFO (wired)
	tlpGen     int32
	rtoArmed   bool // the sender's timer is the RTO, not a loss probe
	probes     uint64
	rtos       uint64
	nicBusy    bool
	// Worker variant: a run is requested (MT76_WORKER_SCHEDULED) or going on.
	wkScheduled bool
	wkRunning   bool
}

func (m *model) at(d time.Duration, k evKind, n int32, since time.Duration) {
	m.ev.Push(m.now+d, event{kind: k, n: n, since: since})
}

func us(x uint32) time.Duration { return time.Duration(x) * time.Microsecond }

// Mark is txq.Owner: the flow is not ECN-capable, so CoDel drops.
func (m *model) Mark(txq.Handle) bool { return false }

// Drop is txq.Owner: a frame leaves the queues for good. The skb is freed,
// so a TSQ sender gets its bytes back; TCP sees the loss at its next ACK.
func (m *model) Drop(h txq.Handle, reason txq.DropReason) {
	if reason == txq.DropCoDel {
		m.codelDrops++
	}
	m.release(h)
	if m.cfg.Traffic == TSQ && m.snd.freed() {
		m.at(m.cfg.Variant.TSQDelay, evTSQWake, 0, 0)
	}
	if !m.dup[h] {
		m.snd.dropped()
	}
}

func (m *model) alloc() txq.Handle {
	if n := len(m.free); n > 0 {
		h := m.free[n-1]
		m.free = m.free[:n-1]
		return h
	}
	m.sent = append(m.sent, 0)
	m.dup = append(m.dup, false)
	return txq.Handle(len(m.sent) - 1)
}

func (m *model) release(h txq.Handle) { m.free = append(m.free, h) }

// emitAP is the AP's own TCP handing a segment to mac80211: it is queued
// and the driver is woken (wake_tx_queue runs a round).
func (m *model) emitAP(now time.Duration) {
	h := m.alloc()
	m.sent[h], m.dup[h] = now, false
	m.enqueue(h)
}

// emitHost queues a segment on the wired host's NIC.
func (m *model) emitHost(now time.Duration) {
	h := m.alloc()
	m.sent[h], m.dup[h] = now, false
	m.toNIC(h)
}

// toNIC queues a frame on the wired host's NIC.
func (m *model) toNIC(h txq.Handle) {
	m.nic = append(m.nic, h)
	if !m.nicBusy {
		m.nicBusy = true
		m.at(ingressPerFrame, evIngressDone, 0, 0)
	}
}

func (m *model) enqueue(h txq.Handle) {
	m.s.Enqueue(sta, 0, txq.Item{Handle: h, Len: skbLen, Hash: flowHash}, m.now)
	m.newFrame()
}

// newFrame is wake_tx_queue for a frame the stack handed down. In the
// pre-registered model it runs a round at once.
func (m *model) newFrame() {
	if m.cfg.Variant.BusyGate && m.hwLen > 0 {
		return
	}
	m.request()
}

// completed is the driver's reaction to a completion: in the pre-registered
// model a round at once.
func (m *model) completed() {
	if m.cfg.Variant.NoCompletionRound {
		m.kick()
		return
	}
	m.request()
}

// request runs a round, or with the Worker variant schedules the worker as
// mt76_worker_schedule does: nothing if a run is already requested, and a
// request made during a run gives one more run.
func (m *model) request() {
	v := &m.cfg.Variant
	if !v.Worker {
		m.round()
		return
	}
	if m.wkScheduled {
		return
	}
	m.wkScheduled = true
	if !m.wkRunning {
		m.at(v.WorkerDelay, evWorker, 0, 0)
	}
}

// worker is one wake-up of the driver's worker thread: mt76_tx_worker_run,
// whose mt76_txq_schedule repeats rounds while one handed frames down
// (WorkerLoop).
func (m *model) worker() {
	m.wkRunning = true
	for m.wkScheduled {
		m.wkScheduled = false
		n := m.round()
		for m.cfg.Variant.WorkerLoop && n > 0 {
			n = m.round()
		}
	}
	m.wkRunning = false
}

// room is the device's space: the aggregate being queued behind the one on
// air may grow to 64 subframes or 4 ms.
func (m *model) room() bool {
	q := m.queued()
	return q < maxSubframes && m.phy.ppdu[q+1] <= maxPPDU
}

// round is the driver's scheduling round on BE (A.2 of the reference):
// per-frame AQL check as ieee80211_tx_dequeue does, pending airtime added at
// dequeue, queues returned without force. It returns the frames it handed
// to the device.
func (m *model) round() int {
	served := 0
	m.s.StartRound(be, m.now)
	for q, ok := m.s.Next(be, m.now); ok; q, ok = m.s.Next(be, m.now) {
		for m.room() && m.aq.StationAllows(sta, be) {
			f, ok := m.s.Dequeue(q, m.now)
			if !ok {
				break
			}
			e := &m.hw[(m.hwHead+m.hwLen)%hwRing]
			e.h = f.Handle
			e.tok = m.aq.Add(sta, be, m.charge)
			m.hwLen++
			served++
		}
		m.s.Return(q, false, m.now)
	}
	m.s.EndRound(be)
	m.kick()
	return served
}

// kick starts channel access when the medium is free and frames wait.
func (m *model) kick() {
	if m.busy || m.queued() == 0 {
		return
	}
	m.setBusy()
	m.at(us(m.phy.aifs+slot*uint32(m.rng.IntN(int(m.phy.cwMin)+1))), evTxStart, 0, 0)
}

func (m *model) setBusy() {
	m.busy = true
	m.idle += m.now - m.idleSince
}

func (m *model) setIdle() {
	m.busy = false
	m.idleSince = m.now
}

// txStart puts everything queued on air as one A-MPDU; room() kept it within
// the aggregate limits.
func (m *model) txStart() {
	m.hwAir = m.queued()
	m.aggs++
	m.aggFrames += uint64(m.hwAir)
	m.at(us(m.phy.exchange(m.hwAir)), evTxDone, 0, 0)
}

// queued is the device's frames neither on air nor waiting for their
// completion to be reported.
func (m *model) queued() int { return m.hwLen - m.hwDone - m.hwAir }

func (m *model) step(at time.Duration, e event) {
	m.now = at
	switch e.kind {
	case evTxStart:
		m.txStart()
	case evTxDone:
		m.txDone()
	case evComplete:
		m.complete(int(e.n))
	case evUplinkDone:
		m.setIdle()
		if m.cfg.Traffic == TSQ {
			m.ack(e)
		} else {
			m.at(wiredDelay, evHostAck, e.n, e.since)
		}
		m.kick()
	case evHostAck:
		m.ack(e)
	case evTSQWake:
		m.tsqWake()
	case evIngressDone:
		h := m.nic[0]
		m.nic = m.nic[1:]
		if m.snd.freed() {
			m.at(0, evTSQWake, 0, 0)
		}
		m.at(wiredDelay, evArrive, int32(h), 0)
		if len(m.nic) > 0 {
			m.at(ingressPerFrame, evIngressDone, 0, 0)
		} else {
			m.nicBusy = false
		}
	case evArrive:
		m.enqueue(txq.Handle(e.n))
	case evTLP:
		m.timer(e)
	case evWorker:
		m.worker()
	}
}
