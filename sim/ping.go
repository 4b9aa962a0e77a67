package sim

import (
	"encoding/binary"
	"time"
)

// Ping sends ICMP echo requests at a fixed interval and measures the round
// trip of each reply.
type Ping struct {
	sim      *Sim
	from     *stack
	to       [4]byte
	id, seq  uint16
	interval time.Duration
	size     int
	gen      int
	msg      []byte
	stats    PingStats
	keep     bool
	rtts     []time.Duration
}

// PingStats are a ping's counters, like ping(8)'s summary.
type PingStats struct {
	Sent, Received         uint64
	RTTMin, RTTMax, RTTSum time.Duration
}

// RTTAvg returns the mean round trip.
func (p PingStats) RTTAvg() time.Duration {
	if p.Received == 0 {
		return 0
	}
	return p.RTTSum / time.Duration(p.Received)
}

// Ping starts pinging to from from, every interval with size bytes of ICMP
// data (at least 8: the send time travels in the data), from now on.
func (s *Sim) Ping(from, to Endpoint, interval time.Duration, size int) *Ping {
	s.nextPort++
	p := &Ping{sim: s, from: from.stack(), to: to.IP().As4(), id: s.nextPort, interval: interval,
		size: max(size, 8), msg: make([]byte, 0, 8+max(size, 8))}
	p.from.ping[p.id] = p
	p.gen++
	s.schedule(s.now, evTimer, p.gen, nil, p)
	return p
}

// KeepRTTs makes the ping keep every round trip from now on, for RTTs.
func (p *Ping) KeepRTTs() { p.keep = true }

// RTTs returns the round trips kept since KeepRTTs, in arrival order.
func (p *Ping) RTTs() []time.Duration { return p.rtts }

// Stop ends the pinging; replies still on their way are counted.
func (p *Ping) Stop() { p.gen++ }

// Stats returns the counters so far.
func (p *Ping) Stats() PingStats { return p.stats }

func (p *Ping) fire(now time.Duration, gen int) {
	if gen != p.gen {
		return
	}
	m := append(p.msg[:0], 8, 0, 0, 0)
	m = binary.BigEndian.AppendUint16(m, p.id)
	m = binary.BigEndian.AppendUint16(m, p.seq)
	m = binary.BigEndian.AppendUint64(m, uint64(now))
	for len(m) < 8+p.size {
		m = append(m, byte(len(m)))
	}
	p.msg = m[:0]
	p.seq++
	p.stats.Sent++
	p.from.sendICMP(p.to, 0, m)
	p.sim.schedule(now+p.interval, evTimer, p.gen, nil, p)
}

func (p *Ping) reply(now time.Duration, b []byte) {
	if len(b) < 16 {
		return
	}
	rtt := now - time.Duration(binary.BigEndian.Uint64(b[8:]))
	st := &p.stats
	st.Received++
	st.RTTSum += rtt
	if st.RTTMin == 0 || rtt < st.RTTMin {
		st.RTTMin = rtt
	}
	st.RTTMax = max(st.RTTMax, rtt)
	if p.keep {
		p.rtts = append(p.rtts, rtt)
	}
}
