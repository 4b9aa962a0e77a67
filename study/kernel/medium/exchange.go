package medium

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/study/kernel/hwsimnl"
)

// Next returns when the medium next has something to do.
func (m *Medium) Next() (time.Duration, bool) { return m.evq.Next() }

// Run handles every event due at or before now, each at its own time (a
// late caller does not move the air's timeline), and returns how late the
// first one was handled.
func (m *Medium) Run(now time.Duration, s Sink) (late time.Duration) {
	for n := 0; ; n++ {
		at, ok := m.evq.Next()
		if !ok || at > now {
			return late
		}
		_, ev := m.evq.Pop()
		if n == 0 {
			late = now - at
		}
		switch ev.kind {
		case evAccess:
			if ev.gen == ev.ch.gen && !ev.ch.busy {
				if q, _ := m.winner(ev.ch); q != nil {
					m.transmit(at, ev.ch, q)
				}
			}
		case evDeliver:
			m.deliver(ev.tx, s)
		case evStatus:
			m.status(at, ev.ch, ev.tx, s)
		}
	}
}

// owner is the radio other than from with interface address a.
func (m *Medium) owner(a ieee80211.MAC, from *radioState) *radioState {
	for _, r := range m.order {
		if r != from && r.addrs[a] {
			return r
		}
	}
	return nil
}

// take removes the frames of x from q (and the dead ones).
func (q *queue) take(x []*frame) {
	keep := q.frames[:0]
	for _, f := range q.frames {
		in := f.dead
		for _, g := range x {
			in = in || f == g
		}
		if !in {
			keep = append(keep, f)
		}
	}
	clear(q.frames[len(keep):])
	q.frames = keep
}

// aggregate picks the frames of the PPDU that head opens: head alone, or
// for unicast QoS data at an HT/VHT rate every queued frame to the same
// receiver and TID with the same first rate, in order, up to MaxSubframes
// and MaxPPDU.
func (m *Medium) aggregate(q *queue, head *frame, b *band) ([]*frame, []int) {
	x := []*frame{head}
	lens := append(m.scratch[:0], len(head.data)+4)
	hf, err := ieee80211.ParseFrame(head.data)
	r0 := head.rates[0]
	if err != nil || !hf.IsQoS() || hf.Addr1().IsMulticast() || r0.Flags&(hwsimnl.RateMCS|hwsimnl.RateVHTMCS) == 0 {
		return x, lens
	}
	rate, ok := Rate(r0, head.freq)
	if !ok {
		return x, lens
	}
	for _, f := range q.frames[1:] {
		if len(x) == m.cfg.MaxSubframes {
			break
		}
		g, err := ieee80211.ParseFrame(f.data)
		if f.dead || err != nil || !g.IsQoS() || g.Addr1() != hf.Addr1() || g.TID() != hf.TID() ||
			f.rates[0] != r0 || f.freq != head.freq {
			continue
		}
		lens = append(lens, len(f.data)+4)
		if d, _ := b.ppdu(rate, q.ac, lens); d > m.cfg.MaxPPDU {
			lens = lens[:len(lens)-1]
			break
		}
		x = append(x, f)
	}
	m.scratch = lens
	return x, lens
}

