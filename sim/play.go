package sim

import (
	"fmt"
	"slices"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
)

// Play is a simulation as airqd -radio sim runs it: one wired host, a
// scenario's stations, each given its flows once it first associates, and
// a summary line per second of virtual time (AppendSummary).
type Play struct {
	s       *Sim
	host    *Host
	sc      Scenario
	join    time.Duration
	flowsOn []bool // per station: its flows started
	// away are the stations of the scenario that had left for good when
	// the simulation before this one stopped (Next): they stay away.
	// ssids are the networks its stations looked for: one whose BSS the
	// radio no longer has looks for it still.
	away  []bool
	ssids []string

	next time.Duration // when the next summary line is due
	prev summarySample
}

// summarySample is what a summary line takes differences of.
type summarySample struct {
	at                      time.Duration
	bytes                   [2][ieee80211.NumACs]uint64
	opened, closed, skipped uint64
	drops                   uint64
}

// NewPlay starts a simulation with cfg and a wired host. The stations come
// with AddStations; a station's BSS must be one of cfg's.
func NewPlay(cfg Config, sc Scenario, join time.Duration) (*Play, error) {
	return newPlay(cfg, sc, join, nil)
}

func newPlay(cfg Config, sc Scenario, join time.Duration, ssids []string) (*Play, error) {
	k := 0
	for _, line := range sc.Stations {
		if line.BSS != "" && !slices.ContainsFunc(cfg.AP.BSSes, func(b ap.BSSConfig) bool { return b.Name == line.BSS }) && k+line.Count > len(ssids) {
			var names []string
			for _, b := range cfg.AP.BSSes {
				names = append(names, b.Name)
			}
			return nil, fmt.Errorf("sim: scenario station %d: bss=%s: the radio has no BSS of that name beside the first (its others: %q)", k+1, line.BSS, names)
		}
		k += line.Count
	}
	s, err := New(cfg)
	if err != nil {
		return nil, err
	}
	p := &Play{s: s, host: s.AddHost(HostConfig{}), sc: sc, join: join, ssids: ssids}
	p.prev = p.sample()
	p.next = s.Now().Truncate(time.Second) + time.Second
	return p, nil
}

// Stop ends the simulation as airqd's radio stop does (Sim.Shutdown: every
// station deauthenticated), first noting the stations that had left for
// good (deauthenticated with reconnect off), for Next.
func (p *Play) Stop() {
	p.away, p.ssids = p.away[:0], p.ssids[:0]
	for _, st := range p.s.stations[:len(p.flowsOn)] {
		p.away, p.ssids = append(p.away, !st.wantUp), append(p.ssids, st.cfg.SSID)
	}
	p.s.Shutdown()
}

// Next starts the simulation of a radio restarted with a new
// configuration after p stopped (Stop): its virtual clock goes on from
// p's, and its stations, the scenario's as at a start, look for their
// BSS again (by name: under its SSID now), but for those that had left p
// for good, which stay away. A station whose BSS the radio no longer has
// goes on looking for the network it was in, and joins it once a restart
// brings it back.
func (p *Play) Next(cfg Config, sc Scenario, join time.Duration) (*Play, error) {
	cfg.Start = p.s.Now()
	next, err := newPlay(cfg, sc, join, p.ssids)
	if err != nil {
		return nil, err
	}
	next.away = p.away
	return next, nil
}

// Sim returns the simulation.
func (p *Play) Sim() *Sim { return p.s }

// AddStations adds the scenario's stations, the first one join from now
// and each further one join after the previous one (after a restart, Next,
// those that had left for good stay away). With automatic channel
// selection, call it once the channel is chosen.
func (p *Play) AddStations() {
	phy := p.s.Core().Config().PHY
	at := p.s.Now()
	for _, line := range p.sc.Stations {
		for range line.Count {
			at += p.join
			st := p.s.AddStation(StationConfig{Start: at, HT: phy.HT, VHT: phy.VHT, Signal: line.Signal, Loss: line.Loss,
				PowerSave: line.PowerSave, Reconnect: line.Reconnect, UseAPKey: true, SSID: p.ssidOf(line.BSS, len(p.flowsOn))})
			if k := len(p.flowsOn); k < len(p.away) && p.away[k] {
				st.stayAway()
			}
			p.flowsOn = append(p.flowsOn, false)
		}
	}
}

// AddNeighbours adds six networks on the US plan to find by scanning: on
// channels 1, 6, 11, 36, 52 (passive) and 149.
func (p *Play) AddNeighbours() {
	for i, f := range []int{2412, 2437, 2462, 5180, 5260, 5745} {
		p.s.AddForeignBSS(ForeignBSSConfig{Freq: f, SSID: fmt.Sprintf("neighbour-%d", i+1), Passive: f == 5260})
	}
}

