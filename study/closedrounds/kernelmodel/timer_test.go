package kernelmodel

import (
	"testing"
	"time"
)

const usec = time.Microsecond

// TestJiffies: usecs_to_jiffies rounds up to 4 ms ticks (HZ=250).
func TestJiffies(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want int64
	}{
		{0, 0}, {1 * usec, 1}, {4000 * usec, 1}, {4001 * usec, 2},
		{8800 * usec, 3}, {200 * time.Millisecond, 50}, {206800 * usec, 52},
		{4000*usec + 999*time.Nanosecond, 1}, // below a microsecond is dropped first
	} {
		if got := jiffies(c.d); got != c.want {
			t.Errorf("jiffies(%v) = %d, want %d", c.d, got, c.want)
		}
	}
}

// TestTimerAt: a timer armed for n ticks expires at jiffies + n, on a tick.
func TestTimerAt(t *testing.T) {
	for _, c := range []struct {
		now  time.Duration
		n    int64
		want time.Duration
	}{
		{10001 * usec, 3, 20 * time.Millisecond},
		{8 * time.Millisecond, 3, 20 * time.Millisecond},
		{7999 * usec, 3, 16 * time.Millisecond},
		{0, 50, 200 * time.Millisecond},
	} {
		if got := timerAt(c.now, c.n); got != c.want {
			t.Errorf("timerAt(%v, %d) = %v, want %v", c.now, c.n, got, c.want)
		}
	}
}

// TestProbeTicks checks tcp_schedule_loss_probe's timeout against values
// worked by hand from tcp_output.c: (srtt_us >> 2) + 2000 µs, or + 200000
// µs with one packet out, rounded up to ticks, capped at the RTO (here
// max(200 ms, 2 srtt)).
func TestProbeTicks(t *testing.T) {
	for _, c := range []struct {
		srtt time.Duration
		out  int
		want int64
	}{
		{3400 * usec, 5, 3},                 // 6800 + 2000 = 8800 µs -> 3 ticks (12 ms)
		{3000 * usec, 5, 2},                 // 6000 + 2000 = 8000 µs -> exactly 2 ticks
		{1234567 * time.Nanosecond, 2, 2},   // 2469 + 2000 = 4469 µs -> 2 ticks
		{3400 * usec, 1, 50},                // 6800 + 200000 -> 52 ticks, RTO 200 ms = 50
		{150 * time.Millisecond, 3, 75},     // 302000 µs -> 76 ticks, RTO 300 ms = 75
		{50 * time.Millisecond, 10, 26},     // 102000 µs -> 25.5 -> 26 ticks
		{500 * time.Microsecond, 1000, 1},   // 3000 µs -> 1 tick: no 10 ms floor
		{5 * time.Millisecond, 0, 3},        // packets_out 0 is not "one out": 12000 µs
		{100 * time.Millisecond, 1, 50 + 0}, // 400000 µs -> 100 ticks, RTO 200 ms = 50
	} {
		s := newSender(wifiPacingShift, func(time.Duration) {})
		s.srtt, s.out = c.srtt, c.out
		if got := s.probeTicks(); got != c.want {
			t.Errorf("srtt %v, %d out: %d ticks, want %d", c.srtt, c.out, got, c.want)
		}
	}
}

// TestArmTimer: an ACK arms the loss probe while the sender is in the Open
// state and the RTO while it recovers from a loss (tcp_schedule_loss_probe
// returns false outside Open/CWR, and tcp_set_xmit_timer re-arms the RTO).
func TestArmTimer(t *testing.T) {
	for _, c := range []struct {
		recovering bool
		want       time.Duration
		rto        bool
	}{
		{false, 16 * time.Millisecond, false}, // 4 ms ticks: jiffies 1 + 3 (8800 µs)
		{true, 204 * time.Millisecond, true},  // jiffies 1 + 50
	} {
		m := &model{now: 5 * time.Millisecond, snd: newSender(wifiPacingShift, func(time.Duration) {})}
		m.snd.srtt, m.snd.out = 3400*usec, 5
		if c.recovering {
			m.snd.recovery = m.now + time.Millisecond
		}
		m.armTimer()
		at, ok := m.ev.Next()
		if !ok || at != c.want || m.rtoArmed != c.rto {
			t.Errorf("recovering %v: timer at %v (%v), RTO %v; want %v, RTO %v", c.recovering, at, ok, m.rtoArmed, c.want, c.rto)
		}
	}
}

// TestSendRearmsProbe: a TSQ wake-up that sends re-arms the loss probe
// (tcp_write_xmit -> tcp_schedule_loss_probe), one that sends nothing or
// comes while the RTO is armed does not.
func TestSendRearmsProbe(t *testing.T) {
	for _, c := range []struct {
		name     string
		wmem     int
		rtoArmed bool
		want     int
	}{
		{"sends", 0, false, 1},
		{"held by TSQ", 1 << 20, false, 0},
		{"RTO armed", 0, true, 0},
	} {
		m := &model{now: 5 * time.Millisecond, snd: newSender(wifiPacingShift, func(time.Duration) {})}
		m.snd.out, m.snd.wmem, m.rtoArmed = 5, c.wmem, c.rtoArmed
		m.tsqWake()
		if got := m.ev.Len(); got != c.want {
			t.Errorf("%s: %d timers armed, want %d", c.name, got, c.want)
		}
	}
}
