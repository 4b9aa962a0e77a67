package ap

import (
	"slices"
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/scan"
)

// coexACSChannels are 2.4 GHz channels from..to.
func coexACSChannels(from, to int) []scan.Channel {
	var out []scan.Channel
	for ch := from; ch <= to; ch++ {
		out = append(out, scan.Channel{Freq: 2407 + 5*ch})
	}
	return out
}

// startCoexCore starts a core of cfg at 0, its start-up listening under
// way, with a harness around it.
func startCoexCore(t *testing.T, cfg Config) (*AP, *harness) {
	t.Helper()
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, a: a}
	a.Start(0)
	h.collect()
	return a, h
}

// driveCoexACS runs an HT40 core with automatic selection among the
// candidates and the 20/40 MHz check over channels 1 to 13 through its
// start-up listening: on the channel the radio is on, a legacy neighbour
// beacons every 10 ms if legacy names it. Channels 6 and 10 are reported
// quiet, the others busy, so that the selection takes 6 with 10. It
// returns the core once it beacons, with its events and the channels
// visited after the choice.
func driveCoexACS(t *testing.T, candidates []scan.Channel, legacy int) (*AP, []Event, []int) {
	t.Helper()
	cfg := Config{SSID: "airq-test", BSSID: bssid, WMM: true,
		PHY: bss.PHY{HT: true, Width: 40, Secondary: 1},
		ACS: &ACSConfig{Channels: candidates, Select: scan.ACSConfig{NoBias: true}, Dwell: 50 * time.Millisecond, Runs: 1},
		// The check's dwell differs from the selection's: the visits
		// after the choice show which of the two they are.
		Coex: &CoexConfig{Channels: coexACSChannels(1, 13), Dwell: 30 * time.Millisecond},
	}
	a, h := startCoexCore(t, cfg)
	var after []int
	arrived, heard := time.Duration(0), time.Duration(0)
	for h.now < 20*time.Second && (a.ACSScanning() || h.now < arrived+time.Second) {
		if f, ok := h.takeRetune(); ok {
			if on := a.OnFreq(); a.ACSScanning() && on != 0 {
				busy := 0.9
				if on == 2437 || on == 2457 {
					busy = 0.05
				}
				d := h.now - arrived
				a.ReportSurvey(on, scan.SurveyReport{Active: d, Busy: time.Duration(busy * float64(d)), Noise: -95, HasNoise: true})
			}
			if _, ok := a.ACSDecision(); ok && a.ACSScanning() {
				after = append(after, f)
			}
			h.now += time.Millisecond
			a.Retuned(h.now)
			h.collect()
			arrived, heard = h.now, h.now
			continue
		}
		next := a.Deadline()
		if a.ACSScanning() {
			for heard+10*time.Millisecond < next {
				heard += 10 * time.Millisecond
				h.now = heard
				if on := a.OnFreq(); on == 2407+5*legacy {
					a.HandleRadio(h.now, neighbourBeacon(on, ieee80211.MAC{0x02, 0xbb, 0, 0, 0, byte(legacy)}, -80))
				}
			}
		}
		h.advance(max(next-h.now, time.Millisecond))
		h.take()
	}
	if a.ACSScanning() {
		t.Fatalf("still scanning at %v", h.now)
	}
	return a, h.takeEvents(), after
}

// TestACSChecks40MHzPair: with automatic selection, the chosen 40 MHz pair
// on 2.4 GHz goes through the 20/40 MHz check as a configured one, over
// what the selection heard: a legacy BSS on channel 8 keeps 6 with 10 at
// 20 MHz, with the same event as the check of a configured channel.
func TestACSChecks40MHzPair(t *testing.T) {
	a, events, after := driveCoexACS(t, coexACSChannels(1, 13), 8)
	d, _ := a.ACSDecision()
	if d.Channel != 6 {
		t.Fatalf("chose channel %d, want 6", d.Channel)
	}
	if len(after) != 1 || after[0] != 2437 {
		t.Errorf("retunes after the choice %v, want the way home alone: the selection visited every channel", after)
	}
	res, ok := a.Coex40()
	if !ok || res.Permitted || res.Reason != scan.CoexLegacy || res.Freq != 2447 {
		t.Fatalf("check %+v (made %v), want forbidden by the legacy BSS on 2447 MHz", res, ok)
	}
	c := a.Config()
	if c.Channel != 6 || c.PHY.Width != 20 || c.PHY.Secondary != 0 || !c.PHY.Held20 {
		t.Errorf("runs on channel %d at %d MHz, secondary %d", c.Channel, c.PHY.Width, c.PHY.Secondary)
	}
	i := slices.IndexFunc(events, func(e Event) bool { return e.Kind == EventNo40MHz })
	if i < 0 || events[i].Primary != 6 || events[i].Secondary != 10 || events[i].Freq != 2447 {
		t.Errorf("events %v, want one EventNo40MHz for 6 with 10 naming 2447 MHz", events)
	}
}

