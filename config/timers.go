package config

import (
	"fmt"
	"strings"
	"time"

	"github.com/airq/airq/ap"
)

// The admission timers (ap.Timers) are keys of their own, each a Go
// duration such as 5s or 50ms within the core's range. None has a flag
// (ap_max_inactivity has none either) and none is reloaded live: the core
// reads them at start, and a bss= section's own auth_timeout and
// assoc_resp_timeout when its BSS (re)starts.
func init() {
	for _, t := range ap.Timers {
		keys[t.Key] = timerKey(t)
	}
}

func timerKey(t ap.Timer) Key {
	return Key{
		Want: fmt.Sprintf("a duration from %s to %s, such as %s (the default)", short(t.Min), short(t.Max), short(t.Default)),
		set: func(s *Settings, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d < t.Min || d > t.Max {
				return errWant
			}
			*t.Field(&s.Core) = d
			return nil
		},
	}
}

// short prints a duration as one would write it: 1h, not 1h0m0s.
func short(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
