package sim

import (
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/scan"
)

// USChannels returns the 20 MHz channels of a US plan as the planner takes
// them: 2.4 GHz channels 1-11 and 5 GHz 36-48 (UNII-1) and 149-165
// (UNII-3) active; 52-64 (UNII-2A) and 100-144 (UNII-2C) radar channels,
// passive (listen only).
func USChannels() []scan.Channel {
	var cs []scan.Channel
	for ch := 1; ch <= 11; ch++ {
		cs = append(cs, scan.Channel{Freq: ieee80211.ChannelToFreq(ch, ieee80211.Band2GHz)})
	}
	add := func(from, to int, passive bool) {
		for ch := from; ch <= to; ch += 4 {
			cs = append(cs, scan.Channel{Freq: ieee80211.ChannelToFreq(ch, ieee80211.Band5GHz), Passive: passive})
		}
	}
	add(36, 48, false)
	add(52, 64, true)
	add(100, 144, true)
	add(149, 165, false)
	return cs
}

// USChannelsBut returns USChannels without channel (2.4 GHz up to 14, 5
// GHz above): what the background scan of a BSS there visits.
func USChannelsBut(channel int) []scan.Channel {
	freq := ieee80211.ChannelToFreq(channel, ieee80211.Band2GHz)
	if channel > 14 {
		freq = ieee80211.ChannelToFreq(channel, ieee80211.Band5GHz)
	}
	var cs []scan.Channel
	for _, c := range USChannels() {
		if c.Freq != freq {
			cs = append(cs, c)
		}
	}
	return cs
}
