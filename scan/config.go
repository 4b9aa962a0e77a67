package scan

import (
	"errors"
	"fmt"
	"time"
)

// Channel is one 20 MHz channel the planner may visit.
type Channel struct {
	Freq     int  // centre frequency, MHz
	Passive  bool // no-IR or radar: listen only, never probe
	Disabled bool // not allowed by regulation or configuration: never visited
}

// Mode says when sweeps run.
type Mode uint8

const (
	// Continuous starts a new sweep as soon as the previous one ends.
	Continuous Mode = iota
	// Periodic starts a sweep every Config.Period, as vendor APs do.
	Periodic
)

func (m Mode) String() string {
	if m == Periodic {
		return "periodic"
	}
	return "continuous"
}

// Defaults. The dwell values are justified in the package documentation.
const (
	DefaultBudget       = 125 * time.Millisecond // mac80211's HZ/8 off-channel budget
	DefaultGuard        = 3 * time.Millisecond
	DefaultProbeDelay   = 5 * time.Millisecond
	DefaultActiveMin    = 20 * time.Millisecond // listen after the probe, at least
	DefaultActiveMax    = 55 * time.Millisecond // so a dwell never exceeds 60 ms
	DefaultPassiveMin   = 20 * time.Millisecond
	DefaultPassiveMax   = 110 * time.Millisecond // mac80211's PASSIVE_CHANNEL_TIME
	DefaultMinHome      = 200 * time.Millisecond // mac80211's HZ/5 stay home
	DefaultPeriod       = 60 * time.Second
	DefaultMaxDefers    = 5
	DefaultMaxDeferTime = time.Second
	DefaultMaxLate      = 5 * time.Millisecond
	DefaultDrain        = 2 * time.Millisecond
	DefaultStartupDwell = 100 * time.Millisecond // hostapd ACS: ~100 ms per channel
	DefaultStartupRuns  = 5                      // hostapd's acs_num_scans
)

// MaxVisits bounds the channels of one trip, so a Trip is a fixed-size value.
const MaxVisits = 8

// Config describes the radio, the BSS and the operator's scan policy. Zero
// durations and counts take the defaults above.
type Config struct {
	Channels       []Channel
	Home           int           // operating frequency, MHz; never visited by trips
	BeaconInterval time.Duration // our beacon period (TU × 1024 µs); required
	Retune         time.Duration // measured time of one retune; 0 is allowed
	Guard          time.Duration // margin before the next TBTT
	Budget         time.Duration // longest trip
	// Drain is the time the core needs between Next and Leave to stop
	// starting rounds and collect in-flight TX-status echoes; records still
	// open at Leave take the no-status path. Trips leave Drain after now.
	Drain time.Duration

	Mode   Mode
	Period time.Duration // Periodic: from one sweep start to the next

	// MaxDefers and MaxDeferTime bound how long a due trip may be postponed
	// because the caller reports load: at most MaxDefers calls and less
	// than MaxDeferTime; then the trip goes anyway. MaxDefers < 0 never defers.
	MaxDefers    int
	MaxDeferTime time.Duration

	// MissBeacon allows one missed beacon per passive visit: every odd visit
	// of a passive channel is centred on our TBTT (see the package doc).
	MissBeacon bool

	ProbeDelay time.Duration // from tuned to the probe requests
	ActiveMin  time.Duration // listen time after the probe, at least
	ActiveMax  time.Duration // listen time after the probe, at most
	PassiveMin time.Duration // a shorter passive visit is not worth a trip
	PassiveMax time.Duration
	MinHome    time.Duration // from one trip's return to the next departure

	// MaxLate is how long after a TBTT the core may call Next and still get
	// full trips; the coverage bound (Planner.Bound) assumes it.
	MaxLate time.Duration

	StartupDwell time.Duration // per channel and run of the start-up scan
	StartupRuns  int           // runs over the whole list, like acs_num_scans
}

// ErrConfig is wrapped by every configuration error.
var ErrConfig = errors.New("scan: invalid configuration")

func (c *Config) setDefaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&c.Guard, DefaultGuard)
	def(&c.Budget, DefaultBudget)
	def(&c.Period, DefaultPeriod)
	def(&c.MaxDeferTime, DefaultMaxDeferTime)
	def(&c.ProbeDelay, DefaultProbeDelay)
	def(&c.ActiveMin, DefaultActiveMin)
	def(&c.ActiveMax, DefaultActiveMax)
	def(&c.PassiveMin, DefaultPassiveMin)
	def(&c.PassiveMax, DefaultPassiveMax)
	def(&c.MinHome, DefaultMinHome)
	def(&c.MaxLate, DefaultMaxLate)
	def(&c.Drain, DefaultDrain)
	def(&c.StartupDwell, DefaultStartupDwell)
	if c.MaxDefers == 0 {
		c.MaxDefers = DefaultMaxDefers
	}
	if c.MaxDefers < 0 {
		c.MaxDefers = 0
	}
	if c.StartupRuns == 0 {
		c.StartupRuns = DefaultStartupRuns
	}
	if c.ActiveMax < c.ActiveMin {
		c.ActiveMax = c.ActiveMin
	}
	if c.PassiveMax < c.PassiveMin {
		c.PassiveMax = c.PassiveMin
	}
}

// limit is the longest trip: min(Budget, BeaconInterval − 2×Retune − Guard).
// It counts the whole excursion, both retunes included, so against the TBTT
// it keeps a further 2×Retune spare: a home retune may take three times its
// measured time and the beacon still goes out.
func (c *Config) limit() time.Duration {
	return min(c.Budget, c.BeaconInterval-2*c.Retune-c.Guard)
}

// worstRoom is the trip length available when Next is called MaxLate after
// a TBTT: what the coverage bound can count on.
func (c *Config) worstRoom() time.Duration {
	return min(c.limit(), c.BeaconInterval-c.MaxLate-c.Drain-c.Guard)
}

func (c *Config) validate(active, passive int) error {
	switch {
	case c.BeaconInterval <= 0:
		return fmt.Errorf("%w: beacon interval %v", ErrConfig, c.BeaconInterval)
	case c.Retune < 0 || c.Guard < 0 || c.MaxLate < 0 || c.Drain < 0:
		return fmt.Errorf("%w: negative retune, guard, drain or lateness", ErrConfig)
	}
	room := c.worstRoom()
	if active > 0 && room < c.ProbeDelay+c.ActiveMin+2*c.Retune {
		return fmt.Errorf("%w: a %v trip cannot hold one active channel (%v + 2 retunes of %v)",
			ErrConfig, room, c.ProbeDelay+c.ActiveMin, c.Retune)
	}
	if passive > 0 && room < c.PassiveMin+2*c.Retune {
		return fmt.Errorf("%w: a %v trip cannot hold one passive channel (%v + 2 retunes of %v)",
			ErrConfig, room, c.PassiveMin, c.Retune)
	}
	return nil
}