// TestACSChecks40MHzPairListensWhereItDidNot: candidates 6 and 10 alone;
// after the choice the radio listens on the other channels within 40 MHz
// of the pair, with the check's dwell, and hears the legacy BSS there.
func TestACSChecks40MHzPairListensWhereItDidNot(t *testing.T) {
	a, _, after := driveCoexACS(t, []scan.Channel{{Freq: 2437}, {Freq: 2457}}, 8)
	// The last channel twice: the shell reports its survey before the
	// check, then the way home.
	want := []int{2412, 2417, 2422, 2427, 2432, 2442, 2447, 2452, 2462, 2467, 2472, 2472, 2437}
	if !slices.Equal(after, want) {
		t.Errorf("retunes after the choice %v, want %v", after, want)
	}
	if res, ok := a.Coex40(); !ok || res.Permitted || res.Freq != 2447 {
		t.Fatalf("check %+v (made %v), want forbidden by the legacy BSS on 2447 MHz", res, ok)
	}
	if c := a.Config(); c.Channel != 6 || c.PHY.Width != 20 {
		t.Errorf("runs on channel %d at %d MHz", c.Channel, c.PHY.Width)
	}
}

// TestACSChecks40MHzPairPermits: without a neighbour the chosen pair runs
// at 40 MHz.
func TestACSChecks40MHzPairPermits(t *testing.T) {
	a, events, _ := driveCoexACS(t, coexACSChannels(1, 13), 0)
	if res, ok := a.Coex40(); !ok || !res.Permitted {
		t.Fatalf("check %+v (made %v)", res, ok)
	}
	if c := a.Config(); c.Channel != 6 || c.PHY.Width != 40 || c.PHY.Secondary != 1 {
		t.Errorf("runs on channel %d at %d MHz, secondary %d", c.Channel, c.PHY.Width, c.PHY.Secondary)
	}
	if slices.ContainsFunc(events, func(e Event) bool { return e.Kind == EventNo40MHz }) {
		t.Errorf("events %v", events)
	}
}

// TestCoexCheckKeepsWhatForbade: a legacy BSS heard once while the radio
// listens before it beacons forbids 40 MHz, and a flood of forged BSSes
// that look like 40 MHz BSSes on our own pair, heard after it, more than
// the scan table holds, cannot push that verdict out with the entry.
func TestCoexCheckKeepsWhatForbade(t *testing.T) {
	cfg := Config{SSID: "airq-test", BSSID: bssid, WMM: true, Channel: 6,
		PHY:  bss.PHY{HT: true, Width: 40, Secondary: 1},
		Coex: &CoexConfig{Channels: coexACSChannels(1, 13), Dwell: 30 * time.Millisecond},
	}
	a, h := startCoexCore(t, cfg)
	legacySent, flooded := false, false
	for h.now < 20*time.Second && a.ACSScanning() {
		if _, ok := h.takeRetune(); ok {
			h.now += time.Millisecond
			a.Retuned(h.now)
			h.collect()
			switch on := a.OnFreq(); {
			case on == 2447 && !legacySent:
				legacySent = true
				a.HandleRadio(h.now, neighbourBeacon(on, ieee80211.MAC{0x02, 0xbb, 0, 0, 0, 8}, -80))
			case on == 2472 && legacySent && !flooded:
				flooded = true
				for i := range 2 * scan.DefaultMaxBSS {
					mac := ieee80211.MAC{0x02, 0xcc, 0, 0, byte(i >> 8), byte(i)}
					f := radiotap.AppendRx(nil, radio.RxInfo{Freq: uint16(on), Signal: -40, HasSignal: true})
					f = ieee80211.AppendMgmtHeader(f, ieee80211.SubtypeBeacon, ieee80211.Broadcast, mac, mac, 1)
					f = ieee80211.AppendDSParams(ieee80211.AppendSSID(ieee80211.AppendBeaconFixed(f, 1, 100, 1), "x"), 6)
					f = ieee80211.AppendHTCap(f, ieee80211.HTPHY{Streams: 1, Width40: true}.Cap())
					f = ieee80211.AppendHTOper(f, ieee80211.NewHTOper(6, ieee80211.HTOperSecondaryAbove))
					h.now += 10 * time.Microsecond
					a.HandleRadio(h.now, f)
				}
			}
			continue
		}
		h.advance(max(a.Deadline()-h.now, time.Millisecond))
		h.take()
	}
	if !legacySent || !flooded {
		t.Fatalf("the listening never reached channels 8 and 13 (legacy %v, flood %v)", legacySent, flooded)
	}
	if res, ok := a.Coex40(); !ok || res.Permitted || res.Reason != scan.CoexLegacy || res.Freq != 2447 {
		t.Fatalf("check %+v (made %v), want forbidden by the legacy BSS on 2447 MHz", res, ok)
	}
	if c := a.Config(); c.PHY.Width != 20 {
		t.Errorf("runs at %d MHz, want 20", c.PHY.Width)
	}
}