// transmit runs the exchange queue q won on channel c at time at: the
// PPDU at each rate of the head frame's chain, as many attempts as it
// allows, until one is received (acknowledged) or the chain ends. Retries
// hold the channel: each waits AIFS and a backoff from a doubled window.
func (m *Medium) transmit(at time.Duration, c *channel, q *queue) {
	q.take(nil)
	if len(q.frames) == 0 {
		m.schedule(at, c)
		return
	}
	b := m.band(c.freq)
	head := q.frames[0]
	x := &exchange{q: q}
	hf, err := ieee80211.ParseFrame(head.data)
	group := err != nil || hf.Addr1().IsMulticast()
	if !group {
		x.rx = m.owner(hf.Addr1(), q.r)
	}
	var lens []int
	x.frames, lens = m.aggregate(q, head, b)
	q.take(x.frames)
	m.freeze(at, c, q)
	noAck := group || head.flags&hwsimnl.TxCtlNoAck != 0
	t, cw, dataEnd, tries := at, b.cw[q.ac], at, 0
	var used radio.Rate
chain:
	for i, tr := range head.rates {
		if tr.Idx < 0 || tr.Count == 0 {
			break
		}
		x.rates[i] = hwsimnl.TxRate{Idx: tr.Idx, Flags: tr.Flags}
		r, ok := Rate(tr, c.freq)
		if !ok {
			m.st.BadRate++
			r = radio.Rate{Mode: radio.ModeLegacy, Legacy: legacy5GHz[0], Bandwidth: radio.BW20}
			if is2GHz(c.freq) {
				r.Legacy = legacy2GHz[0]
			}
		}
		data, resp := b.ppdu(r, q.ac, lens)
		for range tr.Count {
			if tries > 0 {
				cw = min(2*cw+1, cwMax)
				t += us(b.aifs[q.ac] + m.draw(cw)*b.slot)
			}
			tries++
			x.rates[i].Count++
			used = r
			dataEnd = t + us(data)
			if noAck {
				t, x.ok = dataEnd, true
				break chain
			}
			t = dataEnd + us(resp)
			if x.rx != nil && m.cfg.Link.Decodes(r) {
				x.ok = true
				break chain
			}
			m.st.FailedAttempts++
		}
	}
	for i := range x.rates {
		if x.rates[i].Count == 0 {
			x.rates[i] = hwsimnl.TxRate{Idx: -1}
		}
	}
	m.st.Attempts += uint64(tries)
	m.st.account(x, used, t-at)
	c.busy = true
	c.gen++
	if x.ok {
		m.evq.Push(dataEnd, event{kind: evDeliver, ch: c, tx: x})
	}
	m.evq.Push(t, event{kind: evStatus, ch: c, tx: x})
	x.rxRate = rxRateIndex(used, c.freq)
}

// freeze counts down the backoff of the queues that lost channel c to
// winner at time at: the slots they saw idle after their AIFS are spent.
func (m *Medium) freeze(at time.Duration, c *channel, winner *queue) {
	b := m.band(c.freq)
	for _, r := range m.order {
		for ac := range r.q {
			q := &r.q[ac]
			if q == winner || len(q.frames) == 0 || q.frames[0].freq != c.freq {
				continue
			}
			start := max(c.idleSince, q.since) + us(b.aifs[q.ac])
			if at > start {
				q.backoff -= min(q.backoff, uint32((at-start)/us(b.slot)))
			}
		}
	}
}

func (m *Medium) deliver(x *exchange, s Sink) {
	from := x.q.r
	for _, f := range x.frames {
		if f.dead {
			continue
		}
		if x.rx != nil {
			s.Deliver(x.rx.hw, f.data, x.rxRate, f.freq, m.cfg.Signal)
			continue
		}
		for _, r := range m.order {
			if r != from {
				s.Deliver(r.hw, f.data, x.rxRate, f.freq, m.cfg.Signal)
			}
		}
	}
}

// status reports every frame of x to its radio, the last one marked as
// the end of the exchange's batch, and frees the channel.
func (m *Medium) status(at time.Duration, c *channel, x *exchange, s Sink) {
	q := x.q
	last := -1
	for i, f := range x.frames {
		if !f.dead {
			last = i
		}
	}
	for i, f := range x.frames {
		if f.dead {
			continue
		}
		q.r.outstanding--
		flags := f.flags &^ (hwsimnl.TxStatAck | hwsimnl.TxStatBatchEnd)
		if x.ok && f.flags&hwsimnl.TxCtlNoAck == 0 && x.rx != nil {
			flags |= hwsimnl.TxStatAck
		} else if !x.ok {
			m.st.Unacked++
		}
		if i == last {
			flags |= hwsimnl.TxStatBatchEnd
		}
		s.Status(&hwsimnl.TxInfo{Transmitter: q.r.hw, Flags: flags, Signal: m.cfg.Signal, Rates: x.rates, Cookie: f.cookie})
	}
	c.busy = false
	c.idleSince = at
	q.backoff = m.draw(m.band(c.freq).cw[q.ac])
	q.since = at
	m.schedule(at, c)
}
