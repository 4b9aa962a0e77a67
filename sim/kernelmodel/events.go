package kernelmodel

import "time"

// evKind says what an event does when it fires.
type evKind uint8

const (
	evTxStart     evKind = iota + 1 // the AP's backoff ends: the A-MPDU goes on air
	evTxDone                        // BlockAck received: the aggregate completes
	evUplinkDone                    // the station's TCP ACK has crossed the medium
	evHostAck                       // a TCP ACK reaches the wired host
	evTSQWake                       // the TSQ tasklet runs after a completion
	evIngressDone                   // the host's NIC finished serialising a frame
	evArrive                        // a forwarded frame reaches the AP's stack
	evTLP                           // the sender's loss-probe or retransmission timer
	evWorker                        // the driver's worker thread runs (Worker variant)
)

// event is one scheduled action; seq makes events at the same instant run in
// the order they were scheduled, so results never depend on heap order.
type event struct {
	at    time.Duration
	seq   uint64
	kind  evKind
	n     int32         // segments acknowledged (ACK events) or frame index
	since time.Duration // send time of the oldest segment acknowledged
}

// eventHeap is a binary min-heap on (at, seq), typed to keep container/heap's
// interface calls off the hot path.
type eventHeap []event

func (h eventHeap) less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}

func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if !q.less(i, p) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

func (h *eventHeap) pop() event {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(q) && q.less(l, m) {
			m = l
		}
		if r < len(q) && q.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
	*h = q
	return top
}
