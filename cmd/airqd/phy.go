package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/scan"
)

// phyOptions are the HT/VHT, A-MSDU and scanning settings, as flags or as
// hostapd's keys (ieee80211n, ht_capab, ieee80211ac, vht_oper_chwidth).
type phyOptions struct {
	ht, vht    bool
	width      int    // MHz; 0: from -ht40 / vht_oper_chwidth
	ht40       string // "+", "-" or ""
	shortGI    bool
	ldpc       bool
	amsdu      int
	scan       bool
	scanMode   string
	scanPeriod time.Duration
	missBeacon bool
	center     int // vht_oper_centr_freq_seg0_idx, checked against the channel
}

func (p *phyOptions) register(fs *flag.FlagSet) {
	fs.BoolVar(&p.ht, "ht", false, "HT (802.11n): advertise HT capabilities and send HT MCS rates to HT stations")
	fs.BoolVar(&p.vht, "vht", false, "VHT (802.11ac, 5 GHz; implies -ht): advertise VHT and send VHT MCS rates to VHT stations")
	fs.IntVar(&p.width, "width", 0, "channel width in MHz: 20, 40 (with -ht40), 80 or 160 (with -vht); 0 picks 20, or 80 with -vht")
	fs.StringVar(&p.ht40, "ht40", "", "secondary 20 MHz channel of a 40 MHz channel: + (above) or - (below)")
	fs.BoolVar(&p.shortGI, "short-gi", true, "use and advertise the short guard interval")
	fs.BoolVar(&p.ldpc, "ldpc", false, "advertise LDPC reception (only if the radio decodes it)")
	fs.IntVar(&p.amsdu, "amsdu", 0, "largest A-MSDU in octets for HT/VHT stations, 3839 to 11424 (0: no aggregation); the monitor's MTU is raised to fit")
	fs.BoolVar(&p.scan, "scan", false, "scan other channels in the background, in trips that fit between two beacons")
	fs.StringVar(&p.scanMode, "scan-mode", "continuous", "continuous (one trip after another) or periodic (a sweep every -scan-period)")
	fs.DurationVar(&p.scanPeriod, "scan-period", scan.DefaultPeriod, "time from one sweep to the next with -scan-mode periodic")
	fs.BoolVar(&p.missBeacon, "scan-miss-beacon", false, "let a passive visit miss one of our beacons, to find BSSs whose beacons fall in the blind window")
}

// apply checks the settings and puts them into the core's configuration.
func (p *phyOptions) apply(o *options) error {
	ph := ap.PHY{HT: p.ht || p.vht, VHT: p.vht, ShortGI: p.shortGI, LDPC: p.ldpc, Width: p.width}
	switch p.ht40 {
	case "":
	case "+", "-":
		if !ph.HT {
			return fmt.Errorf("-ht40: needs -ht")
		}
		ph.Secondary = 1
		if p.ht40 == "-" {
			ph.Secondary = -1
		}
		if ph.Width == 0 {
			ph.Width = 40
		}
	default:
		return fmt.Errorf("-ht40: %q, want + or -", p.ht40)
	}
	if ph.Width == 0 && ph.VHT {
		ph.Width = 80
	}
	switch ph.Width {
	case 0, 20, 40, 80, 160:
	default:
		return fmt.Errorf("-width: %d MHz, want 20, 40, 80 or 160", ph.Width)
	}
	if p.amsdu != 0 && (p.amsdu < 3839 || p.amsdu > 11424) {
		return fmt.Errorf("-amsdu: %d octets, want 0 (off) or 3839 to 11424", p.amsdu)
	}
	if p.amsdu != 0 && !ph.HT {
		return fmt.Errorf("-amsdu: A-MSDUs go to HT/VHT stations only; add -ht or -vht")
	}
	if p.center != 0 && ph.Width >= 80 && p.center != centerOf(o.channel, ph.Width) {
		return fmt.Errorf("vht_oper_centr_freq_seg0_idx: %d, want %d for channel %d at %d MHz", p.center, centerOf(o.channel, ph.Width), o.channel, ph.Width)
	}
	switch p.scanMode {
	case "continuous", "periodic":
	default:
		return fmt.Errorf("-scan-mode: %q, want continuous or periodic", p.scanMode)
	}
	if p.scanPeriod < time.Second {
		return fmt.Errorf("-scan-period: %v, want at least 1s", p.scanPeriod)
	}
	o.core.PHY, o.core.AMSDU = ph, p.amsdu
	return nil
}

// centerOf is the centre channel number of the 80 or 160 MHz block holding
// 5 GHz channel ch, as hostapd's vht_oper_centr_freq_seg0_idx names it.
func centerOf(ch, width int) int {
	c := ap.Config{Channel: ch, Freq: 5000 + 5*ch, PHY: ap.PHY{Width: width}}
	return (c.CenterFreq() - 5000) / 5
}

