package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/monitor"
	"github.com/airq/airq/shell"
	"github.com/airq/airq/sim"
)

// maxSimStep bounds the virtual time one pass of the loop simulates, so a
// simulator that runs slower than the wall clock still answers requests
// and signals promptly.
const maxSimStep = 20 * time.Millisecond

// registerSim adds -radio sim's flags (the config's sim_* keys).
func (o *options) registerSim(fs *flag.FlagSet) {
	s := &o.Sim
	fs.IntVar(&s.Stations, "sim-stations", 4, "-radio sim: number of simulated stations (0-64) at -50 dBm, each with a bulk download and a ping (without -sim-scenario)")
	fs.DurationVar(&s.Join, "sim-join", 50*time.Millisecond, "-radio sim: interval between simulated stations joining, the first after one interval")
	fs.StringVar(&s.Scenario, "sim-scenario", "", "-radio sim: the stations of a scenario file, one a line such as \"signal=-69 loss=0.02 ps=on traffic=bulk,ping count=2\" (see the README), or a built-in one: "+
		strings.Join(sim.BuiltinScenarios(), ", "))
	fs.DurationVar(&s.Retune, "sim-retune", sim.DefaultRetuneTime, "-radio sim: the radio's channel change time, 100us-20ms (the scan planner plans with it plus -sim-retune-jitter)")
	fs.DurationVar(&s.RetuneJitter, "sim-retune-jitter", 0, "-radio sim: each retune takes up to this much longer, drawn uniformly, 0-20ms")
}

// checkSim checks the simulator's settings and reads its scenario.
func (o *options) checkSim() error {
	s := o.Sim
	switch {
	case s.Stations < 0 || s.Stations > 64:
		return fmt.Errorf("-sim-stations: %d, want 0 to 64", s.Stations)
	case s.Join < 0 || s.Join > time.Hour:
		return fmt.Errorf("-sim-join: %v, want 0 to 1h", s.Join)
	case s.Retune < 100*time.Microsecond || s.Retune > 20*time.Millisecond:
		return fmt.Errorf("-sim-retune: %v, want 100us to 20ms", s.Retune)
	case s.RetuneJitter < 0 || s.RetuneJitter > 20*time.Millisecond:
		return fmt.Errorf("-sim-retune-jitter: %v, want 0 to 20ms", s.RetuneJitter)
	case s.Scenario == "":
		o.simScenario = sim.DefaultScenario(s.Stations)
		return nil
	case o.flagSet["sim-stations"]:
		return fmt.Errorf("-sim-stations and -sim-scenario: give one of them (the scenario lists the stations)")
	}
	var err error
	if o.simScenario, err = sim.LoadScenario(s.Scenario, os.ReadFile); err != nil {
		return fmt.Errorf("-sim-scenario: %w", err)
	}
	return nil
}

// simBSSID is the simulated radio's address, the first BSS's BSSID unless
// configured (the simulator's own default).
var simBSSID = ieee80211.MAC{0x02, 0, 0, 0, 0x01, 0}

// newSimPlay builds the simulation airqd -radio sim runs: the core with
// the options' configuration on a medium where a station's signal decides
// which rates reach it, a wired host, the scenario's stations (once the
// channel is chosen, with ACS), and neighbouring networks to find with
// -scan or -channel 0. After a restart of the radio the simulation goes
// on from prev's (sim.Play.Next); epoch is the capture's time zero.
func newSimPlay(o options, seed uint64, prev *sim.Play, epoch time.Time) (*sim.Play, error) {
	cfg := o.Core
	if cfg.BSSID.IsZero() {
		cfg.BSSID = simBSSID
	}
	monitor.DeriveBSSIDs(&cfg) // the simulated radio ACKs every BSSID: no holders
	med := sim.MediumConfig{SignalLoss: true, RetuneTime: o.Sim.Retune, RetuneJitter: o.Sim.RetuneJitter}
	if o.Scan.On {
		// The simulated radio scans a US channel plan; the planner plans
		// each retune at its longest.
		cfg.Scan = o.Scan.Config(sim.USChannelsBut(cfg.Channel), med.RetuneTime+med.RetuneJitter)
	}
	if cfg.Coex != nil {
		cfg.Coex = &ap.CoexConfig{Channels: sim.USChannels()}
	}
	if o.Channel == 0 { // ACS over the US plan (acs.go)
		cfg.ACS = o.acsConfig(o.acsSimChannels(sim.USChannels()))
	}
	sc := sim.Config{Seed: seed, AP: cfg, Medium: med, Capture: o.simCapture(epoch)}
	var (
		p   *sim.Play
		err error
	)
	if prev != nil {
		p, err = prev.Next(sc, o.simScenario, o.Sim.Join)
	} else {
		p, err = sim.NewPlay(sc, o.simScenario, o.Sim.Join)
	}
	if err != nil {
		return nil, err
	}
	s := p.Sim()
	if o.Channel == 0 {
		s.AddACSNeighbours()
	}
	if o.Scan.On || o.Channel == 0 {
		p.AddNeighbours()
	}
	if o.Channel != 0 {
		p.AddStations()
	}
	return p, nil
}

