package sim

// Start-up channel selection (ap.ACSConfig): with Config.AP.Channel and
// Freq zero and an ACS configuration, the core scans the candidates before
// it beacons, over the same medium the foreign BSSs are on, and picks its
// channel. Until then the medium has no home channel; it takes the one
// the core chose when the AP's radio lands there. Add stations once
// Home is non-zero: a station is put on the home channel when added.

// Home returns the AP's operating channel in MHz: 0 while the core is
// still choosing it.
func (s *Sim) Home() int { return int(s.med.freq) }

// settleHome makes the core's choice the medium's home channel, once the
// AP's radio is there.
func (s *Sim) settleHome() {
	m := &s.med
	if m.freq != 0 {
		return
	}
	c := s.core.Config()
	if c.Freq == 0 || int(s.radio.target) != c.Freq {
		return
	}
	m.freq = uint16(c.Freq)
	m.lowest, m.best = rateBounds(c)
	m.airOf(m.freq).lowest = m.lowest
}
