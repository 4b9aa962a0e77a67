package ap

import (
	"time"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/scan"
)

// ScanConfig turns on background scanning: trips off the operating channel
// that fit between two of our beacons (package scan plans them; the core
// executes them).
type ScanConfig struct {
	// Planner is the trip policy. Home and BeaconInterval are filled in by
	// the core; Channels lists what to scan.
	Planner scan.Config
	Table   scan.TableConfig
	// SSIDs are probed for besides the wildcard.
	SSIDs []string
}

type scanStage uint8

const (
	scanIdle     scanStage = iota
	scanDraining           // a trip is due: no new rounds, echoes come home
	scanAway               // off channel (or retuning)
)

// scanner executes the trips the planner hands out.
type scanner struct {
	planner *scan.Planner
	table   *scan.Table
	ssids   []string

	stage   scanStage
	trip    scan.Trip
	drain   time.Duration // rounds stop this long before a trip leaves
	visit   int           // current visit; trip.N means on the way home
	tuned   bool          // the radio reported it is on the requested channel
	probed  bool          // the current visit's probes went out
	leftAt  time.Duration
	askedAt time.Duration // the pending retune was requested at
}

// ScanStats are the core's side of scanning; the planner's are in Planner.
type ScanStats struct {
	Planner       scan.Stats
	Retunes       uint64
	RetuneMax     time.Duration // longest request-to-tuned time seen
	Away          time.Duration // total time off the operating channel
	RxWhileAway   uint64        // frames heard off channel that were not beacons or probe responses
	RetuneTooSlow uint64        // retunes so slow that the planner could not take them
	ProbesSent    uint64
	MissedBeacons uint64
}

func newScanner(c Config) (*scanner, error) {
	pc := c.Scan.Planner
	pc.Home = c.Freq
	pc.BeaconInterval = time.Duration(c.BeaconInterval) * 1024 * time.Microsecond
	if pc.Drain == 0 {
		// What the radio holds when rounds stop is bounded by AQL: the
		// highest per-station limit. Waiting that long before leaving lets
		// those frames go out and echo instead of being flushed by the
		// retune; the air is busy with them meanwhile, not idle.
		var high uint32
		for _, h := range c.AQL.High {
			high = max(high, h)
		}
		pc.Drain = min(time.Duration(high)*time.Microsecond, maxDrain)
	}
	p, err := scan.New(pc)
	if err != nil {
		return nil, err
	}
	tc := c.Scan.Table
	if tc.Freqs == nil {
		for _, ch := range pc.Channels {
			tc.Freqs = append(tc.Freqs, ch.Freq)
		}
		tc.Freqs = append(tc.Freqs, c.Freq)
	}
	table := scan.NewTable(tc)
	table.SetInUse(c.Freq) // the survey marks the operating channel
	return &scanner{planner: p, table: table, ssids: c.Scan.SSIDs, drain: p.Config().Drain}, nil
}

// maxDrain bounds the wait before a trip: a longer one leaves too little of
// a beacon interval for the trip itself.
const maxDrain = 20 * time.Millisecond

// Retuned tells the core the radio is on the channel Flush asked the
// driver for (Driver.Retune). No frame is emitted while a retune is
// pending.
func (a *AP) Retuned(now time.Duration) {
	a.out.retuneAsked = false
	if a.acs.active() && a.retuneTo != 0 {
		a.acsRetuned(now)
		return
	}
	sc := a.scan
	if a.retuneTo == 0 || sc == nil {
		return
	}
	d := now - sc.askedAt
	a.scanStats.Retunes++
	if d > a.scanStats.RetuneMax {
		a.scanStats.RetuneMax = d
		// Trips are planned around the retune time the radio really takes.
		if err := sc.planner.SetRetune(d); err != nil {
			a.scanStats.RetuneTooSlow++
		}
	}
	if a.retuneTo == a.cfg.Freq {
		a.retuneTo, a.onFreq = 0, a.cfg.Freq
		a.scanStats.Away += now - sc.leftAt
		sc.stage = scanIdle
		a.sched.Thaw(now)
		a.txLoop(now)
		return
	}
	a.onFreq, a.retuneTo = a.retuneTo, 0
	sc.tuned, sc.probed = true, false
	a.scanTick(now)
}

// atHome reports whether the radio is on the operating channel and serves
// it: not on its way elsewhere, and not listening before the start (the
// 20/40 MHz check visits the operating channel too).
func (a *AP) atHome() bool {
	return a.onFreq == a.cfg.Freq && a.retuneTo == 0 && !a.acs.active()
}

// OperatingFreq is the BSS's channel; OnFreq where the radio is now.
func (a *AP) OnFreq() int { return a.onFreq }

// scanning reports whether rounds are stopped for a trip: while it is away,
// and before it leaves once the radio holds all it can send in time.
func (a *AP) scanning(now time.Duration) bool {
	sc := a.scan
	return sc != nil && sc.stage != scanIdle && (sc.stage == scanAway || !a.fitsBeforeLeave(now))
}

// fitsBeforeLeave says whether the radio can take more before a trip: what
// it already holds (AQL pending airtime, with a margin for contention the
// estimate leaves out) must be done and echoed before the trip leaves, or
// the retune would flush it.
func (a *AP) fitsBeforeLeave(now time.Duration) bool {
	sc := a.scan
	if sc == nil || sc.stage != scanDraining {
		return true
	}
	pending := time.Duration(a.air.Total()) * time.Microsecond
	return now+pending*3/2+drainMargin < sc.trip.Leave
}

