package monitor

import (
	"fmt"
	"strings"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/nl80211"
)

// firstBSSID is the first BSS's BSSID on phy: the configured one, or the phy's permanent
// address. With an address mask, the interface addresses of a wiphy may
// differ only in the mask's bits; another BSSID is refused.
func firstBSSID(phy nl80211.PHY, want ieee80211.MAC) (ieee80211.MAC, error) {
	if want.IsZero() {
		return ieee80211.MAC(phy.PermAddr), nil
	}
	if err := phyAccepts(phy, want); err != nil {
		return want, fmt.Errorf("-bssid %v: %w", want, err)
	}
	return want, nil
}

// configure fits the core's configuration to phy under the domain the
// kernel applied: the operating channel is checked (or, with channel 0,
// the selection's candidates listed, and the first that allows beaconing
// returned as the channel to start on), the HT/VHT settings checked against
// the band, the Country element built (with Options.CountryElement), the
// background scan given the other channels. It returns the channel to tune
// the monitor to. The scan's retune time is left to the qualification.
func configure(o Options, cfg ap.Config, phy nl80211.PHY, dom nl80211.RegDomain) (ap.Config, nl80211.Channel, error) {
	var ch nl80211.Channel
	var err error
	if cfg.Channel == 0 && cfg.Freq == 0 {
		if ch, err = selection(o, &cfg, phy, dom); err != nil {
			return cfg, ch, err
		}
	} else {
		if cfg, err = cfg.Resolve(); err != nil {
			return cfg, ch, err
		}
		ch, err = operating(cfg)
		if err == nil {
			err = phy.ValidateOperating(ch)
		}
		if err != nil {
			return cfg, ch, fmt.Errorf("%s cannot operate on channel %d: %w", phy.Name, cfg.Channel, err)
		}
	}
	if err := checkPHY(phy, cfg.Freq, cfg.PHY); err != nil {
		return cfg, ch, err
	}
	if err := checkHTFlags(phy, cfg.Freq, o.HTCapAsked); cfg.PHY.HT && err != nil {
		return cfg, ch, err
	}
	if err := checkVHTFlags(phy, cfg.Freq, o.VHTCapAsked); cfg.PHY.VHT && err != nil {
		return cfg, ch, err
	}
	if o.CountryElement {
		cfg.Country = countryElement(dom, phy, cfg.Freq)
	}
	if cfg.Coex != nil {
		c := *cfg.Coex
		c.Channels = channelPlan(phy)
		cfg.Coex = &c
	}
	if cfg.Scan != nil {
		s := *cfg.Scan
		s.Planner.Channels = scanChannels(phy, cfg.Freq)
		cfg.Scan = &s
	}
	return cfg, ch, nil
}

// selection fills the core's ACS configuration (the candidates under the
// applied domain, each band's Country element if asked for) and returns
// the channel the monitor starts on: the first candidate that allows
// beaconing, 20 MHz wide.
func selection(o Options, cfg *ap.Config, phy nl80211.PHY, dom nl80211.RegDomain) (nl80211.Channel, error) {
	var a ap.ACSConfig
	if cfg.ACS != nil {
		a = *cfg.ACS
	}
	a.Channels = o.ACS.Candidates(channelPlan(phy))
	if o.CountryElement {
		a.Country2GHz = countryElement(dom, phy, 2412)
		a.Country5GHz = countryElement(dom, phy, 5180)
	}
	cfg.ACS = &a
	if _, err := cfg.Resolve(); err != nil {
		return nl80211.Channel{}, err
	}
	for _, c := range a.Channels {
		if !c.Passive {
			return nl80211.NewChannel(c.Freq, nl80211.Width20NoHT, false)
		}
	}
	return nl80211.Channel{}, fmt.Errorf("%s: no channel allows beaconing for automatic selection (set -country, or hw_mode)", phy.Name)
}

// blockedError names the interfaces that keep airq off the phy and what to
// do about them.
func blockedError(phy nl80211.PHY, blockers []nl80211.Blocker) error {
	lines := make([]string, len(blockers))
	for i, b := range blockers {
		lines[i] = b.String()
	}
	return fmt.Errorf("%s is in use by %s; stop what uses it (nmcli device set NAME managed no) or start with -takeover to bring those interfaces down and delete stale airq monitors",
		phy.Name, strings.Join(lines, "; "))
}

func worldNote(d nl80211.RegDomain) string {
	if d.World() {
		return "world domain: no beaconing on 5 GHz; set -country"
	}
	return ""
}
