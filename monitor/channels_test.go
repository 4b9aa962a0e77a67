package monitor

import (
	"slices"
	"testing"

	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/scan"
)

var planPHY = nl80211.PHY{Name: "phy0", Bands: []nl80211.Band{
	{Index: 0, Channels: []nl80211.ChannelInfo{{Freq: 2412}, {Freq: 2467, NoIR: true}, {Freq: 2484, Disabled: true}}},
	{Index: 1, Channels: []nl80211.ChannelInfo{{Freq: 5180}, {Freq: 5260, Radar: true}, {Freq: 5500, Disabled: true}}},
}}

// The selection's candidates: the allowed bands, never a disabled
// channel, no-IR and radar ones passive or left out.
func TestACSCandidates(t *testing.T) {
	plan := channelPlan(planPHY)
	for _, c := range []struct {
		f    ACSFilter
		want []scan.Channel
	}{
		{ACSFilter{Band5GHz: true, ExcludeDFS: true}, []scan.Channel{{Freq: 5180}}},
		{ACSFilter{Band2GHz: true, Band5GHz: true},
			[]scan.Channel{{Freq: 2412}, {Freq: 2467, Passive: true}, {Freq: 5180}, {Freq: 5260, Passive: true}}},
		{ACSFilter{Band2GHz: true}, []scan.Channel{{Freq: 2412}, {Freq: 2467, Passive: true}}},
		{ACSFilter{}, nil},
		// chanlist/freqlist: only what Allow lets through.
		{ACSFilter{Band2GHz: true, Band5GHz: true, Allow: func(f int) bool { return f == 2412 || f == 5260 }},
			[]scan.Channel{{Freq: 2412}, {Freq: 5260, Passive: true}}},
	} {
		if got := c.f.Candidates(plan); !slices.Equal(got, c.want) {
			t.Errorf("%+v: %+v, want %+v", c.f, got, c.want)
		}
	}
}

// Background scans visit every enabled channel but home; the retune is
// timed on another channel of the home band.
func TestScanChannelsAndRetuneTarget(t *testing.T) {
	got := scanChannels(planPHY, 2412)
	want := []scan.Channel{{Freq: 2467, Passive: true}, {Freq: 5180}, {Freq: 5260, Passive: true}}
	if !slices.Equal(got, want) {
		t.Errorf("scan channels %+v, want %+v", got, want)
	}
	if c := retuneTarget(planPHY, nl80211.Channel{Freq: 5180}); c.Freq != 5260 || c.Width != nl80211.Width20NoHT {
		t.Errorf("retune target from 5180: %+v", c)
	}
	if c := retuneTarget(nl80211.PHY{Bands: planPHY.Bands[:1]}, nl80211.Channel{Freq: 5180}); c.Freq != 0 {
		t.Errorf("retune target without another 5 GHz channel: %+v", c)
	}
}