// scanConfig is the background scan the options ask for, over the given
// channels; nil without -scan.
func (p *phyOptions) scanConfig(chans []scan.Channel, retune time.Duration) *ap.ScanConfig {
	if !p.scan {
		return nil
	}
	mode := scan.Continuous
	if p.scanMode == "periodic" {
		mode = scan.Periodic
	}
	return &ap.ScanConfig{Planner: scan.Config{
		Channels: chans, Retune: retune, Mode: mode, Period: p.scanPeriod, MissBeacon: p.missBeacon,
	}}
}

// The hostapd keys for HT and VHT, and airq's own for A-MSDU and scanning.
func init() {
	keys := map[string]confKey{
		"ieee80211n": {flag: "ht", want: "0 or 1", set: func(o *options, v string) error { return setBool(&o.phyOpt.ht, v) }},
		"ieee80211ac": {flag: "vht", want: "0 or 1 (5 GHz)",
			set: func(o *options, v string) error { return setBool(&o.phyOpt.vht, v) }},
		"ht_capab": {want: "bracketed flags: [HT40+] or [HT40-], [SHORT-GI-20], [SHORT-GI-40], [LDPC]",
			set: func(o *options, v string) error { return parseHTCapab(&o.phyOpt, v) }},
		"vht_capab": {want: "bracketed flags: [SHORT-GI-80], [SHORT-GI-160], [RXLDPC], [MAX-MPDU-3895|7991|11454]",
			set: func(o *options, v string) error { return parseVHTCapab(&o.phyOpt, v) }},
		"vht_oper_chwidth": {flag: "width", want: "0 (20 or 40 MHz), 1 (80 MHz) or 2 (160 MHz)",
			set: func(o *options, v string) error {
				var w int
				if err := setInt(&w, v, 0, 2); err != nil {
					return err
				}
				o.phyOpt.width = [3]int{0, 80, 160}[w]
				return nil
			}},
		"vht_oper_centr_freq_seg0_idx": {want: "the centre channel of the 80/160 MHz channel (42, 58, 106, 122, 138, 155 or 50, 114, 163)",
			set: func(o *options, v string) error { return setInt(&o.phyOpt.center, v, 0, 196) }},
		"ieee80211d": {want: "0 or 1 (the Country element is sent whenever country_code is set)",
			set: func(o *options, v string) error { return oneOf(v, "0", "1") }},
		"amsdu": {flag: "amsdu", want: "0 (off) or 3839 to 11424 octets",
			set: func(o *options, v string) error { return setInt(&o.phyOpt.amsdu, v, 0, 11424) }},
		"scan": {flag: "scan", want: "0 or 1", set: func(o *options, v string) error { return setBool(&o.phyOpt.scan, v) }},
		"scan_mode": {flag: "scan-mode", want: "continuous or periodic",
			set: func(o *options, v string) error { o.phyOpt.scanMode = v; return oneOf(v, "continuous", "periodic") }},
		"scan_period": {flag: "scan-period", want: "a duration such as 60s",
			set: func(o *options, v string) error {
				d, err := time.ParseDuration(v)
				o.phyOpt.scanPeriod = d
				return err
			}},
		"scan_miss_beacon": {flag: "scan-miss-beacon", want: "0 or 1",
			set: func(o *options, v string) error { return setBool(&o.phyOpt.missBeacon, v) }},
	}
	for k, v := range keys {
		confKeys[k] = v
		delete(notYet, k)
	}
}

// parseHTCapab reads hostapd's ht_capab flags airq acts on; others are
// errors rather than silently ignored.
func parseHTCapab(p *phyOptions, v string) error {
	for _, f := range capabFlags(v) {
		switch f {
		case "HT40+":
			p.ht40 = "+"
		case "HT40-":
			p.ht40 = "-"
		case "SHORT-GI-20", "SHORT-GI-40":
			p.shortGI = true
		case "LDPC":
			p.ldpc = true
		default:
			return fmt.Errorf("unsupported flag [%s]", f)
		}
	}
	return nil
}

func parseVHTCapab(p *phyOptions, v string) error {
	for _, f := range capabFlags(v) {
		switch f {
		case "SHORT-GI-80", "SHORT-GI-160":
			p.shortGI = true
		case "RXLDPC":
			p.ldpc = true
		case "MAX-MPDU-3895", "MAX-MPDU-7991", "MAX-MPDU-11454":
			// What we receive: airq takes A-MSDUs apart in software.
		default:
			return fmt.Errorf("unsupported flag [%s]", f)
		}
	}
	return nil
}

// capabFlags splits "[A][B-C]" into A, B-C.
func capabFlags(v string) []string {
	var out []string
	for _, part := range strings.Split(v, "[") {
		if part = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(part), "]")); part != "" {
			out = append(out, part)
		}
	}
	return out
}
