package sim

import "time"

// evKind says what an event does when it fires.
type evKind uint8

const (
	evTick     evKind = iota + 1 // the core's deadline
	evAccess                     // a contender's backoff reaches zero; arg = the channel's generation, ch its index
	evTxEnd                      // the exchange on air ends; ch = the channel's index
	evEcho                       // a TX-status echo reaches the core
	evWiredIn                    // a host's 802.3 frame reaches the core; arg: its BSS
	evWiredOut                   // a core's 802.3 frame reaches the hosts; arg: their BSS
	evTimer                      // tgt.fire(arg)
	evRetuned                    // the AP's radio is on its new channel
)

// timerTarget is anything that owns timers: stations and traffic endpoints.
// A stale timer is recognised by the target from arg (usually a generation).
type timerTarget interface {
	fire(now time.Duration, arg int)
}

// event is one scheduled action, queued in an eventq.Queue: events at the
// same instant run in the order they were scheduled.
type event struct {
	kind evKind
	arg  int
	ch   int // channel index of medium events
	pkt  *packet
	tgt  timerTarget
}
