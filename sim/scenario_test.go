package sim

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
)

func TestParseScenario(t *testing.T) {
	sc, err := ParseScenario("# three kinds\n\nsignal=-69 loss=0.05 ps=on traffic=bulk,ping\n" +
		"  count=2 traffic=udp:2.5,upload reconnect=off # two alike\nsignal=-80 traffic=none\n")
	if err != nil {
		t.Fatal(err)
	}
	want := []ScenarioStation{
		{Signal: -69, Loss: 0.05, PowerSave: true, Reconnect: true, Count: 1, Traffic: []Flow{{Kind: FlowBulk}, {Kind: FlowPing}}},
		{Signal: -50, Count: 2, Traffic: []Flow{{Kind: FlowUDP, Mbit: 2.5}, {Kind: FlowUpload}}},
		{Signal: -80, Reconnect: true, Count: 1},
	}
	if !reflect.DeepEqual(sc.Stations, want) || sc.Len() != 4 {
		t.Fatalf("got %+v\nwant %+v", sc.Stations, want)
	}
	back, err := ParseScenario(sc.String())
	if err != nil || !reflect.DeepEqual(back, sc) {
		t.Errorf("round trip %q: %+v, %v", sc.String(), back, err)
	}
	for _, c := range []struct{ in, want string }{
		{"signal=-10", "line 1: signal=-10: want -100 to -20 dBm"},
		{"\nloss=1", "line 2: loss=1: want 0 to 0.9"},
		{"ps=yes", "ps=yes: want on or off"},
		{"traffic=bulk,tcp", "traffic=bulk,tcp: want a comma-separated list of bulk"},
		{"traffic=udp:NaN", "traffic=udp:NaN: want"},
		{"count=0", "count=0: want 1 to 64"},
		{"count=40\ncount=25", "line 2: 65 stations, want at most 64"},
		{"rate=54", `"rate=54": want KEY=VALUE with KEY one of signal, loss, ps, traffic, reconnect, count`},
		{"signal=-60 signal=-70", "signal given twice"},
	} {
		if _, err := ParseScenario(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
}

func TestBuiltinScenarios(t *testing.T) {
	names := BuiltinScenarios()
	if len(names) < 2 {
		t.Fatalf("built-in scenarios %v", names)
	}
	for _, name := range names {
		text, ok := BuiltinScenario(name)
		sc, err := ParseScenario(text)
		if !ok || err != nil || sc.Len() == 0 {
			t.Errorf("%s: %v %v, %d stations", name, ok, err, sc.Len())
		}
	}
	if _, ok := BuiltinScenario("nope"); ok {
		t.Error("unknown name found")
	}
}

func FuzzParseScenario(f *testing.F) {
	for _, name := range BuiltinScenarios() {
		text, _ := BuiltinScenario(name)
		f.Add(text)
	}
	f.Add("signal=-69 loss=0.05 ps=on traffic=udp:3,bulk count=3 reconnect=off")
	f.Add("bss=guest traffic=ping count=2")
	f.Fuzz(func(t *testing.T, text string) {
		sc, err := ParseScenario(text)
		if err != nil {
			return
		}
		if sc.Len() > MaxScenarioStations {
			t.Fatalf("%d stations", sc.Len())
		}
		back, err := ParseScenario(sc.String())
		if err != nil || !reflect.DeepEqual(back, sc) {
			t.Fatalf("round trip of %q: %+v, %v", sc.String(), back, err)
		}
	})
}

// playScenario runs a Play of text on channel 36 for d.
func playScenario(t *testing.T, text string, d time.Duration) *Play {
	t.Helper()
	sc, err := ParseScenario(text)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlay(Config{Seed: 3, Medium: MediumConfig{SignalLoss: true}}, sc, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	p.AddStations()
	for p.Sim().Now() < d {
		p.RunUntil(p.Sim().Now() + 20*time.Millisecond)
	}
	return p
}

// A deleted station comes back with reconnect on and its flows pick up
// again; with reconnect off it stays away. A station in power save dozes,
// and a lossy link shows in its retries.
func TestPlayStations(t *testing.T) {
	p := playScenario(t, "traffic=bulk\nreconnect=off traffic=ping\nps=on traffic=udp:1\nloss=0.3 traffic=udp:1", 2*time.Second)
	s := p.Sim()
	sts := s.Stations()
	for i, st := range sts {
		if !st.Associated() {
			t.Fatalf("station %d not associated", i+1)
		}
	}
	for _, st := range sts[:2] {
		if r := s.Control(ctl.Request{Op: ctl.OpStationDel, Addr: st.Addr()}); r.Error != "" {
			t.Fatal(r.Error)
		}
	}
	before := sts[0].Stack()
	for s.Now() < 4*time.Second {
		p.RunUntil(s.Now() + 20*time.Millisecond)
	}
	if !sts[0].Associated() || sts[0].Stats().Associations != 2 || sts[0].Stack().RxFrames <= before.RxFrames {
		t.Errorf("reconnecting station: associated %v, %d associations, rx bytes %d -> %d", sts[0].Associated(),
			sts[0].Stats().Associations, before.RxFrames, sts[0].Stack().RxFrames)
	}
	if sts[1].Associated() || sts[1].Stats().Associations != 1 {
		t.Errorf("station without reconnect: associated %v after deletion", sts[1].Associated())
	}
	dump := s.Control(ctl.Request{Op: ctl.OpStationDump}).Stations
	// 5 GHz: the BSS's parameters say short slot time, no short preamble.
	if st := dump[0]; st.DTIMPeriod != 2 || st.BeaconInterval != 100 || !st.ShortSlotTime || st.BSSShortPreamble || st.CTSProtection {
		t.Errorf("BSS parameters on channel 36: %+v", st)
	}
	var lossy *ctl.Station
	for i := range dump {
		if dump[i].Addr == ctl.MAC(sts[3].Addr()) {
			lossy = &dump[i]
		}
	}
	if sts[2].Stats().PSPolls == 0 || sts[2].Stack().RxFrames < 100 {
		t.Errorf("power-save station: %d PS-Polls, %d frames received", sts[2].Stats().PSPolls, sts[2].Stack().RxFrames)
	}
	if lossy == nil || lossy.TxRetries*5 < lossy.TxPackets {
		t.Errorf("lossy station: %+v", lossy)
	}
}

// The summary line: its fields in order, inflight and backlog as airqctl
// status counts them.
func TestPlaySummary(t *testing.T) {
	p := playScenario(t, "traffic=bulk,ping count=2", 3*time.Second)
	p.RunUntil(p.NextSummary())
	line := string(p.AppendSummary(nil))
	mbit := ` VO=\d+\.\d VI=\d+\.\d BE=\d+\.\d BK=\d+\.\d`
	re := regexp.MustCompile(`^t=  3\.0s sta=2 down` + mbit + ` up` + mbit +
		` Mbit/s aql_pending=\d+us rounds=\d+/\d+ skipped=\d+ backlog=\d+ inflight=\d+ drops=\d+\n$`)
	if !re.MatchString(line) {
		t.Fatalf("summary %q\nwant %s", line, re)
	}
	if p.NextSummary() != 4*time.Second {
		t.Errorf("next summary at %v", p.NextSummary())
	}
	st := p.Sim().Control(ctl.Request{Op: ctl.OpStatus}).Status
	if !strings.Contains(line, fmt.Sprintf(" inflight=%d ", st.InFlightFrames)) {
		t.Errorf("summary %q, status inflight_frames %d", line, st.InFlightFrames)
	}
}

// While the start-up channel selection runs, the scenario's stations are
// not added yet: running the play then is no error.
func TestPlayBeforeStations(t *testing.T) {
	sc, err := ParseScenario("traffic=bulk\ntraffic=ping")
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlay(Config{Seed: 3, AP: ap.Config{ACS: &ap.ACSConfig{Channels: USChannels()[:3], Runs: 1}}}, sc, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	for p.Sim().Home() == 0 {
		p.RunUntil(p.Sim().Now() + 20*time.Millisecond)
	}
	p.AddStations()
	for p.Sim().Now() < 3*time.Second {
		p.RunUntil(p.Sim().Now() + 20*time.Millisecond)
	}
	for i, st := range p.Sim().Stations() {
		if !st.Associated() {
			t.Errorf("station %d not associated", i+1)
		}
	}
}
