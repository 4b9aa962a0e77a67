package scan

import "time"

// Visit is one channel of a trip. Times are on the caller's clock.
type Visit struct {
	Freq    int           // MHz
	Start   time.Duration // tuned to Freq: listening begins
	Dwell   time.Duration // listening time; the retune onwards starts at Start+Dwell
	Probe   bool          // active: send probe requests at ProbeAt
	ProbeAt time.Duration // Start + ProbeDelay when Probe is set
}

// End returns when listening on the channel stops.
func (v Visit) End() time.Duration { return v.Start + v.Dwell }

// Trip is one excursion off the home channel: retune away at Leave, visit
// each channel in order (a retune before each), retune home at the last
// visit's End, and be back on the home channel at Return.
type Trip struct {
	Leave  time.Duration
	Return time.Duration
	N      int // visits used in Visits
	Visits [MaxVisits]Visit

	Passive bool // one passive channel
	// MissesBeacon marks a passive visit centred on our TBTT (Config.MissBeacon):
	// the beacon due at TBTT is not sent.
	MissesBeacon bool
	TBTT         time.Duration // the TBTT the trip must not cross (or, if MissesBeacon, crosses)
	Sweep        uint64        // sweep the trip belongs to, from 1
}

// List returns the visits of the trip.
func (t *Trip) List() []Visit { return t.Visits[:t.N] }

// Len returns the whole excursion, both retunes included.
func (t *Trip) Len() time.Duration { return t.Return - t.Leave }

// activeTrip packs up to n active channels from freqs into a trip leaving at
// leave with room to spare at most. Each dwell is the minimum stretched
// evenly over the room, capped at the maximum. It returns false if not even
// one channel fits.
func (p *Planner) activeTrip(t *Trip, leave, room time.Duration, freqs []int) bool {
	c := &p.cfg
	r := c.Retune
	minDwell, maxDwell := c.ProbeDelay+c.ActiveMin, c.ProbeDelay+c.ActiveMax
	n := int((room - r) / (minDwell + r))
	n = min(n, len(freqs), MaxVisits)
	if n < 1 {
		return false
	}
	dwell := min((room-r)/time.Duration(n)-r, maxDwell)
	dwell = dwell.Truncate(time.Microsecond)
	at := leave + r
	for i := range n {
		t.Visits[i] = Visit{Freq: freqs[i], Start: at, Dwell: dwell, Probe: true, ProbeAt: at + c.ProbeDelay}
		at += dwell + r
	}
	t.Leave, t.Return, t.N, t.Passive = leave, at, n, false
	return true
}

// passiveTrip plans one passive visit of freq, its visit-th. Even visits (or
// all, without MissBeacon) listen between our beacons, shifted within any
// slack by the rotation; odd visits with MissBeacon are centred on tbtt.
func (p *Planner) passiveTrip(t *Trip, now, tbtt time.Duration, freq int, visit uint64) bool {
	c := &p.cfg
	r := c.Retune
	if c.MissBeacon && visit%2 == 1 {
		l := min(p.limit, c.PassiveMax+2*r)
		leave := max(now, tbtt-l/2)
		if leave+l <= tbtt || leave+l > tbtt+c.BeaconInterval-c.Guard {
			return false
		}
		p.onePassive(t, leave, l-2*r, freq)
		t.MissesBeacon = true
		return true
	}
	gap := tbtt - c.Guard - now
	listen := min(c.PassiveMax, min(p.limit, gap)-2*r)
	if listen < c.PassiveMin {
		return false
	}
	slack := gap - listen - 2*r
	p.onePassive(t, now+rotate(slack, visit), listen, freq)
	return true
}

func (p *Planner) onePassive(t *Trip, leave, listen time.Duration, freq int) {
	r := p.cfg.Retune
	listen = listen.Truncate(time.Microsecond)
	t.Visits[0] = Visit{Freq: freq, Start: leave + r, Dwell: listen}
	t.Leave, t.Return, t.N, t.Passive = leave, leave+listen+2*r, 1, true
}

// rotate returns slack×frac(visit×φ'), φ' = 0.618…, in fixed point: the
// golden-ratio sequence keeps any run of successive visits spread evenly
// over the slack, with no period to align with a foreign beacon interval.
func rotate(slack time.Duration, visit uint64) time.Duration {
	if slack <= 0 {
		return 0
	}
	const phi = 40503 // 65536 × 0.618034
	f := (visit * phi) & 0xffff
	return (slack * time.Duration(f) >> 16).Truncate(time.Microsecond)
}
