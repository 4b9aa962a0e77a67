package main

import (
	"flag"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/config"
	"github.com/airq/airq/monitor"
	"github.com/airq/airq/scan"
)

// Automatic channel selection: -channel 0, or channel=0 / channel=acs_survey
// in the file, as hostapd's survey-based ACS. Before beaconing the core
// scans every channel of the band (hw_mode; both bands without it, 5 GHz
// only with -vht) that the regulatory domain does not disable, active
// where it allows it and passive on no-IR and radar channels, reads the
// radio's survey after each dwell, and picks the channel with the least
// busy time and interference, neighbours counted. airq does no radar
// detection, so passive channels are scanned for the record but never
// chosen; -acs-exclude-dfs leaves them out of the scan too, which shortens
// it. The decision is logged with each channel's figures at start.

func (o *options) registerACS(fs *flag.FlagSet) {
	a := &o.ACS
	fs.BoolVar(&a.ExcludeDFS, "acs-exclude-dfs", false, "with -channel 0: leave radar and no-IR channels out of the start-up scan (they are never chosen)")
	fs.IntVar(&a.NumScans, "acs-num-scans", scan.DefaultStartupRuns, "with -channel 0: scans of the whole channel list before choosing (1-100)")
	fs.StringVar(&a.Bias, "acs-chan-bias", "", "with -channel 0: channel:factor pairs scaling channels' scores, such as \"1:0.8 6:0.8 11:0.8\" (the 2.4 GHz default); below 1 prefers a channel; \"none\" for no bias")
}

// checkACS validates the settings.
func (o *options) checkACS() error {
	a := o.ACS
	if a.NumScans < 1 || a.NumScans > 100 {
		return fmt.Errorf("-acs-num-scans: %d, want 1 to 100", a.NumScans)
	}
	b, none, err := config.ParseChanBias(a.Bias)
	if err != nil {
		return fmt.Errorf("-acs-chan-bias: %q: %w", a.Bias, err)
	}
	o.biases, o.noBias = b, none
	return nil
}

// acsConfig is the core's ACS configuration over the candidates.
func (o *options) acsConfig(chans []scan.Channel) *ap.ACSConfig {
	return &ap.ACSConfig{
		Channels: chans,
		Runs:     o.ACS.NumScans,
		Select:   scan.ACSConfig{Bias: o.biases, NoBias: o.noBias},
	}
}

// acsFilter chooses the candidates from a channel plan: hw_mode's band,
// and 5 GHz only with VHT, and those chanlist and freqlist allow.
func (o *options) acsFilter() monitor.ACSFilter {
	f := monitor.ACSFilter{Band2GHz: true, Band5GHz: true, ExcludeDFS: o.ACS.ExcludeDFS}
	if o.ACS.ChanList != nil || o.ACS.FreqList != nil {
		f.Allow = o.ACS.ACSAllows
	}
	switch {
	case o.HWMode == "a" || o.PHY.VHT:
		f.Band2GHz = false
	case o.HWMode == "b" || o.HWMode == "g":
		f.Band5GHz = false
	}
	return f
}

// acsSimChannels is the simulator's US plan, filtered like the radio's.
func (o *options) acsSimChannels(plan []scan.Channel) []scan.Channel {
	return o.acsFilter().Candidates(plan)
}

// logDecision logs the choice: one line with the outcome, then the
// per-channel figures in hostapd's ACS phrasing (scan.AppendDecision).
func logDecision(log *slog.Logger, d scan.Decision, took time.Duration) {
	log.Info("ACS: channel selected", "channel", d.Channel, "freq", d.Freq, "width", d.Width, "method", d.Method,
		"score", d.Score, "took", took.Round(time.Millisecond))
	for _, l := range strings.Split(strings.TrimSuffix(string(scan.AppendDecision(nil, &d)), "\n"), "\n") {
		log.Info(l)
	}
}
