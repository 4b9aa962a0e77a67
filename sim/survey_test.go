package sim

import (
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/scan"
)

func surveyOf(t *testing.T, s *Sim, freq int) ctl.Survey {
	t.Helper()
	for _, sv := range s.Control(ctl.Request{Op: ctl.OpSurveyDump}).Surveys {
		if sv.Freq == freq {
			return sv
		}
	}
	t.Fatalf("no survey of %d MHz", freq)
	return ctl.Survey{}
}

// Without scanning, the survey is the operating channel's: active all the
// time, busy with the download (the AP transmitting) and its
// acknowledgements (receiving), and the noise floor.
func TestSurveyOperatingChannel(t *testing.T) {
	s, h := newBSS(t, 7, 1, MediumConfig{}, StationConfig{})
	s.Bulk(h, s.Stations()[0], BulkConfig{})
	s.Run(time.Second)
	first := surveyOf(t, s, 5180)
	if !first.InUse || !first.HasNoise || first.Noise != DefaultNoise {
		t.Errorf("survey %+v", first)
	}
	if want := uint64(s.Now() / time.Microsecond); first.Active != want {
		t.Errorf("active %d µs after %v", first.Active, s.Now())
	}
	if first.Tx == 0 || first.Rx == 0 || first.Tx < first.Rx || first.Busy != first.Rx+first.Tx || first.Busy > first.Active {
		t.Errorf("busy %d rx %d tx %d active %d", first.Busy, first.Rx, first.Tx, first.Active)
	}
	// The medium's own books: what was on the air on the channel.
	if onAir := uint64(s.med.airs[0].onAir / time.Microsecond); first.Busy > onAir || first.Busy+1000 < onAir {
		t.Errorf("busy %d µs, on the air %d µs", first.Busy, onAir)
	}
	s.Run(500 * time.Millisecond)
	second := surveyOf(t, s, 5180)
	if second.Active != first.Active+500000 || second.Busy <= first.Busy {
		t.Errorf("after 500 ms more: %+v, before %+v", second, first)
	}
}

// With background scanning the radio's time on each channel is its dwell,
// and a channel where another network beacons is busy with its beacons.
func TestSurveyScannedChannels(t *testing.T) {
	s, err := New(Config{Seed: 9, AP: ap.Config{Channel: 36, WMM: true,
		Scan: &ap.ScanConfig{Planner: scan.Config{Channels: []scan.Channel{{Freq: 5200}, {Freq: 5240}}, Retune: DefaultRetuneTime}}}})
	if err != nil {
		t.Fatal(err)
	}
	s.AddForeignBSS(ForeignBSSConfig{Freq: 5200, SSID: "neighbour"})
	s.Run(3 * time.Second)
	busy, quiet, home := surveyOf(t, s, 5200), surveyOf(t, s, 5240), surveyOf(t, s, 5180)
	for _, sv := range []ctl.Survey{busy, quiet} {
		if sv.Visits == 0 || sv.Active < sv.Dwell || sv.Active > sv.Dwell+uint64(sv.Visits)*3000 || sv.InUse || !sv.HasNoise {
			t.Errorf("%d MHz: %+v", sv.Freq, sv)
		}
	}
	if busy.Rx == 0 || busy.Busy != busy.Rx+busy.Tx || quiet.Rx != 0 || quiet.Tx == 0 {
		t.Errorf("the neighbour's channel %+v, the quiet one %+v (probes are the AP's own)", busy, quiet)
	}
	total := home.Active + busy.Active + quiet.Active
	if !home.InUse || home.Tx == 0 || total > uint64(s.Now()/time.Microsecond) || total+uint64(s.Stats().Retunes)*2000 < uint64(s.Now()/time.Microsecond) {
		t.Errorf("home %+v; %d µs surveyed in %v with %d retunes", home, total, s.Now(), s.Stats().Retunes)
	}
}
