package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/scan"
	"github.com/airq/airq/shell"
	"github.com/airq/airq/sim"
)

// maxSimStep bounds the virtual time one pass of the loop simulates, so a
// simulator that runs slower than the wall clock still answers requests
// and signals promptly.
const maxSimStep = 20 * time.Millisecond

// runSim runs the core on the simulated medium with -sim-stations stations,
// each with a bulk download from a wired host and a ping to it, paced to
// the wall clock: virtual time follows real time, and the loop sleeps until
// the next event or summary line. One summary line a second goes to stdout
// until ctx ends.
func runSim(ctx context.Context, o options, log *slog.Logger) error {
	cfg := o.Core
	if o.Scan.On {
		// The simulated radio scans a US channel plan, where a few other
		// networks beacon.
		band := ieee80211.Band2GHz
		if cfg.Channel > 14 {
			band = ieee80211.Band5GHz
		}
		home := ieee80211.ChannelToFreq(cfg.Channel, band)
		var chans []scan.Channel
		for _, c := range sim.USChannels() {
			if c.Freq != home {
				chans = append(chans, c)
			}
		}
		cfg.Scan = o.scanConfig(chans, sim.DefaultRetuneTime)
	}
	if o.Channel == 0 { // ACS over the US plan (acs.go)
		cfg.ACS = o.acsConfig(o.acsSimChannels(sim.USChannels()))
	}
	s, err := sim.New(sim.Config{Seed: uint64(time.Now().UnixNano()), AP: cfg, Capture: o.simCapture(time.Now())})
	if err != nil {
		return err
	}
	if o.Channel == 0 {
		addACSNeighbours(s)
	}
	if o.Scan.On || o.Channel == 0 {
		for i, f := range []int{2412, 2437, 2462, 5180, 5260, 5745} {
			s.AddForeignBSS(sim.ForeignBSSConfig{Freq: f, SSID: fmt.Sprintf("neighbour-%d", i+1), Passive: f == 5260})
		}
	}
	host := s.AddHost(sim.HostConfig{})
	// With ACS, stations arrive once the channel is chosen.
	waitACS := o.Channel == 0
	addStations := func() {
		phy := s.Core().Config().PHY
		for i := range o.simStations {
			s.AddStation(sim.StationConfig{Start: s.Now() + time.Duration(i+1)*o.simJoin, HT: phy.HT, VHT: phy.VHT, UseAPKey: true})
		}
	}
	if !waitACS {
		addStations()
	}
	calls := o.srv.Calls()
	control := func(req ctl.Request) ctl.Reply { return s.Control(req) }
	cfg = s.Core().Config()
	log.Info("simulated radio up", "ssid", cfg.SSID, "bssid", cfg.BSSID, "channel", cfg.Channel, "stations", o.simStations,
		"control", o.Control)
	daemon.SdNotify(false, daemon.SdNotifyReady)
	started := make([]bool, o.simStations)
	sum := newSimSummary(os.Stdout, s)
	start := time.Now()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		now := min(time.Since(start), s.Now()+maxSimStep)
		s.RunUntil(now)
		if waitACS && s.Home() != 0 {
			waitACS = false
			d, _ := s.Core().ACSDecision()
			logDecision(log, d, s.Core().ACSTook())
			addStations()
		}
		startTraffic(s, host, started)
		drainEvents(s, o.srv, log)
		if now >= sum.next {
			sum.line()
		}
		wait := sum.next - now
		if t, ok := s.Next(); ok {
			wait = min(wait, t-now)
		}
		// Events come microseconds apart under load; batching them per
		// 200 µs of wall time keeps the loop from spinning on timers.
		timer.Reset(max(wait, 200*time.Microsecond))
		select {
		case <-ctx.Done():
			log.Info("simulation stopped", "virtual", s.Now().Round(time.Millisecond))
			return nil
		case call := <-calls:
			s.RunUntil(min(time.Since(start), s.Now()+maxSimStep))
			call.Serve(s.Core(), control)
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

// startTraffic gives each newly associated station its flows.
func startTraffic(s *sim.Sim, host *sim.Host, started []bool) {
	for i, st := range s.Stations() {
		if started[i] || !st.Associated() {
			continue
		}
		started[i] = true
		s.Bulk(host, st, sim.BulkConfig{})
		s.Ping(st, host, time.Second, 56)
	}
}

// simSummary prints the per-second line: virtual time, stations
// associated, Mbit/s per AC each way, echoes matched, frames queued in the
// core and in flight on the simulated radio, and drops.
type simSummary struct {
	w    io.Writer
	s    *sim.Sim
	next time.Duration
	prev sim.Stats
	sb   strings.Builder
	// rounds opened and closed up to the previous line
	prevOpened, prevClosed uint64
}

func newSimSummary(w io.Writer, s *sim.Sim) *simSummary {
	return &simSummary{w: w, s: s, next: time.Second}
}

func (m *simSummary) line() {
	st, c := m.s.Stats(), m.s.Core().Counters()
	n := 0
	for _, sta := range m.s.Stations() {
		if sta.Associated() {
			n++
		}
	}
	m.sb.Reset()
	fmt.Fprintf(&m.sb, "t=%5.1fs sta=%d", m.s.Now().Seconds(), n)
	for dir, name := range [2]string{"down", "up"} {
		m.sb.WriteString(" " + name)
		for ac := range ieee80211.NumACs {
			mbps := float64(st.DataBytes[dir][ac]-m.prev.DataBytes[dir][ac]) * 8 / 1e6
			fmt.Fprintf(&m.sb, " %s=%.1f", ieee80211.AC(ac), mbps)
		}
	}
	drops := c.Sum(counter.WiredTxFailed.Family()) // the downlink's drops
	core := m.s.Core()
	var pending int64
	var opened, closed, skipped uint64
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		pending += core.AirtimePending(ac)
		ss := core.SchedulerStats(ac)
		opened, closed, skipped = opened+ss.RoundsOpened, closed+ss.RoundsClosed, skipped+ss.Skipped
	}
	fmt.Fprintf(&m.sb, " Mbit/s aql_pending=%dus rounds=%d/%d skipped=%d queued=%d inflight=%d drops=%d\n",
		pending, opened-m.prevOpened, closed-m.prevClosed, skipped, core.Backlog(), core.InFlight(), drops)
	m.prevOpened, m.prevClosed = opened, closed
	io.WriteString(m.w, m.sb.String())
	m.prev = st
	m.next += time.Second
}
