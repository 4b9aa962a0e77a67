package scan

import (
	"fmt"
	"io"
)

// The scan and survey dumps operators read (`iw dev X scan dump`, `iw dev
// X survey dump`) are printed by package ctl from the records it carries to
// airqctl; here is the channel selection, in hostapd's ACS debug phrasing.

// AppendDecision appends a channel selection in the phrasing of hostapd's
// ACS debug output, one line per channel with the figures behind it.
func AppendDecision(b []byte, d *Decision) []byte {
	b = fmt.Appendf(b, "ACS: selection by %s, %d MHz\n", d.Method, d.Width)
	for i := range d.Channels {
		s := &d.Channels[i]
		b = fmt.Appendf(b, "ACS:  * channel %d (%d MHz):", s.Channel, s.Freq)
		if s.HasSurvey {
			b = fmt.Appendf(b, " busy %.6f nf %d interference %.6g", s.Busy, s.Noise, s.Interference)
		}
		b = fmt.Appendf(b, " neighbours %d (+%.6g)", s.Neighbours, s.NeighbourPenalty)
		if !s.Candidate {
			b = append(b, " not a candidate\n"...)
			continue
		}
		b = fmt.Appendf(b, " total interference = %.6g", s.Total)
		if s.Bias != 1 {
			b = fmt.Appendf(b, " (%.2f bias)", s.Bias)
		}
		b = fmt.Appendf(b, " score %.6g\n", s.Score)
	}
	if d.Freq != 0 {
		b = fmt.Appendf(b, "ACS: Ideal channel is %d (%d MHz) with total interference factor of %.6g\n", d.Channel, d.Freq, d.Score)
	}
	return b
}

// WriteDecision writes AppendDecision's text to w.
func WriteDecision(w io.Writer, d *Decision) error {
	_, err := w.Write(AppendDecision(nil, d))
	return err
}
