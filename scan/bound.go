package scan

import "time"

// Bounds are the planner's guarantees, derived from the configuration. They
// hold when Next is called after every one of our beacons, at most
// Config.MaxLate after its TBTT.
type Bounds struct {
	ActivePerTrip int // active channels a trip holds at least
	TripsPerSweep int // P + ceil(A / ActivePerTrip)
	// TripSpacing is the most beacon intervals from one trip's departure to
	// the next one's: K = 1 + ceil(MinHome / BeaconInterval), plus one when
	// MissBeacon trips return after the following TBTT, plus the deferrals
	// D = min(MaxDefers, ceil((MaxDeferTime + MaxLate) / BeaconInterval)).
	TripSpacing int
	// Sweep bounds one sweep: TripsPerSweep × TripSpacing × BeaconInterval
	// + MaxLate.
	Sweep time.Duration
	// Coverage bounds the time from the first call to the first visit of any
	// channel, and between two visits of the same channel:
	// Sweep + max(Period (periodic mode) or 0, Sweep) + (K+1) × BeaconInterval + MaxLate.
	Coverage time.Duration
}

// Bound returns the planner's guarantees for the current configuration.
func (p *Planner) Bound() Bounds {
	c := &p.cfg
	bi := c.BeaconInterval
	room := c.worstRoom()
	a := min(MaxVisits, int((room-c.Retune)/(c.ProbeDelay+c.ActiveMin+c.Retune)))
	b := Bounds{ActivePerTrip: max(a, 1)}
	b.TripsPerSweep = len(p.passive) + (len(p.active)+b.ActivePerTrip-1)/b.ActivePerTrip
	k := 1 + ceilDiv(c.MinHome, bi)
	b.TripSpacing = k + min(c.MaxDefers, ceilDiv(c.MaxDeferTime+c.MaxLate, bi))
	if c.MissBeacon && len(p.passive) > 0 {
		b.TripSpacing++
	}
	b.Sweep = time.Duration(b.TripsPerSweep*b.TripSpacing)*bi + c.MaxLate
	period := time.Duration(0)
	if c.Mode == Periodic {
		period = c.Period
	}
	b.Coverage = b.Sweep + max(period, b.Sweep) + time.Duration(k+1)*bi + c.MaxLate
	return b
}

func ceilDiv(a, b time.Duration) int { return int((a + b - 1) / b) }
