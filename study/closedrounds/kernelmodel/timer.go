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
