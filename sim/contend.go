package sim

import (
	"slices"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// EDCA as the simulator plays it. Each contender counts its backoff in
// slots from readyAt (the end of its AIFS after the medium went idle); the
// first to reach zero seizes the medium and the others freeze what is left
// of their counts. Backoffs are drawn uniformly in [0, CW]; CW doubles (up
// to CWmax) after a failed attempt and returns to CWmin after the frame is
// done, when a new backoff is drawn at once (post-backoff).

// enqueue puts p in its transmitter's queue for p.ac, contending on the
// node's channel; false when the queue is full (the frame is dropped and
// counted by the caller).
func (s *Sim) enqueue(n *node, p *packet) bool {
	c := &n.ac[p.ac]
	if c.limit > 0 && c.q.size >= c.limit {
		return false
	}
	p.from = n.id
	c.q.push(p)
	if !c.active {
		a := s.med.airOf(n.freq)
		c.active, c.air = true, a
		a.active = append(a.active, c)
		if !a.busy {
			c.readyAt = s.now + a.aifs(c)
			s.scheduleAccess(a)
		}
	}
	return true
}

// deactivate takes an emptied contender out of its channel's contention.
func (s *Sim) deactivate(c *contender) {
	c.active = false
	c.air.active = slices.DeleteFunc(c.air.active, func(x *contender) bool { return x == c })
}

func (c *contender) accessAt(slot time.Duration) time.Duration {
	return c.readyAt + time.Duration(c.backoff)*slot
}

// scheduleAccess arms one access event at the earliest contender's time on
// a; a newer generation makes older access events void.
func (s *Sim) scheduleAccess(a *air) {
	a.gen++
	if a.busy || len(a.active) == 0 {
		return
	}
	at := a.active[0].accessAt(a.slot)
	for _, c := range a.active[1:] {
		at = min(at, c.accessAt(a.slot))
	}
	s.scheduleOn(at, evAccess, a.gen, a.idx)
}

func (s *Sim) onAccess(a *air, gen int) {
	if gen != a.gen || a.busy {
		return
	}
	a.txing = a.txing[:0]
	for _, c := range a.active {
		if c.accessAt(a.slot) == s.now {
			a.txing = append(a.txing, c)
			continue
		}
		if s.now > c.readyAt {
			c.backoff -= int((s.now - c.readyAt) / a.slot)
		}
	}
	if len(a.txing) > 1 && !s.cfg.Medium.Collisions {
		// Without collisions the first contender goes; the others keep a
		// zero backoff and go right after the next AIFS.
		for _, c := range a.txing[1:] {
			c.backoff = 0
		}
		a.txing = a.txing[:1]
	}
	var dur uint32
	for _, c := range a.txing {
		p := c.q.peek()
		if p.attempts == 0 {
			s.log.bytes(p.b)
		}
		s.stats.TxAttempts++
		dur = max(dur, p.airtime)
		if p.from == 0 {
			s.onAPAttempt(a, p)
		} else if st := c.node.sta; st != nil && st.flooder() {
			s.stats.FloodAirtime += time.Duration(p.airtime) * time.Microsecond
		}
	}
	if len(a.txing) > 1 {
		s.stats.Collisions++
	}
	a.busy = true
	d := time.Duration(dur) * time.Microsecond
	a.onAir += d
	a.busyUntil = s.now + d
	s.surveyHeard(a, d) // survey.go

	if a.freq == s.med.freq { // home: airs[0], or the channel ACS chose
		s.stats.Busy += d
	}
	s.scheduleOn(s.now+d, evTxEnd, 0, a.idx)
}

// onAPAttempt books one attempt of the AP's radio.
func (s *Sim) onAPAttempt(a *air, p *packet) {
	fr := p.frame()
	if fr.Type() != ieee80211.TypeMgmt {
		return
	}
	if fr.Subtype() != ieee80211.SubtypeBeacon {
		s.stats.APMgmtAirtime += time.Duration(p.airtime) * time.Microsecond
	} else if p.attempts == 0 && a.freq == s.med.freq {
		s.stats.Beacons++
		// Beacons are due at multiples of the interval from the start,
		// each BSS's a share of the interval after the one before.
		s.stats.BeaconLateMax = max(s.stats.BeaconLateMax, (s.now-s.med.tbttOffset(fr.Addr2()))%s.med.beaconInterval)
	}
}

// onTxEnd settles every attempt that was on the air of a, then opens the
// next contention there.
func (s *Sim) onTxEnd(a *air) {
	a.busy = false
	collided := len(a.txing) > 1
	apDone := false
	// Settling makes stations and the core transmit again (enqueue), which
	// never touches txing.
	for _, c := range a.txing {
		apDone = apDone || c.node.id == 0
		s.settle(a, c, collided)
	}
	for _, c := range a.active {
		c.readyAt = s.now + a.aifs(c)
	}
	s.scheduleAccess(a)
	if apDone && s.radio.waitTx {
		s.startRetune()
	}
}

// settle decides one attempt: delivered or not, acknowledged or not, and
// whether the frame is done.
func (s *Sim) settle(a *air, c *contender, collided bool) {
	p := c.q.peek()
	p.attempts++
	if p.group {
		if !collided {
			s.deliverGroup(a, p)
		}
		s.done(c, true)
		return
	}
	rx, ok := s.receiverOf(a, p)
	lost := collided || !ok || s.rng.Float64() < s.linkLoss(p, rx)
	if !lost {
		s.deliver(a, p, rx)
		if p.noAck || !s.unacked(p, rx) && s.rng.Float64() >= s.ackLoss(p, rx) {
			s.done(c, true)
			return
		}
	}
	if p.noAck || p.attempts >= p.limit {
		if c.node.sta != nil && !s.apHears(c.node.freq) {
			s.stats.UplinkLostAway++
		}
		s.done(c, false)
		return
	}
	p.frame().SetRetry(true)
	c.cw = min(2*c.cw+1, c.p.cwMax)
	c.backoff = s.rng.IntN(c.cw + 1)
}

// done removes the head frame of c: echo it to the core if the AP sent it,
// count it, and draw the post-backoff.
func (s *Sim) done(c *contender, ok bool) {
	p := c.q.pop()
	p.acked = ok
	c.cw = c.p.cwMin
	c.backoff = s.rng.IntN(c.cw + 1)
	if c.q.size == 0 {
		s.deactivate(c)
	}
	if st := c.node.sta; st != nil && st.floodSt != nil {
		st.floodLeft()
	}
	switch {
	case c.node.bss != nil, p.own:
		s.freePacket(p)
	default:
		s.count(p)
		if p.from == 0 {
			s.echo(p)
			return
		}
		s.freePacket(p)
	}
}
