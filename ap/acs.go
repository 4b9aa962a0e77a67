package ap

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/scan"
)

// ACSConfig turns on start-up channel selection (hostapd's channel=0 /
// acs_survey). It is used when Config.Channel and Config.Freq are both
// zero: Start does not beacon but scans the candidates first, StartupRuns
// times over the list, active where probing is allowed and passive on
// no-IR and radar channels; then scan.Select picks the channel from the
// survey figures the shell reports (ReportSurvey) and the neighbour BSSs
// heard, the core takes that channel and only then beacons.
//
// The core never operates on a channel it may only listen on: passive
// candidates, and wider channels whose span holds one, are scanned and
// scored but never chosen (airq does no radar detection).
//
// Retunes go through the same Retune/Retuned actions as background trips.
// The shell should read the radio's survey of the channel it leaves each
// time it carries out a retune and hand it to ReportSurvey before calling
// Retuned: after the last dwell the core asks for one retune to the channel
// the radio is already on, so the last channel's figures arrive before the
// choice too.
type ACSConfig struct {
	// Channels are the 20 MHz candidates: disabled ones are never visited,
	// passive ones are listened to only.
	Channels []scan.Channel
	// Select tunes the scoring. Width zero takes PHY.Width; ExcludePassive
	// is always on (see above).
	Select scan.ACSConfig
	// Dwell is the listening time per channel and run; default
	// scan.DefaultStartupDwell (100 ms, as hostapd's ACS scans).
	Dwell time.Duration
	// Runs is how many times the whole list is scanned (hostapd's
	// acs_num_scans); default scan.DefaultStartupRuns (5).
	Runs int
	// SSIDs are probed for besides the wildcard.
	SSIDs []string
	// Country2GHz and Country5GHz, when set, replace Config.Country for a
	// channel chosen in their band.
	Country2GHz, Country5GHz *Country
}

// acsMinDwell is the shortest dwell worth a visit: the probe delay and a
// probe response's round trip.
const acsMinDwell = 10 * time.Millisecond

type acsStage uint8

const (
	acsIdle     acsStage = iota // not started
	acsTuning                   // a retune to the current visit is pending
	acsDwelling                 // on the visit's channel
	acsSettling                 // the last dwell is over; waiting for the shell's last survey
	acsHoming                   // the choice is made; the retune home is pending
	acsDone
)

// acsState runs the start-up scan.
type acsState struct {
	cfg     ACSConfig
	orig    Config // as given, unresolved: the choice resolves it
	table   *scan.Table
	probe   time.Duration // probe delay
	visits  []scan.Visit
	visit   int
	stage   acsStage
	start   time.Duration // the current visit's start: when the radio was tuned
	probed  bool
	askedAt time.Duration
	began   time.Duration
	rates24 bss.RateSet
	rates5  bss.RateSet

	decision scan.Decision
	chosen   bool          // the decision is made
	took     time.Duration // from Start to the choice

	// coex, when set, makes this the 20/40 MHz check's listening (coex.go):
	// on a configured channel, or on the chosen one after a selection.
	coex *coexCheck
}

// selection reports whether s is a channel selection, whether or not the
// 20/40 MHz check of its choice follows.
func (s *acsState) selection() bool { return s.coex == nil || s.coex.afterACS }

// acsPending reports whether c asks for start-up channel selection.
func (c Config) acsPending() bool { return c.ACS != nil && c.Channel == 0 && c.Freq == 0 }

