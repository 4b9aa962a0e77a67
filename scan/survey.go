package scan

import "time"

// Survey is what is known of one channel: the figures the caller reports
// (from the driver's survey or its own accounting) and airq's own counts.
type Survey struct {
	Freq     int
	InUse    bool // our operating channel
	Noise    int8 // dBm, the last one reported; valid if HasNoise
	HasNoise bool

	Active time.Duration // radio on the channel (iw: channel active time)
	Busy   time.Duration // medium sensed busy
	Rx     time.Duration // receiving
	Tx     time.Duration // transmitting

	Dwell      time.Duration // airq's own listening time on the channel
	Visits     uint32
	Beacons    uint32 // heard on this channel, from any BSS
	ProbeResps uint32
	BSSes      int // entries of the table on this channel (filled by Surveys)
}

// BeaconsPerSecond returns the beacons heard per second of dwell: a
// crowding figure that needs no driver support.
func (s *Survey) BeaconsPerSecond() float64 {
	if s.Dwell <= 0 {
		return 0
	}
	return float64(s.Beacons) / s.Dwell.Seconds()
}

// SurveyReport is one measurement to add to a channel's survey.
type SurveyReport struct {
	Active, Busy, Rx, Tx time.Duration
	Noise                int8
	HasNoise             bool
}

func (t *Table) survey(freq int) *Survey {
	for i := range t.surveys {
		if t.surveys[i].Freq == freq {
			return &t.surveys[i]
		}
	}
	return nil
}

// Report adds r to the survey of freq; it returns false if the table keeps
// no survey for freq.
func (t *Table) Report(freq int, r SurveyReport) bool {
	s := t.survey(freq)
	if s == nil {
		return false
	}
	s.Active += r.Active
	s.Busy += r.Busy
	s.Rx += r.Rx
	s.Tx += r.Tx
	if r.HasNoise {
		s.Noise, s.HasNoise = r.Noise, true
	}
	return true
}

// Dwelt records one visit of freq that listened for d.
func (t *Table) Dwelt(freq int, d time.Duration) {
	if s := t.survey(freq); s != nil {
		s.Dwell += d
		s.Visits++
	}
}

// SetInUse marks freq as the operating channel.
func (t *Table) SetInUse(freq int) {
	for i := range t.surveys {
		t.surveys[i].InUse = t.surveys[i].Freq == freq
	}
}

func (t *Table) countHeard(freq int, probe bool) {
	if s := t.survey(freq); s != nil {
		if probe {
			s.ProbeResps++
		} else {
			s.Beacons++
		}
	}
}

// Surveys appends the survey of every channel to dst, in configuration
// order, with BSSes counted from the entries heard within MaxAge of now.
func (t *Table) Surveys(dst []Survey, now time.Duration) []Survey {
	n := len(dst)
	dst = append(dst, t.surveys...)
	for i := range t.entries {
		e := &t.entries[i]
		if now-e.LastSeen > t.cfg.MaxAge {
			continue
		}
		for j := n; j < len(dst); j++ {
			if dst[j].Freq == e.Freq {
				dst[j].BSSes++
			}
		}
	}
	return dst
}
