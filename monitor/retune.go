package monitor

import (
	"fmt"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/nl80211"
)

// Retuner returns what carries out the core's retunes: trips and the
// start-up scan away at 20 MHz with other networks' beacons let through,
// home on the operating channel at its width. During the start-up scan it
// reads the phy's survey on landing and on leaving each channel and
// reports the dwell's figures to the core, before the core hears of the
// retune (the retuner runs on the core's loop, between Retune and
// Retuned); the retune to the channel the radio is on, which ends the
// scan, only reads it. The choice goes to Options.OnACSDecision when the
// radio goes home for the first time.
func (r *Radio) Retuner(core *ap.AP) func(freq int, home bool) error {
	var t surveyTracker
	told := false
	return func(freq int, home bool) error {
		acs := core.ACSScanning()
		if acs && t.cur != 0 {
			left := t.cur
			if f, rep, ok := t.leave(r.survey(&t)); ok {
				core.ReportSurvey(f, rep)
			}
			t.cur = 0
			if freq == left {
				return nil // the end of the scan: the radio stays
			}
		}
		if home {
			if err := r.home(core.TunedConfig()); err != nil {
				return err
			}
			if d, ok := core.ACSDecision(); ok && !told && r.o.OnACSDecision != nil {
				told = true
				r.o.OnACSDecision(d, core.ACSTook())
			}
			return r.dev.SetScanning(false)
		}
		away, err := nl80211.NewChannel(freq, nl80211.Width20NoHT, false)
		if err == nil {
			err = r.dev.SetScanning(true)
		}
		if err == nil {
			err = r.nl.SetChannel(r.mon.Index, away)
		}
		if acs {
			t.arrive(freq, r.survey(&t))
		}
		return err
	}
}

// home tunes the monitor to the core's operating channel.
func (r *Radio) home(c ap.Config) error {
	ch, err := operating(c)
	if err == nil {
		err = r.phy.ValidateOperating(ch)
	}
	if err == nil {
		err = r.nl.SetChannel(r.mon.Index, ch)
	}
	if err != nil {
		return fmt.Errorf("channel %d: %w", c.Channel, err)
	}
	return nil
}

// survey reads the phy's survey; a driver without one is asked once.
func (r *Radio) survey(t *surveyTracker) []nl80211.SurveyInfo {
	if t.failed {
		return nil
	}
	ss, err := r.nl.Survey(r.mon.Index)
	if err != nil {
		t.failed = true
		r.log.Info("ACS: no channel survey from the driver; neighbours alone decide", "err", err)
	}
	return ss
}

// Survey reads the radio's nl80211 survey, every channel it has figures for.
func (r *Radio) Survey() ([]nl80211.SurveyInfo, error) { return r.nl.Survey(r.mon.Index) }
