package shell

import (
	"context"
	"time"

	"github.com/airq/airq/ctl"
)

// ProbeLoop measures how late the core's loop takes an input, until ctx
// ends or the server closes: on a fixed schedule of one tick per period,
// a probe call is due at each tick, and the loop answers it in Serve
// without touching the core. observe gets the time from the tick's due
// time to Serve: what a frame arriving then would have waited, whether
// the loop was busy or the CPU was taken (by the SAE worker, say), since
// the probe's own late wake-up counts too. A tick that has passed while
// the last probe waited is skipped, not measured twice.
func (s *ControlServer) ProbeLoop(ctx context.Context, period time.Duration, observe func(time.Duration)) {
	due := time.Now().Add(period)
	t := time.NewTimer(period)
	defer t.Stop()
	// One call, used again: a ControlCall and its reply channel are about
	// 800 bytes, fifty a second of garbage (some 400 KiB over a ten-second
	// flood) that grew the heap, and VmRSS, toward the collector's goal.
	// The loop is done with the call once send returns.
	call := &ControlCall{probe: true, reply: make(chan ctl.Reply, 1)}
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		call.served = time.Time{}
		if _, err := s.send(ctx, call); err != nil {
			return
		}
		observe(call.served.Sub(due))
		due = due.Add(period)
		if now := time.Now(); due.Before(now) {
			due = now.Add(period)
		}
		t.Reset(time.Until(due))
	}
}
