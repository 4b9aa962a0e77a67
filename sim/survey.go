package sim

import (
	"time"

	"github.com/airq/airq/scan"
)

// The AP's radio keeps a channel survey as a driver does (nl80211's
// survey: active, busy, receive and transmit time, noise): per channel,
// how long it was tuned there, and of that time how long the medium was
// busy, with someone else's frame (receive) or its own (transmit). The
// simulator hands the core each channel's figures since the last report
// (ap.AP.ReportSurvey) when the radio leaves the channel, before the core
// hears it arrived elsewhere, and before a survey dump is answered: what
// airqd's loop does with the driver's counters.

// airSurvey is one channel's cumulative figures and what was reported.
type airSurvey struct {
	active, busy, rx, tx time.Duration
	counted              bool // the frame on the air now is in busy (and rx or tx)
	reported             [4]time.Duration
}

// listening reports whether the AP's radio is on a and hears it.
func (s *Sim) listening(a *air) bool {
	return !s.radio.retuning && s.med.nodes[0].freq == a.freq && a.freq != 0
}

// surveyHeard books a frame exchange of d that starts on a now.
func (s *Sim) surveyHeard(a *air, d time.Duration) {
	sv := &a.survey
	sv.counted = s.listening(a)
	if !sv.counted {
		return
	}
	sv.busy += d
	for _, c := range a.txing {
		if c.node.id == 0 {
			sv.tx += d
			return
		}
	}
	sv.rx += d
}

// surveyLeave closes the AP's time on its channel (the part of a frame
// still on the air is not heard) and reports the channel.
func (s *Sim) surveyLeave() {
	apn := s.med.nodes[0]
	if apn.freq == 0 || s.radio.retuning {
		return
	}
	s.surveyReport()
	a := s.med.airOf(apn.freq)
	sv := &a.survey
	sv.active += s.now - s.radio.landed
	if a.busy && sv.counted {
		left := a.busyUntil - s.now
		sv.busy -= left
		sv.rx -= left // the radio waits for its own frame to end
		sv.counted = false
	}
	sv.reported = [4]time.Duration{sv.active, sv.busy, sv.rx, sv.tx}
}

// surveyArrive starts the AP's time on its new channel; a frame already on
// the air there is heard from now on.
func (s *Sim) surveyArrive() {
	s.radio.landed = s.now
	a := s.med.airOf(s.med.nodes[0].freq)
	if a.busy && !a.survey.counted {
		left := a.busyUntil - s.now
		a.survey.busy += left
		a.survey.rx += left
		a.survey.counted = true
	}
}

// surveyReport hands the core the figures of the AP's channel since the
// last report, the time up to now included.
func (s *Sim) surveyReport() {
	apn := s.med.nodes[0]
	if apn.freq == 0 || s.radio.retuning {
		return
	}
	a := s.med.airOf(apn.freq)
	sv := &a.survey
	now := [4]time.Duration{sv.active + s.now - s.radio.landed, sv.busy, sv.rx, sv.tx}
	if a.busy && sv.counted {
		// Only what was on the air up to now.
		left := a.busyUntil - s.now
		now[1] -= left
		if s.apOnAir() {
			now[3] -= left
		} else {
			now[2] -= left
		}
	}
	var d [4]time.Duration
	for i := range d {
		d[i] = now[i] - sv.reported[i]
	}
	sv.reported = now
	if d[0] <= 0 {
		return
	}
	s.core.ReportSurvey(int(a.freq), scan.SurveyReport{Active: d[0], Busy: d[1], Rx: d[2], Tx: d[3],
		Noise: s.cfg.Medium.Noise, HasNoise: true})
}
