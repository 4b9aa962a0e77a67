package monitor

import (
	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/scan"
)

// ACSFilter chooses the channels automatic selection scans from a channel
// plan: those of the allowed bands that are not disabled, passive ones (no
// IR, radar) included unless ExcludeDFS. airq does no radar detection, so
// passive channels are scanned for the record but never chosen; leaving
// them out shortens the scan.
type ACSFilter struct {
	Band2GHz, Band5GHz bool // the bands to pick from
	ExcludeDFS         bool
	// Allow, when set, also restricts the candidates by frequency
	// (hostapd's chanlist and freqlist).
	Allow func(freq int) bool
}

// Candidates returns the channels of plan the selection may scan.
func (f ACSFilter) Candidates(plan []scan.Channel) []scan.Channel {
	var out []scan.Channel
	for _, c := range plan {
		inBand := c.Freq < 2500 && f.Band2GHz || c.Freq > 4900 && c.Freq < 5900 && f.Band5GHz
		if c.Disabled || !inBand || (c.Passive && f.ExcludeDFS) || f.Allow != nil && !f.Allow(c.Freq) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// channelPlan lists the phy's 20 MHz channels under the applied domain:
// no-IR and radar channels are passive.
func channelPlan(phy nl80211.PHY) []scan.Channel {
	var out []scan.Channel
	for _, b := range phy.Bands {
		for _, c := range b.Channels {
			out = append(out, scan.Channel{Freq: c.Freq, Passive: c.NoIR || c.Radar, Disabled: c.Disabled})
		}
	}
	return out
}

// scanChannels lists the phy's usable channels other than home for
// background scanning: passive ones are listened to only, disabled ones
// never visited.
func scanChannels(phy nl80211.PHY, home int) []scan.Channel {
	var out []scan.Channel
	for _, c := range channelPlan(phy) {
		if c.Freq != home && !c.Disabled {
			out = append(out, c)
		}
	}
	return out
}

// retuneTarget picks another usable 20 MHz channel of the same band, for
// timing a retune.
func retuneTarget(phy nl80211.PHY, cur nl80211.Channel) nl80211.Channel {
	for _, c := range channelPlan(phy) {
		if (c.Freq > 4000) != (cur.Freq > 4000) || c.Freq == cur.Freq || c.Disabled {
			continue
		}
		return nl80211.Channel{Freq: c.Freq, Width: nl80211.Width20NoHT}
	}
	return nl80211.Channel{}
}

// nlWidth is the nl80211 channel width of the core's PHY settings.
func nlWidth(p bss.PHY) nl80211.Width {
	switch {
	case p.Width == 40:
		return nl80211.Width40
	case p.Width == 80:
		return nl80211.Width80
	case p.Width == 160:
		return nl80211.Width160
	case p.HT:
		return nl80211.Width20
	}
	return nl80211.Width20NoHT
}

// operating is the nl80211 channel of the core's operating channel.
func operating(c ap.Config) (nl80211.Channel, error) {
	return nl80211.NewChannel(c.Freq, nlWidth(c.PHY), c.PHY.Secondary > 0)
}
