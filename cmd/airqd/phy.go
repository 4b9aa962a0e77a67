package main

import (
	"flag"
	"fmt"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/config"
	"github.com/airq/airq/nl80211"
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
	fs.IntVar(&p.AMSDU, "amsdu", 0, "largest A-MSDU in octets for HT/VHT stations that take them, 3839 to 11424, or 0: no aggregation (default: 7935 with -ht, 11424 with -vht, each station's own limit and its airtime budget permitting); the monitor's MTU is raised to fit")
	fs.BoolVar(&s.On, "scan", false, "scan other channels in the background, in trips that fit between two beacons")
	fs.StringVar(&s.Mode, "scan-mode", "continuous", "continuous (one trip after another) or periodic (a sweep every -scan-period)")
	fs.DurationVar(&s.Period, "scan-period", scan.DefaultPeriod, "time from one sweep to the next with -scan-mode periodic")
	fs.BoolVar(&s.MissBeacon, "scan-miss-beacon", false, "let a passive visit miss one of our beacons, to find BSSs whose beacons fall in the blind window")
}

// applyPHY checks the settings, every problem at once, and puts them into
// the core's configuration.
func (o *options) applyPHY() error {
	var sgi *bool
	if o.flagSet["short-gi"] {
		sgi = &o.shortGI
	}
	ph, err := o.CorePHY(o.Channel, sgi, o.source)
	o.Core.PHY, o.Core.AMSDU = ph, o.PHY.AMSDU
	o.Core.Coex = nil
	if !o.PHY.NoScan {
		// The channels come from the phy (monitor) or the simulator's plan.
		o.Core.Coex = &ap.CoexConfig{}
	}
	if !o.amsduGiven() {
		o.Core.AMSDU = config.DefaultAMSDU(o.ServedPHY(ph))
	}
	return err
}

// amsduGiven tells whether -amsdu or the file's amsdu= chose the A-MSDU
// size; otherwise HT and VHT stations get airq's default.
func (o *options) amsduGiven() bool { return o.given("amsdu", "amsdu") }

// given tells whether the flag or the file's key set a setting.
func (o *options) given(flag, key string) bool {
	return o.flagSet[flag] || (o.conf != nil && o.conf.Line(key) > 0)
}

// phyNamed is the wiphy of the wireless interface name, which hostapd's
// interface= names: airqd drives that phy, under the takeover rules of
// any other phy it is given.
func phyNamed(ifs []nl80211.Interface, phys []nl80211.PHY, name string) (string, error) {
	for _, i := range ifs {
		if i.Name != name {
			continue
		}
		for _, p := range phys {
			if p.Index == i.PHY {
				return p.Name, nil
			}
		}
	}
	return "", fmt.Errorf("interface: %q is no wireless interface (`iw dev` lists them); name the radio with phy= or -phy", name)
}
