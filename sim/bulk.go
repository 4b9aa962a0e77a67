package sim

import (
	"encoding/binary"
	"net/netip"
	"time"
)

// BulkConfig describes a TCP-like bulk transfer.
type BulkConfig struct {
	Seg       int  // payload bytes per segment, at least 12; default 1448
	MaxWindow int  // segments; the receive window; default 128
	TOS       byte // IPv4 TOS byte of the data (ACKs go with the same)
}

// Bulk is a window-limited transfer with cumulative ACKs: slow start and
// AIMD, fast retransmit on three duplicate ACKs and a retransmission timer,
// both going back to the first unacknowledged segment (the receiver keeps
// only in-order segments). The receiver ACKs every second segment, at once
// when out of order, and after a short delay otherwise. It is not TCP; it
// is enough to keep a queue full the way TCP does.
type Bulk struct {
	sim              *Sim
	src, dst         *stack
	srcIP, dstIP     netip.Addr
	srcPort, dstPort uint16
	cfg              BulkConfig
	stopped          bool

	// sender
	next, acked    uint32
	sndMax         uint32 // highest segment sent + 1; next goes back on a loss, sndMax does not
	cwnd, ssthresh float64
	dup            int
	srtt, rto      time.Duration
	rtoGen         int
	rtoArmed       bool

	// receiver
	rcvNext uint32
	unacked int
	lastTS  uint64
	ackGen  int
	ackNow  bool // an ACK is due at the end of the current instant

	buf   []byte
	stats BulkStats
}

// BulkStats are a bulk transfer's counters.
type BulkStats struct {
	Delivered   uint64 // payload bytes the receiver took in order
	Segments    uint64 // segments sent, retransmissions included
	Retransmits uint64 // segments sent again after a loss was detected
	FastRetrans uint64
	Timeouts    uint64
	Cwnd        float64
	SRTT        time.Duration
}

const (
	bulkMinRTO = 200 * time.Millisecond
	bulkDelAck = 5 * time.Millisecond
)

// Bulk starts a transfer from from to to, now. It runs until Stop.
func (s *Sim) Bulk(from, to Endpoint, cfg BulkConfig) *Bulk {
	if cfg.Seg < 12 {
		cfg.Seg = 1448
	}
	if cfg.MaxWindow == 0 {
		cfg.MaxWindow = 128
	}
	s.nextPort += 2
	b := &Bulk{sim: s, src: from.stack(), dst: to.stack(), srcIP: from.IP(), dstIP: to.IP(), cfg: cfg,
		srcPort: s.nextPort - 1, dstPort: s.nextPort, cwnd: 2, ssthresh: float64(cfg.MaxWindow),
		rto: time.Second, buf: make([]byte, 0, cfg.Seg)}
	b.dst.udpH[b.dstPort] = bulkRx{b}
	b.src.udpH[b.srcPort] = bulkTx{b}
	b.send()
	return b
}

// Stop ends the transfer: nothing more is sent.
func (b *Bulk) Stop() { b.stopped = true; b.rtoGen++; b.ackGen++ }

// Stats returns the counters so far.
func (b *Bulk) Stats() BulkStats {
	st := b.stats
	st.Cwnd, st.SRTT = b.cwnd, b.srtt
	return st
}

// Timers: positive args are retransmission timers, negative ones the
// receiver's delayed ACK; each by its generation.
func (b *Bulk) fire(now time.Duration, arg int) {
	switch {
	case arg > 0 && arg == b.rtoGen:
		b.rtoArmed = false
		b.stats.Timeouts++
		b.loss()
		b.cwnd = 1
		b.rto = min(2*b.rto, 4*time.Second)
		b.send()
	case arg < 0 && -arg == b.ackGen:
		b.sendAck()
	}
}

func (b *Bulk) armRTO() {
	b.rtoGen++
	b.rtoArmed = true
	b.sim.schedule(b.sim.now+b.rto, evTimer, b.rtoGen, nil, b)
}

// loss halves the window and goes back to the first unacknowledged segment.
func (b *Bulk) loss() {
	b.ssthresh = max(b.cwnd/2, 2)
	b.cwnd = b.ssthresh
	b.stats.Retransmits += uint64(b.next - b.acked)
	b.next = b.acked
	b.dup = 0
}

