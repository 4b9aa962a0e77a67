package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/scan"
)

func TestACSOptions(t *testing.T) {
	o, err := parseFlags([]string{"-radio", "sim", "-channel", "0", "-acs-chan-bias", "1:0.5 36:1.5", "-acs-num-scans", "2", "-acs-exclude-dfs"})
	if err != nil {
		t.Fatal(err)
	}
	if o.channel != 0 || o.acsOpt.numScans != 2 || !o.acsOpt.excludeDFS || len(o.acsOpt.biases) != 2 || o.acsOpt.biases[1] != (scan.Bias{Channel: 36, Factor: 1.5}) {
		t.Errorf("options %+v", o.acsOpt)
	}
	for _, bad := range [][]string{{"-acs-num-scans", "0"}, {"-acs-chan-bias", "6"}, {"-acs-chan-bias", "6:-1"}} {
		if _, err := parseFlags(append([]string{"-radio", "sim", "-channel", "0"}, bad...)); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if o, err := parseFlags([]string{"-radio", "sim", "-acs-chan-bias", "none"}); err != nil || !o.acsOpt.noBias {
		t.Errorf("none: %v %+v", err, o.acsOpt)
	}

	path := filepath.Join(t.TempDir(), "airqd.conf")
	conf := "ssid=x\nhw_mode=a\nchannel=acs_survey\nacs_num_scans=3\nacs_exclude_dfs=1\nacs_chan_bias=36:0.9\n"
	if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	o, err = parseFlags([]string{"-radio", "sim", "-config", path})
	if err != nil {
		t.Fatal(err)
	}
	if o.channel != 0 || o.acsOpt.numScans != 3 || !o.acsOpt.excludeDFS || len(o.acsOpt.biases) != 1 {
		t.Errorf("from the file: channel %d %+v", o.channel, o.acsOpt)
	}
	// hw_mode=a: 5 GHz candidates only, radar ones left out.
	phy := nl80211.PHY{Name: "phy0", Bands: []nl80211.Band{
		{Index: 0, Channels: []nl80211.ChannelInfo{{Freq: 2412}, {Freq: 2467, NoIR: true}, {Freq: 2484, Disabled: true}}},
		{Index: 1, Channels: []nl80211.ChannelInfo{{Freq: 5180}, {Freq: 5260, Radar: true}, {Freq: 5500, Disabled: true}}},
	}}
	got := o.acsChannels(phy)
	if len(got) != 1 || got[0] != (scan.Channel{Freq: 5180}) {
		t.Errorf("candidates %+v", got)
	}
	o.hwMode, o.acsOpt.excludeDFS = "", false
	got = o.acsChannels(phy)
	want := []scan.Channel{{Freq: 2412}, {Freq: 2467, Passive: true}, {Freq: 5180}, {Freq: 5260, Passive: true}}
	if len(got) != len(want) {
		t.Fatalf("candidates %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("candidate %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestSurveyTracker: cumulative counters give the dwell's difference;
// counters restarted at each tune are taken as they are.
func TestSurveyTracker(t *testing.T) {
	var tr surveyTracker
	tr.arrive(2412, []nl80211.SurveyInfo{{Freq: 2412, Time: 1000, TimeBusy: 300, TimeTX: 10}, {Freq: 2437, Time: 50}})
	f, r, ok := tr.leave([]nl80211.SurveyInfo{{Freq: 2412, Time: 1100, TimeBusy: 340, TimeTX: 12, Noise: -95, HasNoise: true}})
	want := scan.SurveyReport{Active: 100 * time.Millisecond, Busy: 40 * time.Millisecond, Tx: 2 * time.Millisecond, Noise: -95, HasNoise: true}
	if !ok || f != 2412 || r != want {
		t.Errorf("cumulative: %d %+v %v", f, r, ok)
	}
	tr.arrive(2437, []nl80211.SurveyInfo{{Freq: 2437, Time: 400, TimeBusy: 100}})
	f, r, ok = tr.leave([]nl80211.SurveyInfo{{Freq: 2437, Time: 98, TimeBusy: 20}})
	if !ok || f != 2437 || r.Active != 98*time.Millisecond || r.Busy != 20*time.Millisecond {
		t.Errorf("restarted: %d %+v %v", f, r, ok)
	}
	tr.arrive(5180, nil)
	if _, _, ok := tr.leave([]nl80211.SurveyInfo{{Freq: 2412, Time: 5}}); ok {
		t.Error("a report for a channel the driver did not survey")
	}
}
