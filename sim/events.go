package sim

import "time"

// evKind says what an event does when it fires.
type evKind uint8

const (
	evTick     evKind = iota + 1 // the core's deadline
	evAccess                     // a contender's backoff reaches zero; arg = the channel's generation, ch its index
	evTxEnd                      // the exchange on air ends; ch = the channel's index
	evEcho                       // a TX-status echo reaches the core
	evWiredIn                    // a host's 802.3 frame reaches the core
	evWiredOut                   // a core's 802.3 frame reaches the hosts
	evTimer                      // tgt.fire(arg)
	evRetuned                    // the AP's radio is on its new channel
)

// timerTarget is anything that owns timers: stations and traffic endpoints.
// A stale timer is recognised by the target from arg (usually a generation).
type timerTarget interface {
	fire(now time.Duration, arg int)
}

// event is one scheduled action. seq breaks ties so that events at the same
// instant run in the order they were scheduled: the simulation does not
// depend on the heap's internal order.
type event struct {
	at   time.Duration
	seq  uint64
	kind evKind
	arg  int
	ch   int // channel index of medium events
	pkt  *packet
	tgt  timerTarget
}

// eventHeap is a binary min-heap on (at, seq), typed to avoid the interface
// calls of container/heap on the simulator's hottest path.
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
	e := q[0]
	n := len(q) - 1
	q[0] = q[n]
	q[n] = event{} // drop references for the collector
	q = q[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && q.less(r, l) {
			m = r
		}
		if !q.less(m, i) {
			break
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
	*h = q
	return e
}
