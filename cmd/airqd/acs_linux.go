package main

import (
	"fmt"
	"log/slog"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/inject"
	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/shell"
)

// acsSetup fills cfg.ACS for -channel 0 from the phy's channels under the
// applied domain, with each band's Country element, and returns the
// channel the monitor starts on (for the qualification): the first
// candidate that allows beaconing, 20 MHz wide.
func acsSetup(cfg *ap.Config, o options, phy nl80211.PHY, dom nl80211.RegDomain) (nl80211.Channel, error) {
	chans := o.acsChannels(phy)
	cfg.ACS = o.acsConfig(chans)
	cfg.ACS.Country2GHz = countryElement(dom, phy, 2412)
	cfg.ACS.Country5GHz = countryElement(dom, phy, 5180)
	if _, err := cfg.Resolve(); err != nil {
		return nl80211.Channel{}, err
	}
	for _, c := range chans {
		if !c.Passive {
			return nl80211.NewChannel(c.Freq, nl80211.Width20NoHT, false)
		}
	}
	return nl80211.Channel{}, fmt.Errorf("%s: no channel allows beaconing for automatic selection (set -country, or hw_mode)", phy.Name)
}

// newRetuner carries out the core's retunes: trips and the start-up scan
// away at 20 MHz with other networks' beacons let through, home on the
// operating channel at its width. During the start-up scan it reads the
// phy's survey on landing and on leaving each channel and reports the
// dwell's figures to the core, before the core hears of the retune (the
// retuner runs on the core's loop, between Retune and Retuned); the
// retune to the channel the radio is on, which ends the scan, only reads
// it. The choice is logged when the radio goes home for the first time.
func newRetuner(nl *nl80211.Conn, phy nl80211.PHY, mon nl80211.Interface, dev *inject.Device, core *ap.AP, log *slog.Logger) shell.Retuner {
	var t surveyTracker
	logged := false
	survey := func() []nl80211.SurveyInfo {
		if t.failed {
			return nil
		}
		ss, err := nl.Survey(mon.Index)
		if err != nil {
			t.failed = true
			log.Info("ACS: no channel survey from the driver; neighbours alone decide", "err", err)
		}
		return ss
	}
	return func(freq int, home bool) error {
		acs := core.ACSScanning()
		if acs && t.cur != 0 {
			left := t.cur
			if f, r, ok := t.leave(survey()); ok {
				core.ReportSurvey(f, r)
			}
			t.cur = 0
			if freq == left {
				return nil // the end of the scan: the radio stays
			}
		}
		if home {
			c := core.Config()
			ch, err := nl80211.NewChannel(c.Freq, nlWidth(c.PHY), c.PHY.Secondary > 0)
			if err == nil {
				err = phy.ValidateOperating(ch)
			}
			if err == nil {
				err = nl.SetChannel(mon.Index, ch)
			}
			if err != nil {
				return fmt.Errorf("channel %d: %w", c.Channel, err)
			}
			if d, ok := core.ACSDecision(); ok && !logged {
				logged = true
				logDecision(log, d, core.ACSTook())
			}
			return dev.SetScanning(false)
		}
		away, err := nl80211.NewChannel(freq, nl80211.Width20NoHT, false)
		if err == nil {
			err = dev.SetScanning(true)
		}
		if err == nil {
			err = nl.SetChannel(mon.Index, away)
		}
		if acs {
			t.arrive(freq, survey())
		}
		return err
	}
}
