package scan

import "time"

// Startup appends to dst the visits of the start-up scan that feeds channel
// selection, before we beacon: every allowed channel, home included, probed
// where probing is allowed and listened to passively on no-IR and radar
// channels, StartupDwell each, the whole list StartupRuns times. Repeating
// the list (hostapd's acs_num_scans) samples each channel at several moments
// so a short burst of traffic weighs less. The first retune starts at now.
func (p *Planner) Startup(dst []Visit, now time.Duration) []Visit {
	c := &p.cfg
	at := now + c.Retune
	for range c.StartupRuns {
		for _, ch := range c.Channels {
			if ch.Disabled {
				continue
			}
			v := Visit{Freq: ch.Freq, Start: at, Dwell: c.StartupDwell}
			if !ch.Passive {
				v.Probe, v.ProbeAt = true, at+c.ProbeDelay
			}
			dst = append(dst, v)
			at += c.StartupDwell + c.Retune
		}
	}
	return dst
}
