package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/scan"
)

// registerPHY adds the HT/VHT, A-MSDU and scanning flags (hostapd's
// ieee80211n, ht_capab, ieee80211ac, vht_oper_chwidth; airq's keys).
func (o *options) registerPHY(fs *flag.FlagSet) {
	p, s := &o.PHY, &o.Scan
	fs.BoolVar(&p.HT, "ht", false, "HT (802.11n): advertise HT capabilities and send HT MCS rates to HT stations")
	fs.BoolVar(&p.VHT, "vht", false, "VHT (802.11ac, 5 GHz; implies -ht): advertise VHT and send VHT MCS rates to VHT stations")
	fs.IntVar(&p.Width, "width", 0, "channel width in MHz: 20, 40 (with -ht40), 80 or 160 (with -vht); 0 picks 20, or 80 with -vht")
	fs.StringVar(&p.HT40, "ht40", "", "secondary 20 MHz channel of a 40 MHz channel: + (above) or - (below)")
	fs.BoolVar(&o.shortGI, "short-gi", false, "use and advertise the short guard interval at every width the channel uses, as ht_capab's [SHORT-GI-20] [SHORT-GI-40] and vht_capab's [SHORT-GI-80] [SHORT-GI-160] do one by one (the radio must support it)")
	fs.BoolVar(&p.LDPC, "ldpc", false, "advertise LDPC reception (only if the radio decodes it)")
	fs.IntVar(&p.AMSDU, "amsdu", 0, "largest A-MSDU in octets for HT/VHT stations, 3839 to 11424 (0: no aggregation); the monitor's MTU is raised to fit")
	fs.BoolVar(&s.On, "scan", false, "scan other channels in the background, in trips that fit between two beacons")
	fs.StringVar(&s.Mode, "scan-mode", "continuous", "continuous (one trip after another) or periodic (a sweep every -scan-period)")
	fs.DurationVar(&s.Period, "scan-period", scan.DefaultPeriod, "time from one sweep to the next with -scan-mode periodic")
	fs.BoolVar(&s.MissBeacon, "scan-miss-beacon", false, "let a passive visit miss one of our beacons, to find BSSs whose beacons fall in the blind window")
}

// applyPHY checks the settings and puts them into the core's configuration.
func (o *options) applyPHY() error {
	p := o.PHY
	ph := ap.PHY{HT: p.HT || p.VHT, VHT: p.VHT, LDPC: p.LDPC, Width: p.Width,
		SGI20: p.SGI20, SGI40: p.SGI40, SGI80: p.SGI80, SGI160: p.SGI160, MaxMPDU: p.MaxMPDU}
	switch p.HT40 {
	case "":
	case "+", "-":
		if !ph.HT {
			return fmt.Errorf("-ht40: needs -ht")
		}
		ph.Secondary = 1
		if p.HT40 == "-" {
			ph.Secondary = -1
		}
		if ph.Width == 0 {
			ph.Width = 40
		}
	default:
		return fmt.Errorf("-ht40: %q, want + or -", p.HT40)
	}
	if ph.Width == 0 && ph.VHT {
		ph.Width = 80
	}
	switch ph.Width {
	case 0, 20, 40, 80, 160:
	default:
		return fmt.Errorf("-width: %d MHz, want 20, 40, 80 or 160", ph.Width)
	}
	if o.flagSet["short-gi"] { // every width the channel uses, over the file's flags
		sgi := o.shortGI
		ph.SGI20, ph.SGI40, ph.SGI80, ph.SGI160 = sgi, sgi && ph.Width >= 40, sgi && ph.Width >= 80, sgi && ph.Width == 160
	}
	if p.AMSDU != 0 && (p.AMSDU < 3839 || p.AMSDU > 11424) {
		return fmt.Errorf("-amsdu: %d octets, want 0 (off) or 3839 to 11424", p.AMSDU)
	}
	if p.AMSDU != 0 && !ph.HT {
		return fmt.Errorf("-amsdu: A-MSDUs go to HT/VHT stations only; add -ht or -vht")
	}
	if p.Center != 0 && ph.Width >= 80 && p.Center != centerOf(o.Channel, ph.Width) {
		return fmt.Errorf("vht_oper_centr_freq_seg0_idx: %d, want %d for channel %d at %d MHz", p.Center, centerOf(o.Channel, ph.Width), o.Channel, ph.Width)
	}
	switch o.Scan.Mode {
	case "continuous", "periodic":
	default:
		return fmt.Errorf("-scan-mode: %q, want continuous or periodic", o.Scan.Mode)
	}
	if o.Scan.Period < time.Second {
		return fmt.Errorf("-scan-period: %v, want at least 1s", o.Scan.Period)
	}
	o.Core.PHY, o.Core.AMSDU = ph, p.AMSDU
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
func (o *options) scanConfig(chans []scan.Channel, retune time.Duration) *ap.ScanConfig {
	s := o.Scan
	if !s.On {
		return nil
	}
	mode := scan.Continuous
	if s.Mode == "periodic" {
		mode = scan.Periodic
	}
	sc := &ap.ScanConfig{Planner: scan.Config{
		Channels: chans, Retune: retune, Mode: mode, Period: s.Period, MissBeacon: s.MissBeacon,
	}}
	s.Bounds(&sc.Planner)
	return sc
}
