package scan

import (
	"slices"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// Heard BSSes for the coexistence tests; f is the BSS's channel in MHz.
func legacyAt(f int) BSS { return BSS{Freq: f} }

func ht20At(f int) BSS {
	return BSS{Freq: f, HT: true, HTOper: true, HTPrimary: uint8(ieee80211.FreqToChannel(f))}
}

func ht40At(f int, secondary uint8) BSS {
	b := ht20At(f)
	b.HTSecondary, b.HTAnyWidth = secondary, true
	return b
}

func intolerant(b BSS) BSS {
	b.HTCapInfo |= ieee80211.HTCap40Intolerant
	return b
}

// TestCheck40MHz2G4 follows hostapd's check_40mhz_2g4 for channel 6 with
// its secondary above (pri 2437, sec 2457: the affected range is
// [2422, 2472] MHz) and below (sec 2417: [2402, 2452]).
func TestCheck40MHz2G4(t *testing.T) {
	const above, below = ieee80211.HTOperSecondaryAbove, ieee80211.HTOperSecondaryBelow
	htCapOnly := BSS{Freq: 2442, HT: true} // HT Capabilities, no HT Operation
	reserved := ht20At(2442)
	reserved.HTSecondary = 2 // an offset hostapd does not call 20 MHz
	offsetNoWidth := ht20At(2462)
	offsetNoWidth.HTSecondary = below // an offset without the STA Channel Width bit: 20 MHz to get_pri_sec_chan
	for _, tc := range []struct {
		name     string
		sec      int
		bsses    []BSS
		why      string
		freq     int
		affected bool
	}{
		{name: "nothing heard", sec: 2457},
		{name: "legacy on our primary", sec: 2457, bsses: []BSS{legacyAt(2437)}},
		{name: "HT 20 MHz on our primary", sec: 2457, bsses: []BSS{ht20At(2437)}},
		{name: "legacy on our secondary", sec: 2457, bsses: []BSS{legacyAt(2457)}, why: CoexLegacy, freq: 2457},
		{name: "legacy at affected start", sec: 2457, bsses: []BSS{legacyAt(2422)}, why: CoexLegacy, freq: 2422},
		{name: "legacy at affected end", sec: 2457, bsses: []BSS{legacyAt(2472)}, why: CoexLegacy, freq: 2472},
		{name: "legacy below affected start", sec: 2457, bsses: []BSS{legacyAt(2417)}},
		{name: "legacy above affected end", sec: 2457, bsses: []BSS{legacyAt(2484)}},
		{name: "HT 20 MHz in range", sec: 2457, bsses: []BSS{ht20At(2442)}, why: Coex20MHz, freq: 2442},
		{name: "HT 20 MHz below, other pair", sec: 2417, bsses: []BSS{ht20At(2412)}, why: Coex20MHz, freq: 2412},
		{name: "HT without HT Operation", sec: 2457, bsses: []BSS{htCapOnly}},
		{name: "HT reserved offset", sec: 2457, bsses: []BSS{reserved}},
		{name: "offset without width", sec: 2457, bsses: []BSS{offsetNoWidth}},
		{name: "matching 40 MHz pair", sec: 2457, bsses: []BSS{ht40At(2437, above)}},
		{name: "same primary, other secondary", sec: 2457, bsses: []BSS{ht40At(2437, below)}, why: CoexMismatch, freq: 2437},
		{name: "swapped pair", sec: 2457, bsses: []BSS{ht40At(2457, below)}, why: CoexMismatch, freq: 2457},
		{name: "40 MHz with only its secondary in range", sec: 2457, bsses: []BSS{ht40At(2412, above)}, why: CoexMismatch, freq: 2412},
		{name: "40 MHz secondary at affected start", sec: 2457, bsses: []BSS{ht40At(2402, above)}, why: CoexMismatch, freq: 2402},
		{name: "40 MHz outside the range", sec: 2417, bsses: []BSS{ht40At(2457, above)}},
		{name: "intolerant on our primary", sec: 2457, bsses: []BSS{intolerant(ht40At(2437, above))}, why: CoexIntolerant, freq: 2437},
		{name: "intolerant HT without Operation", sec: 2457, bsses: []BSS{intolerant(htCapOnly)}, why: CoexIntolerant, freq: 2442},
		{name: "intolerant outside the range", sec: 2457, bsses: []BSS{intolerant(ht20At(2412))}},
		{name: "first reason wins", sec: 2457, bsses: []BSS{ht40At(2437, above), ht20At(2447), legacyAt(2457)}, why: Coex20MHz, freq: 2447},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := range tc.bsses {
				tc.bsses[i].BSSID = ieee80211.MAC{2, 0, 0, 0, 0, byte(i + 1)}
			}
			got := Check40MHz2G4(2437, tc.sec, tc.bsses)
			if got.Permitted != (tc.why == "") || got.Reason != tc.why || got.Freq != tc.freq {
				t.Fatalf("got %+v, want reason %q freq %d", got, tc.why, tc.freq)
			}
			if !got.Permitted && !slices.ContainsFunc(tc.bsses, func(b BSS) bool { return b.BSSID == got.BSSID }) {
				t.Errorf("names BSSID %v, heard none such", got.BSSID)
			}
		})
	}
}

// TestCoexScanFreqs: hostapd's ieee80211n_scan_channels_2g4 listens 40 MHz
// either side of the pair's centre, enabled channels only.
func TestCoexScanFreqs(t *testing.T) {
	var chans []Channel
	for ch := 1; ch <= 13; ch++ {
		chans = append(chans, Channel{Freq: ieee80211.ChannelToFreq(ch, ieee80211.Band2GHz), Disabled: ch >= 12})
	}
	for _, tc := range []struct {
		pri, sec int
		want     []int
	}{
		{2412, 2432, []int{2412, 2417, 2422, 2427, 2432, 2437, 2442, 2447, 2452, 2457, 2462}},
		{2437, 2457, []int{2412, 2417, 2422, 2427, 2432, 2437, 2442, 2447, 2452, 2457, 2462}},
		{2462, 2442, []int{2412, 2417, 2422, 2427, 2432, 2437, 2442, 2447, 2452, 2457, 2462}},
		{2472, 2452, []int{2422, 2427, 2432, 2437, 2442, 2447, 2452, 2457, 2462}},
	} {
		if got := CoexScanFreqs(nil, chans, tc.pri, tc.sec); !slices.Equal(got, tc.want) {
			t.Errorf("%d/%d: %v, want %v", tc.pri, tc.sec, got, tc.want)
		}
	}
}
