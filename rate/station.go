package rate

import (
	"errors"
	"time"

	"github.com/airq/airq/radio"
)

// AirtimeFunc returns the airtime in µs of one attempt to send a psduLen
// octet frame at r, channel access and ACK included (aql.Estimator.Airtime
// for the data AC, bound by the caller), or 0 for a rate the PHY does not
// define.
type AirtimeFunc func(r radio.Rate, psduLen int) uint32

// Defaults of Config.
const (
	DefaultFrameLen      = 1538 // 1500-octet MSDU: QoS header 26, LLC/SNAP 8, FCS 4
	DefaultMaxRetries    = 7    // minstrel's max_retry
	DefaultSampleShare   = 0.05
	MaxSampleShare       = 0.10
	DefaultInterval      = 50 * time.Millisecond // minstrel_ht's update interval
	DefaultSampleRetries = 1
)

// Config describes one station's link. Airtime, AP and Station are
// required; the rest has defaults.
type Config struct {
	Airtime  AirtimeFunc
	Width    radio.Bandwidth // operating channel width; 0 means 20 MHz
	Band2GHz bool            // DSSS/CCK rates exist only on 2.4 GHz
	AP       Caps            // what airq announces (and the radio can inject)
	Station  Caps            // what the station announced

	// FrameLen is the PSDU length, in octets, of the reference frame whose
	// airtime ranks the rates.
	FrameLen int
	// MaxRetries caps the data retries (attempts - 1) of a frame.
	MaxRetries uint8
	// SampleRetries is the retry count of a sampling frame: a rate that is
	// being tried should not hold the medium as long as a trusted one.
	SampleRetries uint8
	// SampleShare is the largest share of frames that sample; it is capped
	// at MaxSampleShare. Zero means DefaultSampleShare; negative disables.
	SampleShare float64
	// Interval is how much of the caller's time passes between two folds
	// of the per-rate counters into the averages.
	Interval time.Duration
	// Seed seeds the sampling PRNG, so that a run is reproducible and two
	// stations do not sample in step.
	Seed uint64
}

// ErrConfig reports a Config without an airtime function.
var ErrConfig = errors.New("rate: config has no airtime function")

// ErrNoRates reports a station with which the AP shares no rate.
var ErrNoRates = errors.New("rate: no rate in common with the station")

// entry is one rate of a station's table.
type entry struct {
	rate     radio.Rate
	airtime  uint32 // µs, one attempt of the reference frame
	retries  uint8  // data retries when this rate carries data
	seen     bool   // prob holds a measurement
	prob     float64
	weight   float64 // attempts behind prob, capped by evidence when folded
	run      uint64  // attempts since the average last started afresh
	epoch    uint64  // the update that last measured this rate
	tp       float64 // expected throughput, Mbit/s
	att      uint32  // attempts in the current interval
	succ     uint32
	lastAtt  uint32 // the previous interval's counts, for Stats
	lastSucc uint32
	attSum   uint64
	succSum  uint64
	samples  uint64 // frames that sampled this rate
	skipExp  uint8  // sampling backoff: 2^skipExp intervals after a poor sample
	skipTill uint64 // the update from which this rate may be sampled again
}

// Fallback chain positions.
const (
	levelBest = iota
	levelSecond
	levelRobust
	levelMid
	levelLowest
	levels
)

// Station selects rates for one station. It is not safe for concurrent use.
type Station struct {
	cfg   Config
	n     int
	rates [maxRates]entry
	index [keySpace]uint8 // rate key -> table position, noRate if absent

	chain     [levels]int // table positions: best, second, robust, mid, lowest
	level     int         // position in chain used for data now
	bestFails uint8       // frames lost at the best rate since the update

	started    bool
	nextUpdate time.Duration
	epoch      uint64 // updates so far

	rng        uint64
	shareNum   uint64 // the sample share is shareNum/shareDen
	frames     uint64
	samplesAll uint64
	inc        int // next of the rates just above the best to sample
	cand       int // a rate that would beat the best on too few attempts, or -1
	unknown    uint64
}

const shareDen = 1 << 16

