package monitor

import (
	"testing"
	"time"

	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/scan"
)

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
