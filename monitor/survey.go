package monitor

import (
	"time"

	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/scan"
)

// surveyTracker turns the radio's cumulative survey counters into one
// dwell's figures: it takes a reading when the radio lands on a channel and
// another when it leaves. Drivers that restart a channel's counters at
// each tune (their second reading is below the first) report the dwell on
// their own: that reading is taken as it is.
type surveyTracker struct {
	cur    int
	at     nl80211.SurveyInfo
	have   bool
	failed bool // the driver gives no survey: stop asking
}

// arrive records the reading on landing at freq.
func (t *surveyTracker) arrive(freq int, ss []nl80211.SurveyInfo) {
	t.cur, t.have = freq, false
	for _, s := range ss {
		if s.Freq == freq {
			t.at, t.have = s, true
		}
	}
}

// leave returns the dwell's figures for the channel being left.
func (t *surveyTracker) leave(ss []nl80211.SurveyInfo) (int, scan.SurveyReport, bool) {
	for _, s := range ss {
		if s.Freq != t.cur || s.Time == 0 {
			continue
		}
		d := s
		if t.have && s.Time >= t.at.Time && s.TimeBusy >= t.at.TimeBusy {
			d.Time -= t.at.Time
			d.TimeBusy -= t.at.TimeBusy
			d.TimeRX -= min(t.at.TimeRX, d.TimeRX)
			d.TimeTX -= min(t.at.TimeTX, d.TimeTX)
		}
		if d.Time == 0 {
			return 0, scan.SurveyReport{}, false
		}
		ms := func(v uint64) time.Duration { return time.Duration(v) * time.Millisecond }
		r := scan.SurveyReport{Active: ms(d.Time), Busy: ms(d.TimeBusy), Rx: ms(d.TimeRX), Tx: ms(d.TimeTX),
			Noise: int8(s.Noise), HasNoise: s.HasNoise}
		return t.cur, r, true
	}
	return 0, scan.SurveyReport{}, false
}
