package kernelmodel

import "time"

// Sender constants. Linux's initial window, its pacing ratios
// (tcp_pacing_ss_ratio 200 %, tcp_pacing_ca_ratio 120 %) and a 200 ms
// minimum RTO; the handshake's RTT seeds srtt.
const (
	initCwnd    = 10
	ssRatio     = 2.0
	caRatio     = 1.2
	minRTO      = 200 * time.Millisecond // TCP_RTO_MIN (HZ/5)
	initialSRTT = time.Millisecond
	// Pacing shifts: mac80211 sets 7 (about 8 ms at the pacing rate) on
	// its sockets' frames; everything else keeps the default 10 (1 ms).
	wifiPacingShift = 7
	nicPacingShift  = 10
)

// sender is a bulk TCP sender with Reno congestion control, ACK clocking and
// the small-queue check of tcp_small_queue_check: bytes (truesize) of its
// own frames below it (queued or in flight in the device) must not exceed
// max(2 * truesize, pacing_rate >> shift), except that one segment may always
// be outstanding. It works in whole segments; data are infinite, and what is
// lost is sent again as new data (only delivered bytes count as goodput).
type sender struct {
	shift     uint
	cwnd      float64
	ssthresh  float64
	out       int // packets out: sent, not yet acknowledged or found lost
	lost      int // dropped below us, noticed at the next ACK
	srtt      time.Duration
	wmem      int // truesize of our frames not yet freed
	throttled bool
	wakeSet   bool // a TSQ wake is already scheduled
	cwndLim   bool // the last send stopped on the window
	maxOut    int
	winEnd    time.Duration
	recovery  time.Duration // end of the current loss window
	sampled   bool          // srtt holds a measured sample

	throttles uint64
	emit      func(now time.Duration) // hand one segment down
	// drain is tcp_wfree's ksoftirqd rule (TSQDrain variant): no wake
	// while other frames of ours are still below us.
	drain bool
}

func newSender(shift uint, emit func(time.Duration)) *sender {
	return &sender{shift: shift, cwnd: initCwnd, ssthresh: 1e9, srtt: initialSRTT, emit: emit}
}

// pacingRate is tcp_update_pacing_rate in bytes per second.
func (s *sender) pacingRate() float64 {
	ratio := caRatio
	if s.cwnd < s.ssthresh/2 {
		ratio = ssRatio
	}
	pk := max(s.cwnd, float64(s.out))
	return mss * ratio * pk / s.srtt.Seconds()
}

// tsqLimit is the small-queue limit in bytes.
func (s *sender) tsqLimit() int {
	return max(2*truesize, int(s.pacingRate())>>s.shift)
}

// push sends while the window and the small-queue limit allow, and says
// how many segments it sent.
func (s *sender) push(now time.Duration) int {
	for n := 0; ; n++ {
		if float64(s.out) >= s.cwnd {
			s.cwndLim = true
			return n
		}
		if s.wmem > s.tsqLimit() && s.out > 1 {
			if !s.throttled {
				s.throttles++
			}
			s.throttled = true
			s.cwndLim = false
			return n
		}
		s.out++
		s.maxOut = max(s.maxOut, s.out)
		s.wmem += truesize
		s.emit(now)
	}
}

// freed is tcp_wfree for one of our frames; it reports whether the TSQ
// tasklet must be scheduled (the sender was throttled).
func (s *sender) freed() bool {
	s.wmem -= truesize
	if s.drain && s.wmem > 0 {
		return false
	}
	if s.throttled && !s.wakeSet {
		s.wakeSet = true
		return true
	}
	return false
}

// wake is the TSQ tasklet: tcp_tsq_handler -> tcp_write_xmit. It says how
// many segments it sent.
func (s *sender) wake(now time.Duration) int {
	s.wakeSet = false
	s.throttled = false
	return s.push(now)
}

// onAck handles one cumulative ACK for acked segments, the oldest sent at
// since.
func (s *sender) onAck(now time.Duration, acked int, since time.Duration) {
	if rtt := now - since; !s.sampled {
		s.srtt, s.sampled = rtt, true
	} else {
		s.srtt += (rtt - s.srtt) / 8
	}
	s.out -= acked
	if s.lost > 0 {
		s.loss(now)
	} else if now >= s.recovery && s.growOK() {
		if s.cwnd < s.ssthresh {
			s.cwnd = min(s.cwnd+float64(acked), max(s.ssthresh, s.cwnd))
		} else {
			s.cwnd += float64(acked) / s.cwnd
		}
	}
	if now >= s.winEnd {
		s.winEnd = now + s.srtt
		s.maxOut = s.out
	}
	s.push(now)
}

// growOK is tcp_is_cwnd_limited: grow only a window that limits sending.
func (s *sender) growOK() bool {
	return s.cwndLim || (s.cwnd < s.ssthresh && s.cwnd < 2*float64(s.maxOut))
}

// dropped notes a segment lost below us; TCP sees it at the next ACK.
func (s *sender) dropped() { s.lost++ }

// loss is the reaction to losses found by duplicate ACKs: Reno halves the
// window once per window of data.
func (s *sender) loss(now time.Duration) {
	s.out -= s.lost
	s.lost = 0
	if now >= s.recovery {
		s.ssthresh = max(s.cwnd/2, 2)
		s.cwnd = s.ssthresh
		s.recovery = now + s.srtt
	}
}

// rtoTime is the retransmission timeout that follows an unanswered probe.
func (s *sender) rtoTime() time.Duration { return max(minRTO, 2*s.srtt) }

// inRecovery is true while a loss window is open: Linux's congestion state
// is then Recovery or Loss, not Open, and no loss probe is scheduled.
func (s *sender) inRecovery(now time.Duration) bool { return now < s.recovery }

// probe is tcp_send_loss_probe when the small-queue check keeps new data
// back: the last segment goes again, outside the window and the check
// (__tcp_retransmit_skb has its own, looser bound). It carries no new data.
func (s *sender) probe(now time.Duration) {
	s.wmem += truesize
}

// rto is the retransmission timeout: the window collapses to one segment
// and losses found so far are written off.
func (s *sender) rto(now time.Duration) {
	s.out -= s.lost
	s.lost = 0
	s.ssthresh = max(s.cwnd/2, 2)
	s.cwnd = 1
	s.recovery = now + s.srtt
	s.probe(now)
}