// send fills the window.
func (b *Bulk) send() {
	if b.stopped {
		return
	}
	win := min(uint32(b.cwnd), uint32(b.cfg.MaxWindow))
	sent := false
	for b.next-b.acked < win {
		p := binary.BigEndian.AppendUint32(b.buf[:0], b.next)
		p = binary.BigEndian.AppendUint64(p, uint64(b.sim.now))
		for len(p) < b.cfg.Seg {
			p = append(p, 0)
		}
		b.buf = p[:0]
		b.next++
		b.sndMax = max(b.sndMax, b.next)
		b.stats.Segments++
		b.src.sendUDP(b.dstIP, b.srcPort, b.dstPort, b.cfg.TOS, p)
		sent = true
	}
	if sent && !b.rtoArmed {
		b.armRTO()
	}
}

// onAck runs at the sender.
func (b *Bulk) onAck(ack uint32, ts time.Duration) {
	switch {
	case ack > b.acked && ack <= b.sndMax:
		// A cumulative ACK may cover segments sent before a go-back
		// retransmission rewound next: resume after them.
		n := float64(ack - b.acked)
		b.acked, b.dup = ack, 0
		b.next = max(b.next, ack)
		if b.cwnd < b.ssthresh {
			b.cwnd += n
		} else {
			b.cwnd += n / b.cwnd
		}
		b.cwnd = min(b.cwnd, float64(b.cfg.MaxWindow))
		b.sample(b.sim.now - ts)
		if b.next > b.acked {
			b.armRTO()
		} else {
			b.rtoGen++
			b.rtoArmed = false
		}
		b.send()
	case ack == b.acked && b.next > b.acked:
		b.dup++
		if b.dup == 3 {
			b.stats.FastRetrans++
			b.loss()
			b.send()
		}
	}
}

func (b *Bulk) sample(rtt time.Duration) {
	if b.srtt == 0 {
		b.srtt = rtt
	} else {
		b.srtt += (rtt - b.srtt) / 8
	}
	b.rto = max(bulkMinRTO, 2*b.srtt)
}

// onSegment runs at the receiver.
func (b *Bulk) onSegment(seq uint32, ts uint64, n int) {
	b.lastTS = ts
	if seq != b.rcvNext {
		b.sendAck() // a duplicate ACK tells the sender about the hole
		return
	}
	b.rcvNext++
	b.stats.Delivered += uint64(n)
	b.unacked++
	if b.unacked >= 2 {
		// Segments that arrive together (the MSDUs of one A-MSDU) are
		// acknowledged once, after the last of them, as a Linux receiver
		// coalescing them with GRO does: the ACK goes at the end of this
		// instant.
		if !b.ackNow {
			b.ackNow = true
			b.ackGen++
			b.sim.schedule(b.sim.now, evTimer, -b.ackGen, nil, b)
		}
		return
	}
	b.ackGen++
	b.sim.schedule(b.sim.now+bulkDelAck, evTimer, -b.ackGen, nil, b)
}

func (b *Bulk) sendAck() {
	b.unacked, b.ackNow = 0, false
	b.ackGen++
	var m [12]byte
	binary.BigEndian.PutUint32(m[:], b.rcvNext)
	binary.BigEndian.PutUint64(m[4:], b.lastTS)
	b.dst.sendUDP(b.srcIP, b.dstPort, b.srcPort, b.cfg.TOS, m[:])
}

// bulkRx and bulkTx route the two directions of a Bulk's datagrams.
type bulkRx struct{ b *Bulk }
type bulkTx struct{ b *Bulk }

func (r bulkRx) udp(_ time.Duration, _ netip.Addr, _ uint16, p []byte) {
	if len(p) >= 12 {
		r.b.onSegment(binary.BigEndian.Uint32(p), binary.BigEndian.Uint64(p[4:]), len(p))
	}
}

func (t bulkTx) udp(_ time.Duration, _ netip.Addr, _ uint16, p []byte) {
	if len(p) >= 12 {
		t.b.onAck(binary.BigEndian.Uint32(p), time.Duration(binary.BigEndian.Uint64(p[4:])))
	}
}
