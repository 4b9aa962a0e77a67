package kernelmodel

import "time"

// evKind says what an event does when it fires.
type evKind uint8

const (
	evTxStart     evKind = iota + 1 // the AP's backoff ends: the A-MPDU goes on air
	evTxDone                        // BlockAck received: the exchange ends
	evComplete                      // the driver processes the aggregate's TX completion
	evUplinkDone                    // the station's TCP ACK has crossed the medium
	evHostAck                       // a TCP ACK reaches the wired host
	evTSQWake                       // the TSQ tasklet runs after a completion
	evIngressDone                   // the host's NIC finished serialising a frame
	evArrive                        // a forwarded frame reaches the AP's stack
	evTLP                           // the sender's loss-probe or retransmission timer
	evWorker                        // the driver's worker thread runs (Worker variant)
)

// event is one scheduled action, queued in an eventq.Queue: events at the
// same instant run in the order they were scheduled.
type event struct {
	kind  evKind
	n     int32         // segments acknowledged (ACK events) or frame index
	since time.Duration // send time of the oldest segment acknowledged
}