// simRadio is the simulated radio across its restarts (radioRestarts): a
// restarted radio's simulation goes on from the one before, on the same
// wall clock, so virtual time keeps following real time.
type simRadio struct {
	prev  *sim.Play // the simulation that ran last, stopped
	start time.Time // the wall time of virtual time 0
}

// run runs the simulation paced to the wall clock: virtual time follows
// real time, and the loop sleeps until the next event or summary line. The
// summary line (sim.Play.AppendSummary) goes to stdout once a second until
// ctx ends.
func (r *simRadio) run(ctx context.Context, o options, log *slog.Logger) error {
	if r.start.IsZero() {
		r.start = time.Now()
	}
	p, err := newSimPlay(o, uint64(time.Now().UnixNano()), r.prev, r.start)
	if err != nil {
		return err
	}
	s := p.Sim()
	applyMemoryLimit(o, s.Core(), log)
	waitACS := o.Channel == 0 // stations arrive once the channel is chosen
	calls := o.srv.Calls()
	control := func(req ctl.Request) ctl.Reply { return s.Control(req) }
	cfg := s.Core().Config()
	log.Info("simulated radio up", "ssid", cfg.SSID, "bssid", cfg.BSSID, "channel", cfg.Channel, "stations", o.simScenario.Len(),
		"retune", o.Sim.Retune, "retune_jitter", o.Sim.RetuneJitter, "control", o.Control, "virtual", s.Now().Round(time.Millisecond))
	logBSSes(log, cfg, nil)
	daemon.SdNotify(false, daemon.SdNotifyReady)
	if r.prev == nil {
		log.Info(simHint(o.Control))
	}
	if o.onReady != nil {
		o.onReady()
	}
	line := make([]byte, 0, 256)
	stdout := &readerGone{w: os.Stdout}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		now := min(time.Since(r.start), s.Now()+maxSimStep)
		p.RunUntil(now)
		if waitACS && s.Home() != 0 {
			waitACS = false
			d, _ := s.Core().ACSDecision()
			logDecision(log, d, s.Core().ACSTook())
			p.AddStations()
		}
		drainEvents(s, o.srv, log)
		if now >= p.NextSummary() {
			line = p.AppendSummary(line[:0])
			stdout.Write(line)
		}
		wait := p.NextSummary() - now
		if t, ok := s.Next(); ok {
			wait = min(wait, t-now)
		}
		// Events come microseconds apart under load; batching them per
		// 200 µs of wall time keeps the loop from spinning on timers.
		timer.Reset(max(wait, 200*time.Microsecond))
		select {
		case <-ctx.Done():
			p.Stop() // the stations' deauthentication, as the real radio's shell sends it
			drainEvents(s, o.srv, log)
			r.prev = p
			log.Info("simulation stopped", "virtual", s.Now().Round(time.Millisecond))
			return nil
		case call := <-calls:
			p.RunUntil(min(time.Since(r.start), s.Now()+maxSimStep))
			call.Serve(s.Core(), s.Now(), control)
			drainEvents(s, o.srv, log) // a removal disconnects
		case <-timer.C:
		}
	}
}

// drainEvents logs the core's station events and streams them to the
// events subscribers, as the real radio's loop does.
func drainEvents(s *sim.Sim, srv *shell.ControlServer, log *slog.Logger) {
	s.DrainEvents(func(e ap.Event) { shell.ReportEvent(log, srv, e) })
}