// New builds the station's rate table: the rates both cfg.AP and
// cfg.Station support, within the channel width, fastest first.
func New(cfg Config) (*Station, error) {
	if cfg.Airtime == nil {
		return nil, ErrConfig
	}
	cfg = cfg.withDefaults()
	s := &Station{cfg: cfg, rng: cfg.Seed ^ 0x9e3779b97f4a7c15}
	s.shareNum = uint64(cfg.SampleShare * shareDen)
	s.build(intersect(cfg.AP, cfg.Station, cfg.Width, cfg.Band2GHz))
	if s.n == 0 {
		return nil, ErrNoRates
	}
	s.initChain()
	s.cand = -1
	return s, nil
}

func (c Config) withDefaults() Config {
	switch c.Width {
	case radio.BW40, radio.BW80, radio.BW160:
	default:
		c.Width = radio.BW20
	}
	if c.FrameLen <= 0 {
		c.FrameLen = DefaultFrameLen
	}
	if c.MaxRetries == 0 {
		c.MaxRetries = DefaultMaxRetries
	}
	if c.SampleRetries == 0 {
		c.SampleRetries = DefaultSampleRetries
	}
	switch {
	case c.SampleShare == 0:
		c.SampleShare = DefaultSampleShare
	case c.SampleShare < 0:
		c.SampleShare = 0
	case c.SampleShare > MaxSampleShare:
		c.SampleShare = MaxSampleShare
	}
	if c.Interval <= 0 {
		c.Interval = DefaultInterval
	}
	return c
}

// initChain starts a new station half way down its table: nothing is
// known yet, sampling climbs from there, and if the middle is too fast
// the failures walk the chain down to the lowest rate within four frames.
func (s *Station) initChain() {
	low := s.n - 1
	s.chain = [levels]int{low / 2, low * 3 / 4, low * 3 / 4, low * 7 / 8, low}
}

// Pick returns the rate and data retry count for the next unicast data
// frame, and whether the frame samples a rate other than the current best.
// now is the caller's monotonic time; it drives the statistics updates.
func (s *Station) Pick(now time.Duration) (r radio.Rate, retries uint8, sample bool) {
	s.tick(now)
	s.frames++
	if i := s.sample(); i >= 0 {
		e := &s.rates[i]
		e.samples++
		s.samplesAll++
		if e.seen && e.prob < probFloor {
			// A rate that failed its last samples is probed with one
			// attempt: a second would most likely fail too, and the
			// frame would be lost either way.
			return e.rate, 0, true
		}
		return e.rate, min(s.cfg.SampleRetries, e.retries), true
	}
	e := &s.rates[s.chain[s.level]]
	if s.level > levelBest {
		return e.rate, s.cfg.MaxRetries, false // the last try of this frame's data
	}
	return e.rate, e.retries, false
}

// Report feeds one TX-status echo back: the rate the frame went out at,
// how many attempts it took (retries + 1; 0 counts as 1) and whether it was
// acknowledged. Echoes of frames sent without an ACK request must not be
// reported. A rate outside the table (a driver that ignored the requested
// rate) is counted and otherwise ignored.
func (s *Station) Report(r radio.Rate, attempts int, acked bool, now time.Duration) {
	s.tick(now)
	k := key(r)
	if k < 0 || s.index[k] == noRate {
		s.unknown++
		return
	}
	i := int(s.index[k])
	e := &s.rates[i]
	attempts = max(attempts, 1)
	e.att += uint32(attempts)
	if acked {
		e.succ++
	}
	if i != s.chain[s.level] {
		return
	}
	switch {
	case !acked && s.level < levelLowest:
		// No retry chain inside a frame: the next frame falls back instead.
		if s.level == levelBest {
			s.bestFails++
		}
		s.level++
	case acked && s.level > levelBest && s.bestFails < maxBestFails:
		s.level = levelBest
	}
}

// tick folds the counters into the averages once per interval. Inlined:
// every Pick and Report asks, and most find the interval running.
func (s *Station) tick(now time.Duration) {
	if !s.started || now >= s.nextUpdate {
		s.tickDue(now)
	}
}

// tickDue is tick past its test: the first call, or an interval over.
func (s *Station) tickDue(now time.Duration) {
	if !s.started {
		s.started, s.nextUpdate = true, now+s.cfg.Interval
		return
	}
	s.update()
	s.nextUpdate = now + s.cfg.Interval
}
