package kernelmodel

import "time"

// Linux's timer arithmetic. TCP's timers count jiffies; Debian's amd64
// kernels are built with CONFIG_HZ=250. (The seed's AP's HZ is not known.)
const (
	jiffy = 4 * time.Millisecond
	// timeoutMin is TCP_TIMEOUT_MIN_US (include/net/tcp.h), the probe's
	// allowance when more than one packet is out.
	timeoutMin = 2 * time.Millisecond
)

// jiffies is usecs_to_jiffies: microseconds rounded up to whole ticks.
func jiffies(d time.Duration) int64 {
	us, per := int64(d/time.Microsecond), int64(jiffy/time.Microsecond)
	return (us + per - 1) / per
}

// timerAt is when a timer armed at now for n ticks fires: the timer
// expires at jiffies + n, and jiffies counts whole ticks since the start.
func timerAt(now time.Duration, n int64) time.Duration {
	return (now/jiffy + time.Duration(n)) * jiffy
}

// probeTicks is tcp_schedule_loss_probe's timeout (net/ipv4/tcp_output.c,
// 6.1 and 6.12 alike): srtt_us >> 2 (twice srtt) plus TCP_TIMEOUT_MIN_US,
// or plus tcp_rto_min_us (a delayed ACK's allowance) when exactly one
// packet is out, rounded up to ticks, and never later than the RTO. The
// cap uses the whole RTO, as on an ACK (advancing_rto); after a send the
// kernel caps at the RTO left on the oldest packet, which differs only
// when that packet went out long before the send (it is the one just sent
// when one packet is out).
func (s *sender) probeTicks() int64 {
	t := (2 * s.srtt).Truncate(time.Microsecond)
	if s.out == 1 {
		t += minRTO
	} else {
		t += timeoutMin
	}
	return min(jiffies(t), jiffies(s.rtoTime()))
}

// ack hands a TCP ACK to the sender and re-arms its timer, as every ACK
// that acknowledges data does in Linux (tcp_ack -> tcp_set_xmit_timer).
func (m *model) ack(e event) {
	m.snd.onAck(m.now, int(e.n), e.since)
	m.armTimer()
}

// armTimer is tcp_set_xmit_timer: the loss probe (tcp_schedule_loss_probe)
// while the sender is not recovering from a loss, else the RTO
// (tcp_rearm_rto).
func (m *model) armTimer() {
	m.tlpGen++
	n, rto := m.snd.probeTicks(), false
	if m.snd.inRecovery(m.now) {
		n, rto = jiffies(m.snd.rtoTime()), true
	}
	m.rtoArmed = rto
	m.ev.Push(timerAt(m.now, n), event{kind: evTLP, n: m.tlpGen})
}

// tsqWake is the TSQ handler: tcp_write_xmit, which re-arms the loss probe
// when it sent something (one probe per tail-loss episode: not while the
// RTO is what is armed).
func (m *model) tsqWake() {
	if m.snd.wake(m.now) > 0 && !m.rtoArmed {
		m.armTimer()
	}
}

// timer is the sender's loss-probe timer, then its retransmission timer.
// Either one puts a frame into the path, which is what restarts a stalled
// driver: nothing else would run a round.
func (m *model) timer(e event) {
	if e.n != m.tlpGen || m.snd.out <= 0 {
		return
	}
	if m.rtoArmed {
		m.snd.rto(m.now)
		m.rtos++
	} else {
		m.snd.probe(m.now)
		m.probes++
	}
	m.rtoArmed = true
	h := m.alloc()
	m.sent[h], m.dup[h] = m.now, true
	if m.cfg.Traffic == TSQ {
		m.enqueue(h)
	} else {
		m.toNIC(h)
	}
	m.tlpGen++
	m.ev.Push(timerAt(m.now, jiffies(m.snd.rtoTime())), event{kind: evTLP, n: m.tlpGen})
	if m.snd.cwnd >= 1 && m.snd.out < 1 {
		m.snd.push(m.now)
	}
}
