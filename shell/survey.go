package shell

import (
	"log/slog"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/scan"
)

// SurveyReader reads the radio's channel survey: nl80211's survey dump,
// cumulative figures per channel (nl80211.Conn.Survey).
type SurveyReader func() ([]nl80211.SurveyInfo, error)

// WithSurvey lets Run hand the core the radio's survey figures, so that
// survey dump shows the driver's active, busy, receive and transmit time
// and noise: after each retune the channel left is reported and the new
// one's reading kept, and before a survey dump is answered the channel the
// radio is on is reported up to then. The start-up channel selection's
// own retunes are left to the Retuner, which reads the survey around them
// (airqd's does).
func WithSurvey(r SurveyReader) Option {
	return func(o *runOptions) { o.survey = &surveyTracker{read: r} }
}

// surveyTracker turns the cumulative readings into the figures of the
// time the radio spent on a channel: the difference between the reading
// taken after it arrived and one taken after it left (a channel's counters
// stand still while the radio is elsewhere) or, for the channel it is on,
// now. A reading below the one it follows is a driver that restarts a
// channel's counters when it tunes there (mac80211_hwsim does): it is
// taken as it is.
type surveyTracker struct {
	read   SurveyReader
	cur    int                // the radio's channel; 0: unknown
	base   nl80211.SurveyInfo // its reading on arrival, or at the last report
	have   bool               // base holds a reading
	failed bool               // the driver gives no survey: stop asking
}

// readings reads the survey; after a failure it stops asking.
func (t *surveyTracker) readings(log *slog.Logger) []nl80211.SurveyInfo {
	if t == nil || t.failed {
		return nil
	}
	ss, err := t.read()
	if err != nil {
		t.failed = true
		log.Info("channel survey: the driver gives none; survey dump shows airq's own counts", "err", err)
	}
	return ss
}

// arrived keeps the reading of freq, where the radio now is.
func (t *surveyTracker) arrived(freq int, ss []nl80211.SurveyInfo) {
	t.cur, t.have = freq, false
	if s, ok := findSurvey(ss, freq); ok {
		t.base, t.have = s, true
	}
}

// report hands the core the current channel's figures since base.
func (t *surveyTracker) report(core *ap.AP, ss []nl80211.SurveyInfo) {
	s, ok := findSurvey(ss, t.cur)
	if !ok || t.cur == 0 {
		return
	}
	if r, ok := surveyDelta(t.base, s, t.have); ok {
		core.ReportSurvey(t.cur, r)
	}
}

// retuned runs after the radio moved to freq: the channel left is
// reported (not during the start-up selection, whose Retuner reports),
// and freq's reading kept.
func (t *surveyTracker) retuned(core *ap.AP, freq int, log *slog.Logger) {
	ss := t.readings(log)
	if ss == nil {
		return
	}
	if !core.ACSScanning() {
		t.report(core, ss)
	}
	t.arrived(freq, ss)
}

// refresh reports the channel the radio is on up to now and starts over
// from this reading.
func (t *surveyTracker) refresh(core *ap.AP, log *slog.Logger) {
	ss := t.readings(log)
	if ss == nil || core.ACSScanning() {
		return
	}
	if t.cur == 0 {
		t.arrived(core.OnFreq(), ss)
		return
	}
	t.report(core, ss)
	t.arrived(t.cur, ss)
}

func findSurvey(ss []nl80211.SurveyInfo, freq int) (nl80211.SurveyInfo, bool) {
	for _, s := range ss {
		if s.Freq == freq && s.FreqOffsetKHz == 0 {
			return s, true
		}
	}
	return nl80211.SurveyInfo{}, false
}

// surveyDelta is the figures of s since base (s as it is when there is no
// base or the counters restarted); false when no time passed.
func surveyDelta(base, s nl80211.SurveyInfo, have bool) (scan.SurveyReport, bool) {
	d := s
	if have && s.Time >= base.Time && s.TimeBusy >= base.TimeBusy {
		d.Time -= base.Time
		d.TimeBusy -= base.TimeBusy
		d.TimeRX -= min(base.TimeRX, d.TimeRX)
		d.TimeTX -= min(base.TimeTX, d.TimeTX)
	}
	if d.Time == 0 {
		return scan.SurveyReport{}, false
	}
	ms := func(v uint64) time.Duration { return time.Duration(v) * time.Millisecond }
	return scan.SurveyReport{Active: ms(d.Time), Busy: ms(d.TimeBusy), Rx: ms(d.TimeRX), Tx: ms(d.TimeTX),
		Noise: int8(s.Noise), HasNoise: s.HasNoise}, true
}
