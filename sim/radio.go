package sim

import (
	"time"
)

// The AP's radio changes channel when the core asks (ap.Driver.Retune) or when
// a one-trip scan moves it. A retune starts once the AP's frame on the air,
// if any, has ended: the frames still queued at the radio are flushed (the
// core's) or kept for the return (a one-trip scan stopped the queues), then
// the radio is deaf and mute for MediumConfig.RetuneTime and lands on the
// new channel, where the core is told with ap.AP.Retuned.

// radioState is where the AP's radio is going; where it is is the AP
// node's freq.
type radioState struct {
	asked    uint16 // a retune the core asked for and the radio has not begun
	target   uint16 // the channel being tuned to
	byCore   bool   // the core asked: tell it on arrival
	waitTx   bool   // the retune waits for the AP's frame on the air
	retuning bool   // deaf and mute until evRetuned
	leftHome time.Duration
	scan     *oneTrip  // a one-trip scan in progress
	held     []*packet // the core's frames waiting for a one-trip scan's return
	sweeps   uint64    // planner sweeps seen

	landed time.Duration // when it arrived where it is (survey.go)
}

func (r *radioState) busy() bool { return r.waitTx || r.retuning }

// Sweep is one sweep over the scanned channels: the planner's (from its
// start to the return of its last trip) or a one-trip scan's.
type Sweep struct {
	Start, End time.Duration
}

// Sweeps returns the sweeps completed so far, in order.
func (s *Sim) Sweeps() []Sweep { return s.sweeps }

// APFreq returns the channel the AP's radio is on (or was on, while it
// retunes).
func (s *Sim) APFreq() int { return int(s.med.nodes[0].freq) }

// startAsked begins the retune the core asked for once the radio is free:
// not retuning, not waiting to, and not on a one-trip scan.
func (s *Sim) startAsked() {
	r := &s.radio
	if r.asked == 0 || r.busy() || r.scan != nil {
		return
	}
	f := r.asked
	r.asked = 0
	s.beginRetune(f, true)
}

// beginRetune starts a retune to freq now, or when the AP's frame on the
// air ends.
func (s *Sim) beginRetune(freq uint16, byCore bool) {
	r := &s.radio
	r.target, r.byCore = freq, byCore
	if s.apOnAir() {
		r.waitTx = true
		return
	}
	s.startRetune()
}

// apOnAir reports whether a frame of the AP is on the air now.
func (s *Sim) apOnAir() bool {
	a := s.med.airOf(s.med.nodes[0].freq)
	if !a.busy {
		return false
	}
	for _, c := range a.txing {
		if c.node.id == 0 {
			return true
		}
	}
	return false
}

// startRetune empties the AP's queues and makes the radio deaf and mute
// until it is on the target channel.
func (s *Sim) startRetune() {
	r := &s.radio
	r.waitTx = false
	apn := s.med.nodes[0]
	var keep []*packet
	for i := range apn.ac {
		c := &apn.ac[i]
		for c.q.size > 0 {
			p := c.q.pop()
			switch {
			case p.own:
				s.freePacket(p)
			case r.scan != nil:
				p.attempts = 0
				keep = append(keep, p)
			default:
				s.stats.RetuneFlushed++
				s.freePacket(p)
			}
		}
		if c.active {
			s.deactivate(c)
		}
		c.cw = c.p.cwMin
	}
	if len(keep) > 0 {
		// Frames queued before the queues stopped go out before the ones
		// the core emitted since.
		r.held = append(keep, r.held...)
	}
	if apn.freq == s.med.freq && r.target != s.med.freq {
		r.leftHome = s.now
	}
	s.surveyLeave() // survey.go: the channel left reports before Retuned
	r.retuning = true
	s.stats.Retunes++
	d := s.cfg.Medium.RetuneTime
	if j := s.cfg.Medium.RetuneJitter; j > 0 {
		d += time.Duration(s.rng.Int64N(int64(j)))
	}
	s.scheduleOn(s.now+d, evRetuned, 0, 0)
}

// onRetuned puts the AP's radio on the target channel.
func (s *Sim) onRetuned() {
	r := &s.radio
	r.retuning = false
	apn := s.med.nodes[0]
	wasHome := apn.freq == s.med.freq
	apn.freq = r.target
	s.surveyArrive()
	if !wasHome && r.target == s.med.freq {
		d := s.now - r.leftHome
		s.stats.Trips++
		s.stats.Away += d
		s.stats.LongestTrip = max(s.stats.LongestTrip, d)
	}
	s.settleHome() // acs.go
	if r.scan != nil {
		r.scan.arrived()
		return
	}
	if r.byCore {
		s.core.Retuned(s.now)
		s.noteSweep()
		s.drainCore()
	}
}

// noteSweep records a sweep the core's planner completed.
func (s *Sim) noteSweep() {
	ps := s.core.ScanStats().Planner
	if ps.Sweeps > s.radio.sweeps {
		s.radio.sweeps = ps.Sweeps
		s.sweeps = append(s.sweeps, Sweep{Start: ps.SweepStart, End: ps.SweepStart + ps.LastSweep})
	}
}

// release hands the frames held during a one-trip scan back to the radio
// on the home channel.
func (s *Sim) release() {
	apn := s.med.nodes[0]
	home := s.med.airOf(apn.freq)
	for _, p := range s.radio.held {
		s.stats.Held++
		p.airtime = home.exchange(p.rate, len(p.frame())+4, p.noAck)
		s.enqueue(apn, p)
	}
	clear(s.radio.held)
	s.radio.held = s.radio.held[:0]
}
