package medium

import (
	"fmt"
	"time"

	"github.com/airq/airq/radio"
)

// Stats counts what the medium did.
type Stats struct {
	Frames         uint64        // submitted by the radios
	PPDUs          uint64        // exchanges (a PPDU and its retries)
	AMPDUs         uint64        // exchanges of more than one MPDU
	AggFrames      uint64        // MPDUs in those
	Attempts       uint64        // PPDUs sent, retries included
	FailedAttempts uint64        // not acknowledged (rate above the link, or no receiver)
	Unacked        uint64        // frames whose retry chain ran out
	DriverDropped  uint64        // frames the driver freed at maxQueue pending
	BadRate        uint64        // chain entries with an index the band lacks
	Busy           time.Duration // medium time of all exchanges
	MaxOutstanding int           // most frames one radio had without a status
	// DataRate counts A-MPDU exchanges by the rate of their last attempt.
	DataRate map[radio.Rate]uint64
}

func (s *Stats) outstandingMax(n int) { s.MaxOutstanding = max(s.MaxOutstanding, n) }

func (s *Stats) account(x *exchange, r radio.Rate, d time.Duration) {
	s.PPDUs++
	s.Busy += d
	if len(x.frames) > 1 {
		s.AMPDUs++
		s.AggFrames += uint64(len(x.frames))
		if s.DataRate == nil {
			s.DataRate = map[radio.Rate]uint64{}
		}
		s.DataRate[r]++
	}
}

// Stats returns the counters so far.
func (m *Medium) Stats() Stats {
	s := m.st
	s.DataRate = make(map[radio.Rate]uint64, len(m.st.DataRate))
	for k, v := range m.st.DataRate {
		s.DataRate[k] = v
	}
	return s
}

// Since returns the counters of s minus those of an earlier snapshot o
// (MaxOutstanding is s's).
func (s Stats) Since(o Stats) Stats {
	d := s
	d.Frames -= o.Frames
	d.PPDUs -= o.PPDUs
	d.AMPDUs -= o.AMPDUs
	d.AggFrames -= o.AggFrames
	d.Attempts -= o.Attempts
	d.FailedAttempts -= o.FailedAttempts
	d.Unacked -= o.Unacked
	d.DriverDropped -= o.DriverDropped
	d.BadRate -= o.BadRate
	d.Busy -= o.Busy
	d.DataRate = map[radio.Rate]uint64{}
	for k, v := range s.DataRate {
		if n := v - o.DataRate[k]; n > 0 {
			d.DataRate[k] = n
		}
	}
	return d
}

// Text is one line of key=value pairs over an interval of length span.
func (s Stats) Text(span time.Duration) string {
	agg := 0.0
	if s.AMPDUs > 0 {
		agg = float64(s.AggFrames) / float64(s.AMPDUs)
	}
	busy := 0.0
	if span > 0 {
		busy = 100 * float64(s.Busy) / float64(span)
	}
	var top radio.Rate
	for k, v := range s.DataRate {
		if v > s.DataRate[top] {
			top = k
		}
	}
	rate := "none"
	if top.Mode != radio.ModeNone {
		rate = fmt.Sprintf("%s-mcs%d-nss%d-%dmhz-sgi%v-%dkbps", mode(top), top.MCS, top.NSS, top.Bandwidth, top.ShortGI, top.Kbps())
	}
	return fmt.Sprintf("frames=%d ppdus=%d ampdus=%d mpdus_per_ampdu=%.1f busy_pct=%.1f attempts=%d failed=%d unacked=%d driver_dropped=%d bad_rate=%d outstanding_max=%d ampdu_rate=%s",
		s.Frames, s.PPDUs, s.AMPDUs, agg, busy, s.Attempts, s.FailedAttempts, s.Unacked, s.DriverDropped, s.BadRate, s.MaxOutstanding, rate)
}

func mode(r radio.Rate) string {
	switch r.Mode {
	case radio.ModeHT:
		return "ht"
	case radio.ModeVHT:
		return "vht"
	case radio.ModeLegacy:
		return "legacy"
	}
	return "?"
}
