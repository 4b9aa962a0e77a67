package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/airq/airq/scan"
)

// registerScanBounds adds the scan planner's bounds (config keys
// scan_budget, scan_guard, scan_max_defers, scan_max_defer_time).
func (o *options) registerScanBounds(fs *flag.FlagSet) {
	s := &o.Scan
	fs.DurationVar(&s.Budget, "scan-budget", scan.DefaultBudget, "with -scan: the longest trip off the channel, 30ms-1s; a trip also ends -scan-guard before the next beacon")
	fs.DurationVar(&s.Guard, "scan-guard", scan.DefaultGuard, "with -scan: the margin a trip keeps before the next beacon, 1ms-50ms")
	fs.IntVar(&s.MaxDefers, "scan-max-defers", scan.DefaultMaxDefers, "with -scan: beacons a due trip may wait while the core is busy, 0-100 (0: it never waits)")
	fs.DurationVar(&s.MaxDeferTime, "scan-max-defer-time", scan.DefaultMaxDeferTime, "with -scan: the longest a due trip may wait while the core is busy, 10ms-60s")
}

// checkScanBounds checks the planner's bounds; the planner checks at start
// that a trip still holds a channel's visit.
func (o *options) checkScanBounds() error {
	s := o.Scan
	for _, c := range []struct {
		name   string
		d      time.Duration
		lo, hi time.Duration
	}{
		{"scan-budget", s.Budget, 30 * time.Millisecond, time.Second},
		{"scan-guard", s.Guard, time.Millisecond, 50 * time.Millisecond},
		{"scan-max-defer-time", s.MaxDeferTime, 10 * time.Millisecond, time.Minute},
	} {
		if c.d < c.lo || c.d > c.hi {
			return fmt.Errorf("-%s: %v, want %v to %v", c.name, c.d, c.lo, c.hi)
		}
	}
	if s.MaxDefers < 0 || s.MaxDefers > 100 {
		return fmt.Errorf("-scan-max-defers: %d, want 0 to 100", s.MaxDefers)
	}
	return nil
}
