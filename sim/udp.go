package sim

import (
	"encoding/binary"
	"net/netip"
	"time"
)

// UDPConfig describes a constant-rate UDP flow.
type UDPConfig struct {
	Size     int           // payload bytes, at least 12; default 1000
	Interval time.Duration // between datagrams; default 1ms
	TOS      byte          // IPv4 TOS byte; the DSCP picks the AC
}

// UDPFlow sends datagrams at a constant rate and counts what arrives.
type UDPFlow struct {
	sim              *Sim
	src, dst         *stack
	dstIP            netip.Addr
	srcPort, dstPort uint16
	cfg              UDPConfig
	gen              int
	seq              uint32
	next             uint32 // next sequence number the receiver expects
	buf              []byte
	stats            UDPStats
}

// UDPStats are a UDP flow's counters at both ends.
type UDPStats struct {
	Sent, Received, Bytes uint64
	Lost, Late            uint64 // gaps seen by the receiver; datagrams older than the last
	LatencySum, LatMax    time.Duration
}

// UDP starts a constant-rate flow from from to to, now.
func (s *Sim) UDP(from, to Endpoint, cfg UDPConfig) *UDPFlow {
	if cfg.Size < 12 {
		cfg.Size = 1000
	}
	if cfg.Interval == 0 {
		cfg.Interval = time.Millisecond
	}
	s.nextPort += 2
	f := &UDPFlow{sim: s, src: from.stack(), dst: to.stack(), dstIP: to.IP(), cfg: cfg,
		srcPort: s.nextPort - 1, dstPort: s.nextPort, buf: make([]byte, 0, cfg.Size)}
	f.dst.udpH[f.dstPort] = f
	f.gen++
	s.schedule(s.now, evTimer, f.gen, nil, f)
	return f
}

// Stop ends the flow; datagrams on their way still count.
func (f *UDPFlow) Stop() { f.gen++ }

// Stats returns the counters so far.
func (f *UDPFlow) Stats() UDPStats { return f.stats }

func (f *UDPFlow) fire(now time.Duration, gen int) {
	if gen != f.gen {
		return
	}
	b := binary.BigEndian.AppendUint32(f.buf[:0], f.seq)
	b = binary.BigEndian.AppendUint64(b, uint64(now))
	for len(b) < f.cfg.Size {
		b = append(b, 0)
	}
	f.buf = b[:0]
	f.seq++
	f.stats.Sent++
	f.src.sendUDP(f.dstIP, f.srcPort, f.dstPort, f.cfg.TOS, b)
	f.sim.schedule(now+f.cfg.Interval, evTimer, f.gen, nil, f)
}

func (f *UDPFlow) udp(now time.Duration, _ netip.Addr, _ uint16, b []byte) {
	if len(b) < 12 {
		return
	}
	seq := binary.BigEndian.Uint32(b)
	st := &f.stats
	if seq < f.next {
		st.Late++
		return
	}
	st.Lost += uint64(seq - f.next)
	f.next = seq + 1
	st.Received++
	st.Bytes += uint64(len(b))
	lat := now - time.Duration(binary.BigEndian.Uint64(b[4:]))
	st.LatencySum += lat
	st.LatMax = max(st.LatMax, lat)
}
