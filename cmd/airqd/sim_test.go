package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/ctl"
	"github.com/airq/airq/sim"
)

// newPlay builds the simulation as airqd -radio sim does from args.
func newPlay(t *testing.T, args ...string) *sim.Play {
	t.Helper()
	o, err := parseFlags(append([]string{"-radio", "sim", "-control", ""}, args...))
	if err != nil {
		t.Fatal(err)
	}
	p, err := newSimPlay(o, 7, nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runFor runs p for d in the daemon loop's steps.
func runFor(p *sim.Play, d time.Duration) {
	end := p.Sim().Now() + d
	for p.Sim().Now() < end {
		p.RunUntil(min(end, p.Sim().Now()+maxSimStep))
	}
}

func stationDump(p *sim.Play) []ctl.Station {
	return p.Sim().Control(ctl.Request{Op: ctl.OpStationDump}).Stations
}

// make run SIM=three-snr: stations at -55, -69 and -77 dBm with bulk
// downloads settle on three different rates, falling with the signal, and
// the airtime scheduler gives each the same airtime within 10 %. The HT
// case sends no A-MSDUs: with them (-ht's default) the strongest station
// took 0.86 of the mean airtime and the weakest 1.13 in this scenario, an
// open question of how A-MSDUs are charged, not held here.
func TestSimThreeSNR(t *testing.T) {
	for _, args := range [][]string{{}, {"-ht", "-amsdu", "0"}} {
		p := newPlay(t, append([]string{"-sim-scenario", "three-snr"}, args...)...)
		runFor(p, 4*time.Second) // association, slow start, rate selection
		before := stationDump(p)
		runFor(p, 5*time.Second)
		after := stationDump(p)
		if len(before) != 3 || len(after) != 3 {
			t.Fatalf("%v: %d and %d stations", args, len(before), len(after))
		}
		var air [3]float64
		var mean float64
		for i := range after {
			air[i] = float64(after[i].TxAirtime - before[i].TxAirtime)
			mean += air[i] / 3
			t.Logf("%v: %d dBm: %s, airtime %.0f ms, %.1f Mbit/s down", args, after[i].Signal, after[i].TxRate.AppendIW(nil),
				air[i]/1000, float64(after[i].TxBytes-before[i].TxBytes)*8/5e6)
		}
		a, b, c := after[0].TxBitrate, after[1].TxBitrate, after[2].TxBitrate
		if !(a > b && b > c) {
			t.Errorf("%v: rates %d, %d, %d kbit/s: want three, falling with the signal", args, a, b, c)
		}
		for i, x := range air {
			if x < 0.9*mean || x > 1.1*mean {
				t.Errorf("%v: station %d: airtime %.0f µs, mean %.0f µs: not within 10 %%", args, i+1, x, mean)
			}
		}
	}
}

// -scan with -sim-retune-jitter: the planner plans each retune at its
// longest, the simulated retunes vary, and no beacon is missed while a
// station downloads.
func TestSimRetuneJitter(t *testing.T) {
	p := newPlay(t, "-channel", "36", "-scan", "-sim-stations", "1", "-sim-retune", "3ms", "-sim-retune-jitter", "1500us")
	if r := p.Sim().Core().Config().Scan.Planner.Retune; r != 4500*time.Microsecond {
		t.Errorf("planner retune %v, want 4.5ms", r)
	}
	runFor(p, 10*time.Second)
	st := p.Sim().Core().ScanStats()
	// A retune as the core measures it also waits for the frame on the
	// air to end: 2 ms covers the longest exchange of the station's.
	if st.Retunes < 50 || st.RetuneMax <= 3*time.Millisecond || st.RetuneMax >= 6500*time.Microsecond {
		t.Errorf("%d retunes, the longest %v: want some above 3ms, none beyond 4.5ms and a frame", st.Retunes, st.RetuneMax)
	}
	if st.Planner.MissedBeacons != 0 || st.RetuneTooSlow != 0 || st.MissedBeacons != 0 {
		t.Errorf("missed beacons %d (core %d), retunes too slow %d", st.Planner.MissedBeacons, st.MissedBeacons, st.RetuneTooSlow)
	}
}

// The planner's bounds come from the flags and the file.
func TestScanBounds(t *testing.T) {
	o, err := parseFlags([]string{"-radio", "sim", "-control", "", "-scan", "-scan-budget", "60ms", "-scan-guard", "5ms",
		"-scan-max-defers", "0", "-scan-max-defer-time", "300ms"})
	if err != nil {
		t.Fatal(err)
	}
	c := o.Scan.Config(nil, time.Millisecond).Planner
	if c.Budget != 60*time.Millisecond || c.Guard != 5*time.Millisecond || c.MaxDefers != -1 || c.MaxDeferTime != 300*time.Millisecond {
		t.Errorf("planner %+v", c)
	}
	path := writeConf(t, "scan=1\nscan_budget=80ms\nscan_guard=2ms\nscan_max_defers=3\nscan_max_defer_time=2s\n")
	if o, err = parseFlags([]string{"-radio", "sim", "-control", "", "-config", path}); err != nil {
		t.Fatal(err)
	}
	c = o.Scan.Config(nil, time.Millisecond).Planner
	if c.Budget != 80*time.Millisecond || c.Guard != 2*time.Millisecond || c.MaxDefers != 3 || c.MaxDeferTime != 2*time.Second {
		t.Errorf("planner from the file %+v", c)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-scan-budget", "10ms"}, "-scan-budget: 10ms, want 30ms to 1s"},
		{[]string{"-scan-guard", "0s"}, "-scan-guard: 0s, want 1ms to 50ms"},
		{[]string{"-scan-max-defers", "-1"}, "-scan-max-defers: -1, want 0 to 100"},
		{[]string{"-scan-max-defer-time", "2m"}, "-scan-max-defer-time: 2m0s, want 10ms to 1m0s"},
		{[]string{"-config", writeConf(t, "scan_budget=5s\n")}, `scan_budget: "5s": want 30ms to 1s`},
	} {
		if _, err := parseFlags(append([]string{"-radio", "sim", "-control", ""}, c.args...)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}

// The simulator's settings: a scenario from a file or by name, the sim_*
// keys, and errors that name the flag and what it accepts.
func TestSimSettings(t *testing.T) {
	scn := filepath.Join(t.TempDir(), "two.scn")
	os.WriteFile(scn, []byte("signal=-60 count=2 traffic=ping\n"), 0o600)
	o, err := parseFlags([]string{"-radio", "sim", "-control", "", "-sim-scenario", scn})
	if err != nil || o.simScenario.Len() != 2 || o.simScenario.Stations[0].Signal != -60 {
		t.Fatalf("%+v %v", o.simScenario, err)
	}
	path := writeConf(t, "radio=sim\nsim_scenario=three-snr\nsim_join=10ms\nsim_retune=1ms\nsim_retune_jitter=500us\n")
	if o, err = parseFlags([]string{"-control", "", "-config", path}); err != nil {
		t.Fatal(err)
	}
	if o.simScenario.Len() != 3 || o.Sim.Join != 10*time.Millisecond || o.Sim.Retune != time.Millisecond || o.Sim.RetuneJitter != 500*time.Microsecond {
		t.Errorf("from the file: %+v, %d stations", o.Sim, o.simScenario.Len())
	}
	bad := filepath.Join(t.TempDir(), "bad.scn")
	os.WriteFile(bad, []byte("signal=-60\nps=maybe\n"), 0o600)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-sim-scenario", bad}, "-sim-scenario: " + bad + ": line 2: ps=maybe: want on or off"},
		{[]string{"-sim-scenario", "nowhere"}, "-sim-scenario: open nowhere: no such file or directory; the built-in scenarios are mixed, three-snr"},
		{[]string{"-sim-scenario", "three-snr", "-sim-stations", "2"}, "give one of them"},
		{[]string{"-sim-retune", "50ms"}, "-sim-retune: 50ms, want 100us to 20ms"},
		{[]string{"-sim-retune-jitter", "-1ms"}, "-sim-retune-jitter: -1ms, want 0 to 20ms"},
		{[]string{"-config", writeConf(t, "sim_stations=65\n")}, `sim_stations: "65": want 0 to 64`},
	} {
		if _, err := parseFlags(append([]string{"-radio", "sim", "-control", ""}, c.args...)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}
