package txq

import (
	"errors"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// Handle names a frame owned by the caller. The queues store handles and
// lengths only; the bytes never move.
type Handle uint32

// Item is what the caller enqueues: a handle, the frame's length in bytes
// (what FQ's quantum, CoDel's backlog and the byte limits count) and the flow
// hash the caller computed from the 5-tuple.
type Item struct {
	Handle Handle
	Len    uint32
	Hash   uint32
}

// Frame is what Dequeue hands back. Enqueued is on the CoDel clock (frozen
// time excluded), Sojourn the time it spent queued on that clock.
type Frame struct {
	Handle   Handle
	Len      uint32
	Enqueued time.Duration
	Sojourn  time.Duration
}

// DropReason says why a queued frame was given back through Owner.Drop.
type DropReason uint8

const (
	DropCoDel      DropReason = iota // CoDel dropped it at dequeue
	DropQueueFull                    // the queue's frame or byte bound was hit
	DropOverlimit                    // the total frame bound was hit
	DropOvermemory                   // the total byte bound was hit
	DropFlush                        // the station was removed or its queues flushed
	NumDropReasons
)

var dropNames = [NumDropReasons]string{"codel", "queue-full", "overlimit", "overmemory", "flush"}

func (r DropReason) String() string {
	if r < NumDropReasons {
		return dropNames[r]
	}
	return "drop?"
}

// Owner owns the bytes behind the handles. Mark sets ECN CE on the frame and
// reports whether it could (false: not ECN-capable, the frame is dropped
// instead). Drop gives a handle back for good. Both are called synchronously
// from inside Enqueue, Dequeue and the station operations; they must not call
// back into the Scheduler.
type Owner interface {
	Mark(h Handle) bool
	Drop(h Handle, reason DropReason)
}

// Airtime is the airtime-queue-limit view the scheduler consults. It is called
// synchronously and must not call back into the Scheduler.
type Airtime interface {
	// PHYAllows is the per-PHY check for a new round: pending airtime of the
	// AC against (listed-1)*low/2+high, listed being the number of queues on
	// the AC's list (checked-out queues excluded).
	PHYAllows(ac ieee80211.AC, listed int) bool
	// StationAllows is the per-station AQL check; station 0 is always allowed.
	StationAllows(sta uint16, ac ieee80211.AC) bool
	// StationPending is the station's pending airtime on the AC in µs.
	StationPending(sta uint16, ac ieee80211.AC) int32
	// StationBelow is the station's pending airtime (StationPending) with
	// the per-station check split by what moves it: whether that airtime
	// is below its low and below its high limit. StationAllows is
	// belowLow || (belowHigh && TotalBelowThreshold()). Production mode
	// asks it, once per filing, when the station's pending airtime may
	// have changed (Return, Charge) or the limits did (LimitsChanged).
	StationBelow(sta uint16, ac ieee80211.AC) (pending int32, belowLow, belowHigh bool)
	// TotalBelowThreshold reports whether the radio's total pending airtime
	// is below aql_threshold.
	TotalBelowThreshold() bool
}

// Mode selects the scheduler's algorithm; both keep the same API and
// counters.
type Mode uint8

const (
	// Production keeps mac80211's long-run airtime shares with constant-time
	// decisions (see doc.go).
	Production Mode = iota
	// Trace is bit-compatible with mainline's ieee80211_next_txq.
	Trace
)

func (m Mode) String() string {
	if m == Trace {
		return "trace"
	}
	return "production"
}

// Defaults, from mac80211 unless noted.
const (
	DefaultWeight      = 256      // IEEE80211_DEFAULT_AIRTIME_WEIGHT
	DefaultMaxStations = 2007     // the AID limit
	DefaultFlows       = 4096     // fq_init(fq, 4096)
	DefaultLimit       = 8192     // fq->limit, frames
	DefaultMemoryLimit = 16 << 20 // fq->memory_limit, bytes
	DefaultQuantum     = 300      // fq->quantum, bytes
	DefaultQueueLimit  = 2048     // frames per queue (airq's own bound)
	DefaultQueueBytes  = 4 << 20  // bytes per queue (airq's own bound)

	// ActiveWindow is mac80211's keep-active window (HZ/10).
	ActiveWindow = 100 * time.Millisecond
	// SlowThresholdKbps is STA_SLOW_THRESHOLD: a station whose expected
	// throughput is below this times the number of stations gets the wide
	// CoDel parameters.
	SlowThresholdKbps = 6000
)

// Config is read once by New. Zero fields take the defaults above.
type Config struct {
	Mode Mode
	// LegacyRoundReset reproduces the kernel's reset of the round number to
	// 0 on a closed round (trace mode only; the bug of seed 000).
	LegacyRoundReset bool
	// NoSlowStationCoDel disables the slow-station CoDel adaptation
	// (mainline reverted it in 2025; airq keeps it by default).
	NoSlowStationCoDel bool

	MaxStations int // station slots 1..MaxStations
	Flows       int // hashed flows shared by all queues
	Limit       int // frames queued in total
	MemoryLimit int // bytes queued in total
	QueueLimit  int // frames per queue
	QueueBytes  int // bytes per queue
	Quantum     int // FQ quantum in bytes

	// GroupShares holds each group's stations, while two or more groups
	// have queues listed, to the group's share of the stations' pending
	// airtime by their weights (share.go): what a radio with several BSSes
	// wants, so that its queue, however deep, carries each BSS its share.
	// Airtime must then be a GroupAirtime too.
	GroupShares bool

	Airtime Airtime // required
	Owner   Owner   // required
}

func (c *Config) fill() error {
	if c.Airtime == nil || c.Owner == nil {
		return errors.New("txq: Config.Airtime and Config.Owner are required")
	}
	if _, ok := c.Airtime.(GroupAirtime); c.GroupShares && !ok {
		return errors.New("txq: Config.GroupShares needs an Airtime with GroupShare")
	}
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&c.MaxStations, DefaultMaxStations)
	def(&c.Flows, DefaultFlows)
	def(&c.Limit, DefaultLimit)
	def(&c.MemoryLimit, DefaultMemoryLimit)
	def(&c.QueueLimit, DefaultQueueLimit)
	def(&c.QueueBytes, DefaultQueueBytes)
	def(&c.Quantum, DefaultQuantum)
	if c.MaxStations > 4095 {
		return errors.New("txq: MaxStations above 4095")
	}
	if c.LegacyRoundReset && c.Mode != Trace {
		return errors.New("txq: LegacyRoundReset needs trace mode")
	}
	return nil
}