// withACS validates a configuration whose channel ACS picks: everything
// must resolve on at least one candidate the core could operate on. It
// returns c with the defaults that do not depend on the channel filled in
// and Channel, Freq, rates and PHY left for the choice.
func (c Config) withACS() (Config, error) {
	a := *c.ACS
	if a.Dwell == 0 {
		a.Dwell = scan.DefaultStartupDwell
	}
	if a.Runs == 0 {
		a.Runs = scan.DefaultStartupRuns
	}
	switch {
	case a.Dwell < acsMinDwell || a.Dwell > time.Second:
		return c, fmt.Errorf("acs dwell: %v, want %v to 1s", a.Dwell, acsMinDwell)
	case a.Runs < 1 || a.Runs > 100:
		return c, fmt.Errorf("acs_num_scans: %d, want 1 to 100", a.Runs)
	}
	w := c.acsWidth()
	if w != 20 && w != 40 && w != 80 {
		return c, fmt.Errorf("acs: channel width %d MHz, want 20, 40 or 80 with automatic selection", w)
	}
	if a.Select.Width != 0 && c.PHY.Width != 0 && a.Select.Width != c.PHY.Width {
		return c, fmt.Errorf("acs: width %d MHz differs from the operating width %d MHz", a.Select.Width, c.PHY.Width)
	}
	var first error
	for _, ch := range a.Channels {
		if ch.Disabled || ch.Passive {
			continue
		}
		r, err := c.acsResolve(a.Channels, ch.Freq)
		if err == nil {
			r.Channel, r.Freq = 0, 0
			r.Rates, r.BasicRates, r.PHY, r.Country = c.Rates, c.BasicRates, c.PHY, c.Country
			r.ACS = &a
			r.ACS.Channels = slices.Clone(a.Channels)
			return r, nil
		}
		if first == nil {
			first = err
		}
	}
	if first == nil {
		return c, fmt.Errorf("channel: 0 (automatic selection) needs a candidate channel that allows beaconing, among %d", len(a.Channels))
	}
	return c, first
}

func (c Config) acsWidth() int {
	switch {
	case c.ACS != nil && c.ACS.Select.Width != 0:
		return c.ACS.Select.Width
	case c.PHY.Width != 0:
		return c.PHY.Width
	}
	return 20
}

// acsResolve resolves c on the 20 MHz primary freq, with the span of the
// operating width above it (ACS puts the primary lowest, as hostapd does).
// Every 20 MHz channel of the span must be a candidate that allows
// beaconing.
func (c Config) acsResolve(chans []scan.Channel, freq int) (Config, error) {
	w := c.acsWidth()
	for j := range w / 20 {
		f := freq + 20*j
		i := slices.IndexFunc(chans, func(ch scan.Channel) bool { return ch.Freq == f })
		if i < 0 || chans[i].Disabled || chans[i].Passive {
			return c, fmt.Errorf("channel: %d MHz: the %d MHz channel needs %d MHz, which is not a candidate that allows beaconing", freq, w, f)
		}
	}
	r := c
	r.ACS = nil
	r.Freq = freq
	r.Channel = ieee80211.FreqToChannel(freq)
	if w == 40 {
		r.PHY.Secondary = 1
	}
	r.PHY.Width = w
	if a := c.ACS; a != nil {
		switch {
		case freq < 3000 && a.Country2GHz != nil:
			r.Country = a.Country2GHz
		case freq >= 3000 && a.Country5GHz != nil:
			r.Country = a.Country5GHz
		}
	}
	return r.withDefaults()
}

// newACS prepares the start-up scan of a core whose configuration is
// pending (withACS).
func newACS(c Config) (*acsState, error) {
	a := c.ACS
	// The start-up visits come from the planner; only Startup is used, so
	// its trip limits are those of a nominal 100 TU beacon interval.
	pc := scan.Config{
		Channels:       a.Channels,
		BeaconInterval: max(time.Duration(c.BeaconInterval), 100) * 1024 * time.Microsecond,
		StartupDwell:   a.Dwell,
		StartupRuns:    a.Runs,
	}
	p, err := scan.New(pc)
	if err != nil {
		return nil, err
	}
	tc := scan.TableConfig{}
	if c.Scan != nil {
		tc = c.Scan.Table
	}
	if tc.Freqs == nil {
		// One table for the start-up scan and the background trips that
		// follow: what the choice was made from stays visible.
		for _, ch := range a.Channels {
			if !ch.Disabled {
				tc.Freqs = append(tc.Freqs, ch.Freq)
			}
		}
		if c.Scan != nil {
			for _, ch := range c.Scan.Planner.Channels {
				if !slices.Contains(tc.Freqs, ch.Freq) {
					tc.Freqs = append(tc.Freqs, ch.Freq)
				}
			}
		}
	}
	r24, b24 := defaultRates(2412)
	r5, b5 := defaultRates(5180)
	s := &acsState{
		cfg: *a, table: scan.NewTable(tc), probe: p.Config().ProbeDelay,
		rates24: bss.NewRateSet(r24, b24), rates5: bss.NewRateSet(r5, b5),
	}
	s.visits = p.Startup(nil, 0)
	return s, nil
}