// drainMargin is left between the last frame's expected end and departure.
const drainMargin = time.Millisecond

// afterBeacon asks the planner for a trip once our beacon went out.
func (a *AP) afterBeacon(now time.Duration) {
	sc := a.scan
	if sc == nil || sc.stage != scanIdle {
		return
	}
	busy := a.backlog >= busyBacklog
	if trip, ok := sc.planner.Next(now, a.nextBeacon, busy); ok {
		sc.trip, sc.stage, sc.visit = trip, scanDraining, 0
	}
}

// busyBacklog is the queued load that asks the planner to postpone a trip
// (it does so only within its deferral bound).
const busyBacklog = 64

// scanTick moves a trip on: leave when draining is over, probe, go to the
// next channel at the end of a visit, come home.
func (a *AP) scanTick(now time.Duration) {
	sc := a.scan
	if sc == nil || a.retuneTo != 0 {
		return
	}
	switch sc.stage {
	case scanDraining:
		if now < sc.trip.Leave {
			return
		}
		// Frames the radio still holds may be flushed by the retune and
		// never echo: their records take the no-status path now, and the
		// queues' CoDel clock stops while no frame can leave.
		for ac := range a.flights {
			for a.flights[ac].size > 0 {
				if !a.flights[ac].at(0).done {
					a.cnt[counter.NoStatus]++
				}
				a.completeOldest(ieee80211.AC(ac), nil, now)
			}
		}
		a.sched.Freeze(now)
		sc.stage, sc.leftAt, sc.visit = scanAway, now, 0
		a.requestRetune(now, sc.trip.Visits[0].Freq)
	case scanAway:
		if sc.visit >= sc.trip.N {
			return
		}
		v := sc.trip.Visits[sc.visit]
		if v.Probe && !sc.probed && now >= v.ProbeAt {
			sc.probed = true
			a.sendProbes(now, a.scan.ssids)
		}
		if now >= v.End() {
			sc.table.Dwelt(v.Freq, v.Dwell)
			sc.visit++
			next := a.cfg.Freq
			if sc.visit < sc.trip.N {
				next = sc.trip.Visits[sc.visit].Freq
			}
			a.requestRetune(now, next)
		}
	}
}

func (a *AP) requestRetune(now time.Duration, freq int) {
	a.retuneTo = freq
	a.scan.askedAt = now
	a.scan.tuned = false
}

// scanDeadline is when scanTick next has something to do.
func (a *AP) scanDeadline() (time.Duration, bool) {
	sc := a.scan
	if sc == nil || a.retuneTo != 0 {
		return 0, false
	}
	switch sc.stage {
	case scanDraining:
		return sc.trip.Leave, true
	case scanAway:
		if sc.visit >= sc.trip.N {
			return 0, false
		}
		v := sc.trip.Visits[sc.visit]
		if v.Probe && !sc.probed {
			return v.ProbeAt, true
		}
		return v.End(), true
	}
	return 0, false
}

// sendProbes sends a wildcard probe request and one per SSID of ssids,
// for the start-up channel selection and the background scan alike.
func (a *AP) sendProbes(now time.Duration, ssids []string) {
	for i := -1; i < len(ssids); i++ {
		ssid := ""
		if i >= 0 {
			ssid = ssids[i]
		}
		h, b, rt, ok := a.startMgmtTo(ieee80211.SubtypeProbeReq, ieee80211.Broadcast, ieee80211.Broadcast)
		if !ok {
			return
		}
		b = ieee80211.AppendSSID(b, ssid)
		b = ieee80211.AppendRates(b, a.bss.Rates.IE) // the radio's rates; no BSS membership selector in a request
		a.scanStats.ProbesSent++
		a.finish(now, a.bss, h, b, rt, 0)
	}
}

// heardBSS records a beacon or probe response from another BSS, on any
// channel.
func (a *AP) heardBSS(now time.Duration, fr ieee80211.Frame) {
	if a.acs.active() {
		a.acsHeard(now, fr)
		return
	}
	if a.scan == nil || a.bssOf(fr.Addr3()) != nil {
		return
	}
	ri := a.rx
	if ri.Freq == 0 {
		ri.Freq = uint16(a.onFreq)
	}
	a.scan.table.Update(now, fr, &ri)
}

// ScanResults appends the BSSes heard within the table's age to dst.
func (a *AP) ScanResults(dst []scan.BSS, now time.Duration) []scan.BSS {
	if a.scan == nil {
		return dst
	}
	return a.scan.table.All(dst, now)
}

// Surveys appends the per-channel survey to dst: the scanned channels and
// the operating one, or without scanning the operating one alone (with
// the start-up selection's candidates, if it ran).
func (a *AP) Surveys(dst []scan.Survey, now time.Duration) []scan.Survey {
	if t := a.surveyTable(); t != nil {
		return t.Surveys(dst, now)
	}
	return dst
}

// ScanStats returns the scanning statistics.
func (a *AP) ScanStats() ScanStats {
	s := a.scanStats
	if a.scan != nil {
		s.Planner = a.scan.planner.Stats()
	}
	return s
}
