package monitor

import (
	"testing"

	"github.com/airq/airq/nl80211"
)

func TestCountryElementFromTheAppliedDomain(t *testing.T) {
	d := nl80211.RegDomain{Alpha2: "US", Rules: []nl80211.RegRule{
		{StartKHz: 2402000, EndKHz: 2472000, MaxBWKHz: 40000, MaxEIRPmBm: 3000},
		{StartKHz: 5170000, EndKHz: 5250000, MaxBWKHz: 80000, MaxEIRPmBm: 2300},
		{StartKHz: 5735000, EndKHz: 5835000, MaxBWKHz: 80000, MaxEIRPmBm: 3000},
	}}
	var b24, b5 []nl80211.ChannelInfo
	for f := 2412; f <= 2472; f += 5 {
		b24 = append(b24, nl80211.ChannelInfo{Freq: f, MaxPowerMBm: 2000})
	}
	b24 = append(b24, nl80211.ChannelInfo{Freq: 2484, Disabled: true})
	for _, f := range []int{5180, 5200, 5220, 5240, 5745, 5765, 5785, 5805, 5825} {
		b5 = append(b5, nl80211.ChannelInfo{Freq: f})
	}
	phy := nl80211.PHY{Bands: []nl80211.Band{{Channels: b24}, {Channels: b5}}}
	c := countryElement(d, phy, 2437)
	if c == nil || c.Alpha2 != "US" || len(c.Subbands) != 1 || c.Subbands[0].FirstChannel != 1 || c.Subbands[0].NumChannels != 11 || c.Subbands[0].MaxPowerDBm != 20 {
		t.Errorf("2.4 GHz: %+v", c)
	}
	c = countryElement(d, phy, 5180)
	if c == nil || len(c.Subbands) != 2 || c.Subbands[0].FirstChannel != 36 || c.Subbands[0].NumChannels != 4 || c.Subbands[0].MaxPowerDBm != 23 ||
		c.Subbands[1].FirstChannel != 149 || c.Subbands[1].NumChannels != 5 || c.Subbands[1].MaxPowerDBm != 30 {
		t.Errorf("5 GHz: %+v", c)
	}
	if countryElement(nl80211.RegDomain{Alpha2: "00"}, phy, 2437) != nil {
		t.Error("a country element for the world domain")
	}
}