// active reports whether the start-up scan is running: nothing is beaconed
// and no station is served until it is done.
func (s *acsState) active() bool { return s != nil && s.stage != acsDone }

// acsStart begins the start-up scan at now; false if there is none to run.
func (a *AP) acsStart(now time.Duration) bool {
	s := a.acs
	if s == nil || s.stage != acsIdle {
		return false
	}
	s.began = now
	s.visit = 0
	a.acsTune(now, s.visits[0].Freq, acsTuning)
	return true
}

func (a *AP) acsTune(now time.Duration, freq int, st acsStage) {
	s := a.acs
	s.stage, s.askedAt, s.probed = st, now, false
	a.retuneTo = freq
}

// acsRetuned is Retuned during the start-up scan.
func (a *AP) acsRetuned(now time.Duration) {
	s := a.acs
	freq := a.retuneTo
	a.retuneTo, a.onFreq = 0, freq
	switch s.stage {
	case acsTuning:
		// Probes go at the lowest rate of the band being scanned.
		a.bss.Rates = s.rates5
		if freq < 3000 {
			a.bss.Rates = s.rates24
		}
		s.stage, s.start = acsDwelling, now
		a.acsTick(now)
	case acsSettling:
		if s.coex != nil {
			a.coexDecide(now)
			return
		}
		a.acsDecide(now)
	case acsHoming:
		s.stage = acsDone
		a.acsRunning(now)
	}
}

// acsTick moves the start-up scan on: probe, end the dwell, go on.
func (a *AP) acsTick(now time.Duration) {
	s := a.acs
	a.expireFlights(now)
	if s.stage != acsDwelling {
		return
	}
	v := s.visits[s.visit]
	if v.Probe && !s.probed && now >= s.start+s.probe {
		s.probed = true
		a.sendProbes(now, a.acs.cfg.SSIDs)
	}
	if now < s.start+v.Dwell {
		return
	}
	s.table.Dwelt(v.Freq, now-s.start)
	s.visit++
	if s.visit < len(s.visits) {
		a.acsTune(now, s.visits[s.visit].Freq, acsTuning)
		return
	}
	// A retune to where the radio is: the shell reports the last
	// channel's survey before the choice.
	a.acsTune(now, v.Freq, acsSettling)
}

// acsDeadline is when acsTick next has something to do.
func (a *AP) acsDeadline() time.Duration {
	s := a.acs
	if s.stage != acsDwelling {
		// Waiting for the shell: nothing to do until it answers.
		return s.askedAt + time.Second
	}
	v := s.visits[s.visit]
	if v.Probe && !s.probed {
		return s.start + s.probe
	}
	return s.start + v.Dwell
}

// acsHeard records a beacon or probe response heard during the scan.
func (a *AP) acsHeard(now time.Duration, fr ieee80211.Frame) {
	if a.bssOf(fr.Addr3()) != nil {
		return // one of the radio's own
	}
	ri := a.rx
	if ri.Freq == 0 {
		ri.Freq = uint16(a.onFreq)
	}
	a.acs.table.Update(now, fr, &ri)
	if k := a.acs.coex; k != nil {
		if b, ok := a.acs.table.Get(fr.Addr3()); ok {
			k.heard(b)
		}
	}
}

// acsDecide picks the channel, resolves the configuration on it and asks
// for the retune home.
func (a *AP) acsDecide(now time.Duration) {
	s := a.acs
	chans := s.cfg.Channels
	sel := s.cfg.Select
	sel.Width = s.orig.acsWidth()
	sel.ExcludePassive = true
	surveys := s.table.Surveys(nil, now)
	bsses := s.table.All(nil, now)
	d, err := scan.Select(chans, surveys, bsses, sel)
	if err != nil && d.Method == "survey" {
		// The survey covered none of the usable candidates: the
		// neighbours alone decide.
		d, err = scan.Select(chans, nil, bsses, sel)
	}
	cfg, ok := Config{}, false
	if err == nil {
		// The best score first; a channel the core cannot operate on
		// (its span reaches a passive channel) gives way to the next.
		order := make([]int, 0, len(d.Channels))
		for i, c := range d.Channels {
			if c.Candidate {
				order = append(order, i)
			}
		}
		slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(d.Channels[x].Score, d.Channels[y].Score) })
		for _, i := range order {
			if cfg, err = s.orig.acsResolve(chans, d.Channels[i].Freq); err == nil {
				d.Freq, d.Channel, d.Score, ok = d.Channels[i].Freq, d.Channels[i].Channel, d.Channels[i].Score, true
				break
			}
		}
	}
	if !ok {
		// Validation found a channel that works: take the first.
		d.Method = "fallback"
		for _, c := range chans {
			if c.Disabled || c.Passive {
				continue
			}
			if cfg, err = s.orig.acsResolve(chans, c.Freq); err == nil {
				d.Freq, d.Channel, d.Score = c.Freq, ieee80211.FreqToChannel(c.Freq), 0
				break
			}
		}
	}
	s.decision, s.took = d, now-s.began
	cfg.ACS = s.orig.ACS
	a.adopt(cfg)
	s.table.SetInUse(cfg.Freq)
	s.chosen = true
	if cfg.coexPending() {
		// coex.go: hostapd checks the chosen pair as a configured one.
		a.coexAfterACS(now)
		return
	}
	a.acsTune(now, cfg.Freq, acsHoming)
}