// RunUntil runs the simulation to t, then starts the flows of each station
// associated for the first time. The flows outlive a disconnection: a
// station that joins again picks them up. Before AddStations (while the
// start-up channel selection runs) there are none.
func (p *Play) RunUntil(t time.Duration) {
	p.s.RunUntil(t)
	k := 0
	for _, line := range p.sc.Stations {
		for range line.Count {
			if k == len(p.flowsOn) {
				return
			}
			st := p.s.stations[k]
			if !p.flowsOn[k] && st.Associated() {
				p.flowsOn[k] = true
				p.startFlows(st, line.Traffic)
			}
			k++
		}
	}
}

// ssidOf is the network station k of BSS bss looks for: its BSS's SSID,
// or the one it looked for before a restart whose radio lacks its BSS;
// "" for the first BSS's.
func (p *Play) ssidOf(bss string, k int) string {
	if bss == "" {
		return ""
	}
	if i := slices.IndexFunc(p.s.cfg.AP.BSSes, func(b ap.BSSConfig) bool { return b.Name == bss }); i >= 0 {
		return p.s.cfg.AP.BSSes[i].SSID
	}
	return p.ssids[k] // newPlay checked it is there
}

func (p *Play) startFlows(st *Station, flows []Flow) {
	for _, f := range flows {
		switch f.Kind {
		case FlowBulk:
			p.s.Bulk(p.host, st, BulkConfig{})
		case FlowUpload:
			p.s.Bulk(st, p.host, BulkConfig{})
		case FlowPing:
			p.s.Ping(st, p.host, time.Second, 56)
		case FlowUDP:
			p.s.UDP(p.host, st, UDPConfig{Size: udpSize, Interval: udpInterval(f.Mbit)})
		}
	}
}

// NextSummary returns when the next summary line is due.
func (p *Play) NextSummary() time.Duration { return p.next }

// AppendSummary appends the summary line of the time since the previous
// one (a second, when called at NextSummary), and moves NextSummary to the
// next whole second:
//
//	t=  5.0s sta=3 down VO=0.0 VI=0.0 BE=21.3 BK=0.0 up VO=0.0 VI=0.0 BE=0.5 BK=0.0 Mbit/s
//	  aql_pending=8431us rounds=2087/12 skipped=35 backlog=381 inflight=9 drops=0
//
// (one line): the virtual time; the stations associated; the data carried
// on the air, per direction and AC; the core's state now, with the figures
// of airqctl status (aql_pending_total_us, backlog_frames,
// inflight_frames); and since the previous line, the scheduler's rounds
// opened and closed, the rounds it skipped and the downlink MSDUs dropped.
func (p *Play) AppendSummary(b []byte) []byte {
	s := p.s
	cur := p.sample()
	secs := max((cur.at - p.prev.at).Seconds(), 1e-9) // twice at one instant: zeros
	n := 0
	for _, st := range s.stations {
		if st.Associated() {
			n++
		}
	}
	b = fmt.Appendf(b, "t=%5.1fs sta=%d", s.Now().Seconds(), n)
	for dir, name := range [2]string{"down", "up"} {
		b = append(b, " "+name...)
		for ac := range ieee80211.NumACs {
			mbps := float64(cur.bytes[dir][ac]-p.prev.bytes[dir][ac]) * 8 / 1e6 / secs
			b = fmt.Appendf(b, " %s=%.1f", ieee80211.AC(ac), mbps)
		}
	}
	st := s.Control(ctl.Request{Op: ctl.OpStatus}).Status
	b = fmt.Appendf(b, " Mbit/s aql_pending=%dus rounds=%d/%d skipped=%d backlog=%d inflight=%d drops=%d\n",
		st.AirtimePending, cur.opened-p.prev.opened, cur.closed-p.prev.closed, cur.skipped-p.prev.skipped,
		st.Counters[counter.Backlog], st.InFlightFrames, cur.drops-p.prev.drops)
	p.prev = cur
	p.next = s.Now().Truncate(time.Second) + time.Second
	return b
}

func (p *Play) sample() summarySample {
	core := p.s.Core()
	cnt := core.Counters()
	c := summarySample{at: p.s.Now(), bytes: p.s.stats.DataBytes, drops: cnt.Sum(counter.WiredTxFailed.Family())}
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		ss := core.SchedulerStats(ac)
		c.opened, c.closed, c.skipped = c.opened+ss.RoundsOpened, c.closed+ss.RoundsClosed, c.skipped+ss.Skipped
	}
	return c
}
