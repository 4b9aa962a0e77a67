package kernelmodel

import (
	"time"

	"github.com/airq/airq/radio"
)

// Arm selects the scheduler's round handling.
type Arm uint8

const (
	// Legacy resets the round number to 0 on a closed round, as mainline
	// mac80211 does (txq.Config.LegacyRoundReset).
	Legacy Arm = iota
	// Fixed keeps the number and tracks openness in a separate flag.
	Fixed
)

func (a Arm) String() string {
	if a == Fixed {
		return "fixed"
	}
	return "legacy"
}

// Traffic selects where the TCP download comes from.
type Traffic uint8

const (
	// Wired is a download forwarded from a host behind a 1 Gbit/s link:
	// the network stack's arrivals start rounds at the link's pace.
	Wired Traffic = iota
	// TSQ is a download generated on the AP, held to TCP small queues.
	TSQ
)

func (t Traffic) String() string {
	if t == TSQ {
		return "tsq"
	}
	return "wired"
}

// Limits of the seed (BE aql_txq_limit 500/1000 µs) and mac80211's defaults.
const (
	SeedLow, SeedHigh       = 500, 1000
	DefaultLow, DefaultHigh = 5000, 12000
)

// DefaultDuration is the seed's run length.
const DefaultDuration = 20 * time.Second

// DefaultRate is the link of every arm: 1x1 VHT80. The MCS and guard
// interval were picked by the calibration rule of docs/closed-rounds.md
// (fixed arm, paced download, seed limits: closest to 95 Mbit/s).
var DefaultRate = radio.Rate{Mode: radio.ModeVHT, MCS: 3, NSS: 1, Bandwidth: radio.BW80, ShortGI: true}

// Config is one run.
type Config struct {
	Arm     Arm
	Traffic Traffic
	// LimitLow and LimitHigh are BE's aql_txq_limit in µs; zero means the
	// seed's 500/1000.
	LimitLow, LimitHigh uint32
	Seed                uint64
	// Duration is simulated time; zero means DefaultDuration.
	Duration time.Duration
	// Rate is the link; the zero Rate means DefaultRate.
	Rate radio.Rate
	// Variant is a mechanism tested after the primary result; the zero
	// Variant is the pre-registered model.
	Variant Variant
}

func (c *Config) fill() {
	if c.LimitLow == 0 && c.LimitHigh == 0 {
		c.LimitLow, c.LimitHigh = SeedLow, SeedHigh
	}
	if c.Duration <= 0 {
		c.Duration = DefaultDuration
	}
	if c.Rate == (radio.Rate{}) {
		c.Rate = DefaultRate
	}
}

// Result is what one run measured, over the whole run.
type Result struct {
	Mbps float64 // TCP payload delivered to the station, Mbit/s
	// Scheduler counters of BE (txq.ACStats).
	RoundsOpened, RoundsClosed uint64
	Selections                 uint64
	Skipped, SkippedStale      uint64
	// Driver and medium.
	Aggregates   uint64
	AggFrames    float64 // mean subframes per A-MPDU
	MediumIdle   float64 // fraction of time the AP had nothing on air or queued
	CoDelDrops   uint64
	TSQThrottles uint64 // times the sender stopped on the small-queue limit
	Probes, RTOs uint64 // sender timers that fired: tail loss probes, timeouts
	FinalCwnd    float64
}
