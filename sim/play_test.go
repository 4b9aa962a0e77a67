package sim

import (
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
)

// A radio restarted with a new configuration (Play.Next): every station
// is disconnected as the old core stops; the new simulation's clock goes
// on from the old one's, the stations join its first BSS again under
// its new SSID, but for the one that had left for good, and the summary
// line goes on from the old time.
func TestPlayNext(t *testing.T) {
	p := playScenario(t, "traffic=bulk count=2\nreconnect=off traffic=ping", 2*time.Second)
	s := p.Sim()
	for i, st := range s.Stations() {
		if !st.Associated() {
			t.Fatalf("station %d not associated", i+1)
		}
	}
	if r := s.Control(ctl.Request{Op: ctl.OpStationDel, Addr: s.Stations()[2].Addr()}); r.Error != "" {
		t.Fatal(r.Error)
	}
	p.RunUntil(s.Now() + 20*time.Millisecond)
	s.DrainEvents(func(ap.Event) {})
	stopped := s.Now()
	p.Stop()
	disconnected := 0
	s.DrainEvents(func(e ap.Event) {
		if e.Kind == ap.EventDisconnected {
			disconnected++
		}
	})
	if disconnected != 2 {
		t.Errorf("%d stations disconnected by the stop, want 2", disconnected)
	}

	cfg := Config{Seed: 4, Medium: MediumConfig{SignalLoss: true}, AP: ap.Config{SSID: "renamed",
		BSSes: []ap.BSSConfig{{Name: "guest", SSID: "guest", BSSID: ieee80211.MAC{0x02, 0, 0, 0, 0x01, 1}}}}}
	sc, err := ParseScenario("traffic=bulk count=2\nreconnect=off traffic=ping")
	if err != nil {
		t.Fatal(err)
	}
	next, err := p.Next(cfg, sc, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	ns := next.Sim()
	if ns.Now() < s.Now() || ns.Now() < stopped {
		t.Fatalf("the new simulation starts at %v, the old one stopped at %v", ns.Now(), s.Now())
	}
	if want := ns.Now().Truncate(time.Second) + time.Second; next.NextSummary() != want {
		t.Errorf("next summary at %v, want %v", next.NextSummary(), want)
	}
	next.AddStations()
	next.RunUntil(next.NextSummary())
	if line, want := string(next.AppendSummary(nil)), "t=  3.0s "; line[:len(want)] != want {
		t.Errorf("summary after the restart: %q, want it to start %q", line, want)
	}
	for end := ns.Now() + 2*time.Second; ns.Now() < end; {
		next.RunUntil(ns.Now() + 20*time.Millisecond)
	}
	sts := ns.Stations()
	if len(sts) != 3 || !sts[0].Associated() || !sts[1].Associated() || sts[2].Associated() || sts[2].Stats().Probes != 0 {
		t.Fatalf("after the restart: associated %v %v %v, the one that left probed %d times", sts[0].Associated(), sts[1].Associated(),
			sts[2].Associated(), sts[2].Stats().Probes)
	}
	for _, st := range ns.Control(ctl.Request{Op: ctl.OpStationDump}).Stations {
		if st.BSS != "" {
			t.Errorf("station %v joined BSS %q, want the first", st.Addr, st.BSS)
		}
	}
}

// A scenario station of a BSS beside the first (bss=NAME) joins that
// BSS; a restart without it leaves the station looking for its network,
// which it joins again once a restart brings the BSS back, under its new
// SSID. A station of a BSS the radio never had is refused at the start.
func TestPlayNextSections(t *testing.T) {
	guest := ap.BSSConfig{Name: "guest", SSID: "guest", BSSID: ieee80211.MAC{0x02, 0, 0, 0, 0x01, 1}}
	with := Config{Seed: 5, Medium: MediumConfig{SignalLoss: true}, AP: ap.Config{SSID: "main", BSSes: []ap.BSSConfig{guest}}}
	without := Config{Seed: 6, Medium: MediumConfig{SignalLoss: true}, AP: ap.Config{SSID: "main"}}
	sc, err := ParseScenario("traffic=ping\nbss=guest traffic=ping")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewPlay(without, sc, 50*time.Millisecond); err == nil {
		t.Error("a station of a BSS the radio does not have: no error")
	}
	run := func(p *Play) []ctl.Station {
		p.AddStations()
		for end := p.Sim().Now() + 2*time.Second; p.Sim().Now() < end; {
			p.RunUntil(p.Sim().Now() + 20*time.Millisecond)
		}
		return p.Sim().Control(ctl.Request{Op: ctl.OpStationDump}).Stations
	}
	bssOf := func(sts []ctl.Station) map[ctl.MAC]string {
		m := map[ctl.MAC]string{}
		for _, s := range sts {
			m[s.Addr] = s.BSS
		}
		return m
	}
	p, err := NewPlay(with, sc, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	first, second := ctl.MAC{0x02, 0, 0, 0, 0x10, 1}, ctl.MAC{0x02, 0, 0, 0, 0x10, 2}
	if got := bssOf(run(p)); len(got) != 2 || got[first] != "" || got[second] != "guest" {
		t.Fatalf("at the start: stations in %v", got)
	}
	p.Stop()
	p, err = p.Next(without, sc, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if got := bssOf(run(p)); len(got) != 1 || got[first] != "" {
		t.Errorf("without the guest BSS: stations in %v, want the first station alone", got)
	}
	if st := p.Sim().Stations()[1]; st.Stats().Probes == 0 {
		t.Error("without the guest BSS: its station does not look for it")
	}
	p.Stop()
	back := with
	back.AP.BSSes = []ap.BSSConfig{guest}
	back.AP.BSSes[0].SSID = "guest2"
	if p, err = p.Next(back, sc, 50*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if got := bssOf(run(p)); len(got) != 2 || got[first] != "" || got[second] != "guest" {
		t.Errorf("with the guest BSS back: stations in %v", got)
	}
}
