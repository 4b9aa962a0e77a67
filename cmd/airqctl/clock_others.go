//go:build !linux

package main

import "time"

// bootTime is unknown off Linux: station output has no [boottime] line.
func bootTime() time.Duration { return 0 }