// adopt makes cfg, resolved on the chosen channel, the core's: everything
// that depends on the channel or band is rebuilt.
func (a *AP) adopt(cfg Config) {
	// What is set live while the scan runs does not depend on the channel:
	// the BSS's lists and the airtime weights and policy.
	cfg.ACL = a.bss.ACL
	cfg.AirtimeWeight, cfg.Airtime = a.cfg.AirtimeWeight, a.cfg.Airtime
	a.cfg = cfg
	a.bss.Rates = bss.NewRateSet(cfg.Rates, cfg.BasicRates)
	a.bss.PHY = bss.NewPHYElems(cfg.BSSPHY(0), cfg.Channel, cfg.Freq, a.bss.Rates.IE)
	a.est = aql.NewEstimator(channelTiming(cfg))
}

// acsRunning starts the BSS on the chosen channel: background scanning (if
// configured) with it as home, then beaconing.
func (a *AP) acsRunning(now time.Duration) {
	if a.acs.selection() && a.cfg.Scan != nil { // with the 20/40 MHz check alone, New made the scanner
		sc, err := newScanner(a.cfg)
		if err != nil {
			// The trip plan does not fit this configuration: run without.
			a.scanStats.RetuneTooSlow++
		} else {
			if a.cfg.Scan.Table.Freqs == nil {
				sc.table = a.acs.table
			}
			a.scan = sc
		}
	}
	a.Start(now)
}

// ReportSurvey adds the radio's survey figures for freq (a dwell's worth:
// the difference between two readings of cumulative counters) to the
// channel's survey. It returns false if no survey is kept for freq.
func (a *AP) ReportSurvey(freq int, r scan.SurveyReport) bool {
	if t := a.surveyTable(); t != nil {
		return t.Report(freq, r)
	}
	return false
}

// surveyTable is where the channels' surveys are kept: the start-up
// selection's table while it runs, the background scan's, the start-up
// selection's once done (without -scan: it surveyed the candidates), or
// the operating channel's alone.
func (a *AP) surveyTable() *scan.Table {
	switch {
	case a.acs.active():
		return a.acs.table
	case a.scan != nil:
		return a.scan.table
	case a.acs != nil && a.acs.selection():
		return a.acs.table
	}
	return a.home
}

// ACSDecision returns the start-up channel selection, once made; its text
// (scan.AppendDecision) is what the log and airqctl show.
func (a *AP) ACSDecision() (scan.Decision, bool) {
	if a.acs == nil || !a.acs.chosen {
		return scan.Decision{}, false
	}
	return a.acs.decision, true
}

// ACSScanning reports whether the start-up scan is running: the core does
// not beacon yet, and a shell that reads the radio's survey should do so at
// each retune.
func (a *AP) ACSScanning() bool { return a.acs.active() }

// HomeFreq is the channel the radio beacons on, MHz, or 0 while the
// start-up scan listens: a retune to the configured channel then is one of
// its visits (the 20/40 MHz check listens there too), not the way home.
func (a *AP) HomeFreq() int {
	if s := a.acs; s.active() && s.stage < acsHoming {
		return 0
	}
	return a.cfg.Freq
}

// ACSTook returns how long the start-up scan took, from Start to the
// choice; zero before.
func (a *AP) ACSTook() time.Duration {
	if a.acs == nil {
		return 0
	}
	return a.acs.took
}
