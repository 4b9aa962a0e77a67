package kernelmodel

import "time"

// Variant changes one mechanism of the pre-registered model. The zero
// Variant is the pre-registered model itself. Every variant was chosen after
// the primary result was known (the paced-download ratio of 1.00), to test a
// mechanism the kernel or driver source suggests could make a lost round
// cost throughput; none is part of the primary result. docs/closed-rounds.md
// gives the source each one rests on.
type Variant struct {
	// Worker: neither wake_tx_queue nor a completion runs a round inline;
	// both schedule one worker (mt76_wake_tx_queue -> mt76_worker_schedule),
	// which runs WorkerDelay later. Requests made before it runs are
	// coalesced into that one run; a request made while it runs gives one
	// more run (MT76_WORKER_SCHEDULED / MT76_WORKER_RUNNING).
	Worker      bool
	WorkerDelay time.Duration
	// WorkerLoop: a worker run repeats rounds while the last one handed
	// frames to the device (mt76_txq_schedule's do { ... } while (len > 0)).
	WorkerLoop bool
	// BusyGate: a new frame runs a round only while the device holds no
	// frame of BE; completions drive the rounds while it is busy.
	BusyGate bool
	// NoCompletionRound: only new frames run rounds, as mainline ath11k with
	// ieee80211_handle_wake_tx_queue (no driver scheduler on completion).
	NoCompletionRound bool
	// TSQDelay: the TSQ handler runs this long after the completion that
	// freed the sender's frames (BH work behind other softirq work, or
	// TCP_TSQ_DEFERRED until the application releases the socket).
	TSQDelay time.Duration
	// TSQDrain: tcp_wfree's ksoftirqd rule, as if every completion were
	// serviced by ksoftirqd: no TSQ wake while any other frame of the
	// socket is still below it (sk_wmem_alloc >= SKB_TRUESIZE(1)).
	TSQDrain bool
	// TSQFirst: the TSQ handler's frames reach mac80211 before the
	// completion round runs (a driver whose round runs after the TSQ work).
	TSQFirst bool
	// CompletionDelay: the driver processes an aggregate's TX completion
	// (AQL release, skb free and tcp_wfree, the completion round) this long
	// after its BlockAck, while the station's TCP ACK is on its way: status
	// reports that lag the air, or a NAPI poll that delivers received
	// frames before it reaps completions (ath10k_htt_txrx_compl_task).
	// Swept with TSQDrain in the sweep of docs/closed-rounds.md.
	CompletionDelay time.Duration
	// StationLowOnly: the per-station check admits only below the low
	// limit (500 µs at the seed's limits), as when aql_total_pending_airtime
	// is at or above aql_threshold.
	StationLowOnly bool
}
