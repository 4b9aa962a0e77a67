package main

import (
	"flag"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/monitor"
	"github.com/airq/airq/scan"
	"github.com/airq/airq/sim"
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

// acsOptions are the ACS settings, as flags or as hostapd's keys.
type acsOptions struct {
	excludeDFS bool
	numScans   int
	bias       string // hostapd's acs_chan_bias: "1:0.8 6:0.8 11:0.8"
	biases     []scan.Bias
	noBias     bool
}

func (a *acsOptions) register(fs *flag.FlagSet) {
	fs.BoolVar(&a.excludeDFS, "acs-exclude-dfs", false, "with -channel 0: leave radar and no-IR channels out of the start-up scan (they are never chosen)")
	fs.IntVar(&a.numScans, "acs-num-scans", scan.DefaultStartupRuns, "with -channel 0: scans of the whole channel list before choosing (1-100)")
	fs.StringVar(&a.bias, "acs-chan-bias", "", "with -channel 0: channel:factor pairs scaling channels' scores, such as \"1:0.8 6:0.8 11:0.8\" (the 2.4 GHz default); below 1 prefers a channel; \"none\" for no bias")
}

// check validates the settings.
func (a *acsOptions) check() error {
	if a.numScans < 1 || a.numScans > 100 {
		return fmt.Errorf("-acs-num-scans: %d, want 1 to 100", a.numScans)
	}
	b, none, err := parseChanBias(a.bias)
	if err != nil {
		return fmt.Errorf("-acs-chan-bias: %q: %w", a.bias, err)
	}
	a.biases, a.noBias = b, none
	return nil
}

// parseChanBias reads hostapd's acs_chan_bias list: space-separated
// channel:factor pairs.
func parseChanBias(v string) (biases []scan.Bias, none bool, err error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, false, nil
	}
	if v == "none" {
		return nil, true, nil
	}
	for _, f := range strings.Fields(v) {
		ch, factor, ok := strings.Cut(f, ":")
		n, err1 := strconv.Atoi(ch)
		x, err2 := strconv.ParseFloat(factor, 64)
		if !ok || err1 != nil || err2 != nil || n < 1 || n > 196 || x <= 0 || x > 100 {
			return nil, false, fmt.Errorf("%q: want channel:factor, such as 6:0.8", f)
		}
		biases = append(biases, scan.Bias{Channel: n, Factor: x})
	}
	return biases, false, nil
}

// acsConfig is the core's ACS configuration over the candidates.
func (o *options) acsConfig(chans []scan.Channel) *ap.ACSConfig {
	a := o.acsOpt
	return &ap.ACSConfig{
		Channels: chans,
		Runs:     a.numScans,
		Select:   scan.ACSConfig{Bias: a.biases, NoBias: a.noBias},
	}
}

// acsFilter chooses the candidates from a channel plan: hw_mode's band,
// and 5 GHz only with VHT.
func (o *options) acsFilter() monitor.ACSFilter {
	f := monitor.ACSFilter{Band2GHz: true, Band5GHz: true, ExcludeDFS: o.acsOpt.excludeDFS}
	switch {
	case o.hwMode == "a" || o.phyOpt.vht:
		f.Band2GHz = false
	case o.hwMode == "b" || o.hwMode == "g":
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

// addACSNeighbours crowds the simulated plan a little more for -channel 0
// with -radio sim, beside the neighbours -scan shows: two more networks on
// channel 1, one each on 40 and 44, so the choice has something to avoid.
func addACSNeighbours(s *sim.Sim) {
	for i, f := range []int{2412, 2412, 5200, 5220} {
		s.AddForeignBSS(sim.ForeignBSSConfig{Freq: f, SSID: fmt.Sprintf("acs-neighbour-%d", i+1), Signal: -60})
	}
}

// The hostapd keys of ACS.
func init() {
	keys := map[string]confKey{
		"acs_exclude_dfs": {flag: "acs-exclude-dfs", want: "0 or 1",
			set: func(o *options, v string) error { return setBool(&o.acsOpt.excludeDFS, v) }},
		"acs_num_scans": {flag: "acs-num-scans", want: "1 to 100",
			set: func(o *options, v string) error { return setInt(&o.acsOpt.numScans, v, 1, 100) }},
		"acs_chan_bias": {flag: "acs-chan-bias", want: "channel:factor pairs such as 1:0.8 6:0.8 11:0.8",
			set: func(o *options, v string) error {
				o.acsOpt.bias = v
				_, _, err := parseChanBias(v)
				return err
			}},
	}
	for k, v := range keys {
		confKeys[k] = v
		delete(notYet, k)
	}
}
