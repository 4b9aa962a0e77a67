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

// enqueue puts p in its transmitter's queue for p.ac; false when the queue
// is full (the frame is dropped and counted by the caller).
func (s *Sim) enqueue(n *node, p *packet) bool {
	c := &n.ac[p.ac]
	if c.limit > 0 && c.q.size >= c.limit {
		return false
	}
	p.from = n.id
	c.q.push(p)
	if !c.active {
		c.active = true
		s.med.active = append(s.med.active, c)
		if !s.med.busy {
			c.readyAt = s.now + s.med.aifs(c.ac)
			s.scheduleAccess()
		}
	}
	return true
}

func (c *contender) accessAt(slot time.Duration) time.Duration {
	return c.readyAt + time.Duration(c.backoff)*slot
}

// scheduleAccess arms one access event at the earliest contender's time;
// a newer generation makes older access events void.
func (s *Sim) scheduleAccess() {
	m := &s.med
	m.gen++
	if m.busy || len(m.active) == 0 {
		return
	}
	at := m.active[0].accessAt(m.slot)
	for _, c := range m.active[1:] {
		at = min(at, c.accessAt(m.slot))
	}
	s.schedule(at, evAccess, m.gen, nil, nil)
}

func (s *Sim) onAccess(gen int) {
	m := &s.med
	if gen != m.gen || m.busy {
		return
	}
	m.txing = m.txing[:0]
	for _, c := range m.active {
		if c.accessAt(m.slot) == s.now {
			m.txing = append(m.txing, c)
			continue
		}
		if s.now > c.readyAt {
			c.backoff -= int((s.now - c.readyAt) / m.slot)
		}
	}
	if len(m.txing) > 1 && !s.cfg.Medium.Collisions {
		// Without collisions the first contender goes; the others keep a
		// zero backoff and go right after the next AIFS.
		for _, c := range m.txing[1:] {
			c.backoff = 0
		}
		m.txing = m.txing[:1]
	}
	var dur uint32
	for _, c := range m.txing {
		p := c.q.peek()
		if p.attempts == 0 {
			s.log.bytes(p.b)
		}
		s.stats.TxAttempts++
		dur = max(dur, p.airtime)
		if fr := p.frame(); p.from == 0 && fr.Type() == ieee80211.TypeMgmt && fr.Subtype() != ieee80211.SubtypeBeacon {
			s.stats.APMgmtAirtime += time.Duration(p.airtime) * time.Microsecond
		}
	}
	if len(m.txing) > 1 {
		s.stats.Collisions++
	}
	m.busy = true
	d := time.Duration(dur) * time.Microsecond
	s.stats.Busy += d
	s.schedule(s.now+d, evTxEnd, 0, nil, nil)
}

// onTxEnd settles every attempt that was on the air, then opens the next
// contention.
func (s *Sim) onTxEnd() {
	m := &s.med
	m.busy = false
	collided := len(m.txing) > 1
	// Settling makes stations and the core transmit again (enqueue), which
	// never touches txing.
	for _, c := range m.txing {
		s.settle(c, collided)
	}
	for _, c := range m.active {
		c.readyAt = s.now + m.aifs(c.ac)
	}
	s.scheduleAccess()
}

// settle decides one attempt: delivered or not, acknowledged or not, and
// whether the frame is done.
func (s *Sim) settle(c *contender, collided bool) {
	p := c.q.peek()
	p.attempts++
	if p.group {
		if !collided {
			s.deliverGroup(p)
		}
		s.done(c, true)
		return
	}
	rx, ok := s.receiverOf(p)
	lost := collided || !ok || s.rng.Float64() < s.linkLoss(p, rx)
	if !lost {
		s.deliver(p, rx)
		if p.noAck || s.rng.Float64() >= s.ackLoss(p, rx) {
			s.done(c, true)
			return
		}
	}
	if p.noAck || p.attempts >= p.limit {
		s.done(c, false)
		return
	}
	p.frame().SetRetry(true)
	c.cw = min(2*c.cw+1, edca[c.ac].cwMax)
	c.backoff = s.rng.IntN(c.cw + 1)
}

// done removes the head frame of c: echo it to the core if the AP sent it,
// count it, and draw the post-backoff.
func (s *Sim) done(c *contender, ok bool) {
	p := c.q.pop()
	p.acked = ok
	c.cw = edca[c.ac].cwMin
	c.backoff = s.rng.IntN(c.cw + 1)
	if c.q.size == 0 {
		c.active = false
		s.med.active = slices.DeleteFunc(s.med.active, func(x *contender) bool { return x == c })
	}
	s.count(p)
	if p.from == 0 {
		s.echo(p)
		return
	}
	s.freePacket(p)
}
