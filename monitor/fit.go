package monitor

import (
	"fmt"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/nl80211"
)

// fitPHY intersects the HT/VHT settings with what the phy's band at freq
// declares: asking for something the radio cannot do is an error, except
// the short guard interval, which is on by default and is dropped with a
// note when the band lacks it at the operating width.
func fitPHY(phy nl80211.PHY, freq int, p ap.PHY) (ap.PHY, string, error) {
	band := bandOf(phy, freq)
	if band == nil || !p.HT {
		return p, "", nil // no such channel is reported elsewhere
	}
	where := fmt.Sprintf("%s's band at %d MHz", phy.Name, freq)
	ht, vht := band.HTCapa, band.VHTCapa
	switch {
	case ht == 0:
		return p, "", fmt.Errorf("-ht: %s has no HT", where)
	case p.VHT && vht == 0:
		return p, "", fmt.Errorf("-vht: %s has no VHT", where)
	case p.Width >= 40 && ht&ieee80211.HTCapWidth40 == 0:
		return p, "", fmt.Errorf("-width %d: %s supports 20 MHz only", p.Width, where)
	case p.Width == 160 && vht&ieee80211.VHTCapWidthMask == 0:
		return p, "", fmt.Errorf("-width 160: %s supports up to 80 MHz", where)
	case p.LDPC && ht&ieee80211.HTCapLDPC == 0, p.LDPC && p.VHT && vht&ieee80211.VHTCapRxLDPC == 0:
		return p, "", fmt.Errorf("-ldpc: %s does not decode LDPC", where)
	}
	if p.ShortGI && !hasSGI(ht, vht, p.Width) {
		p.ShortGI = false
		return p, fmt.Sprintf("%s has no short guard interval at this width: using the long one", where), nil
	}
	return p, "", nil
}

// hasSGI reports whether the band's capabilities allow the short guard
// interval at the operating width.
func hasSGI(ht uint16, vht uint32, width int) bool {
	switch {
	case width == 160:
		return vht&ieee80211.VHTCapSGI160 != 0
	case width == 80:
		return vht&ieee80211.VHTCapSGI80 != 0
	case width == 40:
		return ht&ieee80211.HTCapSGI40 != 0
	}
	return ht&ieee80211.HTCapSGI20 != 0
}

// bandOf is the band of phy that has the channel at freq, nil if none.
func bandOf(phy nl80211.PHY, freq int) *nl80211.Band {
	for i := range phy.Bands {
		for _, c := range phy.Bands[i].Channels {
			if c.Freq == freq {
				return &phy.Bands[i]
			}
		}
	}
	return nil
}
