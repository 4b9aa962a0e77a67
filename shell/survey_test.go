package shell

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/radio/radiotest"
	"github.com/airq/airq/scan"
)

func TestSurveyDelta(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	for _, c := range []struct {
		name     string
		base, at nl80211.SurveyInfo
		have     bool
		want     scan.SurveyReport
		ok       bool
	}{
		{"cumulative", nl80211.SurveyInfo{Freq: 2412, Time: 1000, TimeBusy: 300, TimeRX: 100, TimeTX: 10},
			nl80211.SurveyInfo{Freq: 2412, Time: 1100, TimeBusy: 340, TimeRX: 120, TimeTX: 12, Noise: -95, HasNoise: true}, true,
			scan.SurveyReport{Active: ms(100), Busy: ms(40), Rx: ms(20), Tx: ms(2), Noise: -95, HasNoise: true}, true},
		// mac80211_hwsim: a channel's time restarts when the radio tunes
		// there, and reads as garbage while it is on it.
		{"restarted", nl80211.SurveyInfo{Freq: 2437, Time: 1 << 40, TimeBusy: 1 << 37}, nl80211.SurveyInfo{Freq: 2437, Time: 98, TimeBusy: 12}, true,
			scan.SurveyReport{Active: ms(98), Busy: ms(12)}, true},
		{"no base", nl80211.SurveyInfo{}, nl80211.SurveyInfo{Freq: 5180, Time: 7}, false, scan.SurveyReport{Active: ms(7)}, true},
		{"no time", nl80211.SurveyInfo{Freq: 2412, Time: 50}, nl80211.SurveyInfo{Freq: 2412, Time: 50}, true, scan.SurveyReport{}, false},
	} {
		got, ok := surveyDelta(c.base, c.at, c.have)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: %+v %v, want %+v %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// fakeSurvey is a driver's survey: the channel the radio is on gains
// time as the test says.
type fakeSurvey struct {
	mu    sync.Mutex
	chans map[int]*nl80211.SurveyInfo
	reads int
	err   error
}

func (f *fakeSurvey) add(freq, active, busy int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.chans[freq]
	s.Time += uint64(active)
	s.TimeBusy += uint64(busy)
	s.TimeRX += uint64(busy)
}

func (f *fakeSurvey) read() ([]nl80211.SurveyInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads++
	if f.err != nil {
		return nil, f.err
	}
	var out []nl80211.SurveyInfo
	for _, s := range f.chans {
		out = append(out, *s)
	}
	return out, nil
}

// Run reads the radio's survey before it answers a survey dump: the
// operating channel shows the driver's figures since the loop started.
func TestRunReportsTheRadioSurvey(t *testing.T) {
	noLeaks(t)
	fake := &fakeSurvey{chans: map[int]*nl80211.SurveyInfo{
		2437: {Freq: 2437, InUse: true, Time: 5000, TimeBusy: 900, Noise: -93, HasNoise: true}, 2412: {Freq: 2412, Time: 40}}}
	path := filepath.Join(t.TempDir(), "airqd.sock")
	srv, err := ListenControl(path)
	if err != nil {
		t.Fatal(err)
	}
	core, err := ap.New(ap.Config{SSID: "sv", BSSID: bssid, Channel: 6})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, core, radiotest.New(), radiotest.New(), slog.New(slog.NewTextHandler(io.Discard, nil)), nil,
			WithControl(srv), WithSurvey(fake.read))
	}()
	defer func() { cancel(); <-done }()
	c, _ := dial(t, path)
	waitFor(t, "the first reading", func() bool { fake.mu.Lock(); defer fake.mu.Unlock(); return fake.reads > 0 })
	fake.add(2437, 1000, 250)
	fake.add(2412, 99, 99) // not the radio's channel: not counted
	r, err := c.Do(ctl.Request{Op: ctl.OpSurveyDump})
	want := ctl.Survey{Freq: 2437, InUse: true, Noise: -93, HasNoise: true, Active: 1e6, Busy: 25e4, Rx: 25e4}
	if err != nil || len(r.Surveys) != 1 || r.Surveys[0] != want {
		t.Fatalf("survey dump %+v, %v; want %+v", r.Surveys, err, want)
	}
	fake.add(2437, 500, 0)
	if r, _ = c.Do(ctl.Request{Op: ctl.OpSurveyDump}); r.Surveys[0].Active != 15e5 || r.Surveys[0].Busy != 25e4 {
		t.Errorf("second dump %+v", r.Surveys)
	}
}

// A retune reports the channel left, from a reading taken once the radio
// is elsewhere, and keeps the new channel's reading; a driver without a
// survey is asked once.
func TestSurveyAcrossRetunes(t *testing.T) {
	core, err := ap.New(ap.Config{SSID: "sv", BSSID: bssid, Channel: 6, Scan: &ap.ScanConfig{
		Planner: scan.Config{Channels: []scan.Channel{{Freq: 2412}}}}})
	if err != nil {
		t.Fatal(err)
	}
	fake := &fakeSurvey{chans: map[int]*nl80211.SurveyInfo{2437: {Freq: 2437, Time: 100}, 2412: {Freq: 2412, Time: 7}}}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	tr := &surveyTracker{read: fake.read}
	tr.refresh(core, log) // start: on 2437
	fake.add(2437, 300, 30)
	tr.retuned(core, 2412, log) // 2437's 300 ms reported
	fake.add(2412, 40, 10)
	tr.retuned(core, 2437, log) // 2412's 40 ms
	got := map[int]scan.Survey{}
	for _, s := range core.Surveys(nil, 0) {
		got[s.Freq] = s
	}
	if got[2437].Active != 300*time.Millisecond || got[2437].Busy != 30*time.Millisecond || got[2412].Active != 40*time.Millisecond {
		t.Errorf("surveys %+v", got)
	}
	fake.err = errors.New("operation not supported")
	reads := fake.reads
	tr.refresh(core, log)
	tr.retuned(core, 2412, log)
	if fake.reads != reads+1 {
		t.Errorf("%d reads after the driver said it has no survey", fake.reads-reads)
	}
}
