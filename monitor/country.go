package monitor

import (
	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/nl80211"
)

// countryElement turns the regulatory domain the kernel applied into the
// Country element of the operating band: one subband per run of channels
// the phy has in that band with the same power limit, as hostapd builds it.
func countryElement(d nl80211.RegDomain, phy nl80211.PHY, freq int) *ap.Country {
	band, ok := ieee80211.FreqBand(freq)
	if !ok || d.World() || len(d.Alpha2) != 2 {
		return nil
	}
	c := &ap.Country{Alpha2: d.Alpha2}
	var cur *ieee80211.CountryTriplet
	step := 1
	if band != ieee80211.Band2GHz {
		step = 4
	}
	for _, b := range phy.Bands {
		for _, ch := range b.Channels {
			if ch.Disabled {
				continue
			}
			if fb, _ := ieee80211.FreqBand(ch.Freq); fb != band {
				continue
			}
			r, ok := d.RuleFor(ch.Freq)
			if !ok {
				continue
			}
			num := ieee80211.FreqToChannel(ch.Freq)
			power := int8(r.MaxEIRPmBm / 100)
			if ch.MaxPowerMBm != 0 {
				power = min(power, int8(ch.MaxPowerMBm/100))
			}
			if cur != nil && power == cur.MaxPowerDBm && num == int(cur.FirstChannel)+int(cur.NumChannels)*step {
				cur.NumChannels++
				continue
			}
			c.Subbands = append(c.Subbands, ieee80211.CountryTriplet{FirstChannel: uint8(num), NumChannels: 1, MaxPowerDBm: power})
			cur = &c.Subbands[len(c.Subbands)-1]
		}
	}
	if len(c.Subbands) == 0 {
		return nil
	}
	return c
}
