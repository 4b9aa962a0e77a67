package scan

import "time"

// Planner decides when to leave the home channel, where to go and for how
// long. Create it with New; call Next after each of our beacons.
type Planner struct {
	cfg   Config
	limit time.Duration

	active  []int // indices into cfg.Channels: probed channels of a sweep
	passive []int // indices into cfg.Channels: listen-only channels
	ch      []ChannelStatus
	freqBuf [MaxVisits]int

	sw       sweepState
	lastBack time.Duration // Return of the last trip
	tripped  bool          // a trip has been planned
	deferral deferral
	stats    Stats
}

// sweepState is the progress through one pass over all channels.
type sweepState struct {
	on          bool
	start       time.Duration
	nextStart   time.Duration // Periodic: the next sweep may not start earlier
	ai, pi      int           // next active and passive channel
	wantPassive bool          // alternate trip kinds while both remain
}

// deferral bounds how long load may postpone a due trip.
type deferral struct {
	on    bool
	since time.Duration
	n     int
}

// ChannelStatus is the planner's record of one configured channel.
type ChannelStatus struct {
	Channel
	Visits    uint64
	LastVisit time.Duration // Start of the last visit
	Dwell     time.Duration // total listening time
	// Phases has bit b set once a visit listened over the whole of phase
	// bin b: [b, b+1) × BeaconInterval/32 after one of our TBTTs.
	Phases uint32
}

// Stats are the planner's running totals.
type Stats struct {
	Trips, ActiveVisits, PassiveVisits uint64
	Sweeps                             uint64        // sweeps completed
	SweepStart                         time.Duration // start of the current or last sweep
	LastSweep                          time.Duration // duration of the last complete sweep
	LongestSweep                       time.Duration
	LongestTrip                        time.Duration
	Deferred                           uint64 // calls that postponed a due trip under load
	Forced                             uint64 // trips taken under load: the deferral bound ran out
	MissedBeacons                      uint64 // beacons skipped by MissesBeacon trips
	NoRoom                             uint64 // due trips that did not fit before the next TBTT
}

// New returns a planner for cfg. The channel list is copied.
func New(cfg Config) (*Planner, error) {
	cfg.setDefaults()
	cfg.Channels = append([]Channel(nil), cfg.Channels...)
	p := &Planner{cfg: cfg, ch: make([]ChannelStatus, len(cfg.Channels))}
	for i, c := range cfg.Channels {
		p.ch[i].Channel = c
		switch {
		case c.Disabled || c.Freq == cfg.Home:
		case c.Passive:
			p.passive = append(p.passive, i)
		default:
			p.active = append(p.active, i)
		}
	}
	if err := cfg.validate(len(p.active), len(p.passive)); err != nil {
		return nil, err
	}
	p.limit = cfg.limit()
	return p, nil
}

// Config returns the configuration in effect, defaults filled in.
func (p *Planner) Config() Config { return p.cfg }

// Limit returns the longest trip: min(Budget, BeaconInterval − 2×Retune − Guard).
func (p *Planner) Limit() time.Duration { return p.limit }

// SetRetune updates the measured retune time. It fails, changing nothing,
// if a trip could no longer hold one channel.
func (p *Planner) SetRetune(d time.Duration) error {
	c := p.cfg
	c.Retune = d
	if err := c.validate(len(p.active), len(p.passive)); err != nil {
		return err
	}
	p.cfg, p.limit = c, c.limit()
	return nil
}

// Stats returns the running totals.
func (p *Planner) Stats() Stats { return p.stats }

// Channels appends the status of every configured channel to dst.
func (p *Planner) Channels(dst []ChannelStatus) []ChannelStatus { return append(dst, p.ch...) }

// Sweeping reports whether a sweep is in progress and how many of its
// channels have been visited.
func (p *Planner) Sweeping() (on bool, done, total int) {
	return p.sw.on, p.sw.ai + p.sw.pi, len(p.active) + len(p.passive)
}
