package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/ieee80211"
)

// A SIGHUP re-reads the file (section guest removed) and the scenario
// (its bss=guest line now count=3): Next refuses the stations it cannot
// place, naming the section, instead of panicking.
func TestPlayNextScenarioGrows(t *testing.T) {
	guest := ap.BSSConfig{Name: "guest", SSID: "guest", BSSID: ieee80211.MAC{0x02, 0, 0, 0, 0x01, 1}}
	with := Config{Seed: 5, Medium: MediumConfig{SignalLoss: true}, AP: ap.Config{SSID: "main", BSSes: []ap.BSSConfig{guest}}}
	without := Config{Seed: 6, Medium: MediumConfig{SignalLoss: true}, AP: ap.Config{SSID: "main"}}
	sc1, _ := ParseScenario("bss=guest traffic=ping")
	sc3, _ := ParseScenario("bss=guest traffic=ping count=3")
	p, err := NewPlay(with, sc1, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	p.AddStations()
	p.RunUntil(p.Sim().Now() + time.Second)
	p.Stop()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("panic: %v", r)
		}
	}()
	if _, err = p.Next(without, sc3, 50*time.Millisecond); err == nil || !strings.Contains(err.Error(), "bss=guest") {
		t.Fatalf("three stations of a section the radio lacks, one of them there before: %v, want refused naming bss=guest", err)
	}
}
