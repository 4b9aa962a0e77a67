package sim

import (
	"flag"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/readmetest"
	"github.com/airq/airq/scan"
)

var scanLong = flag.Bool("scan.long", false, "run the background scan study for 5 simulated minutes and print its RESULT line")

// Scan study arms.
const (
	armNone       = iota // (a) no scanning
	armOneTrip           // (b) mac80211's AP scan: the whole list in one trip
	armContinuous        // (c) airq, continuous sweeps (defaults)
	armPeriodic          // (d) airq, a sweep every 60 s
	armMissBeacon        // (e) as (c), one missed beacon allowed per radar visit (reported, not a goal)
)

var armNames = [...]string{"a none", "b one-trip", "c continuous", "d periodic", "e c+missbeacon"}

const (
	studyRetune    = 2 * time.Millisecond
	studyPeriod    = 60 * time.Second
	oneTripFirst   = 10 * time.Second // the one-trip arm's first scan; then every studyPeriod
	studyPingEvery = 200 * time.Millisecond
	studyUpEvery   = time.Second
)

// foreignPlan is where the foreign BSSs are: channel numbers, repeated for
// more than one BSS on a channel. Active channels first, then radar ones.
var (
	foreignActive  = []int{1, 1, 6, 6, 6, 11, 11, 40, 44, 149, 157, 157, 165}
	foreignPassive = []int{52, 60, 100, 116, 132, 140}
)

func chanFreq(ch int) int {
	if ch <= 14 {
		return 2407 + 5*ch
	}
	return 5000 + 5*ch
}

// scanStudyConfig is the core's scanning configuration of an arm.
func scanStudyConfig(arm int) *ap.ScanConfig {
	switch arm {
	case armContinuous:
		return &ap.ScanConfig{Planner: scan.Config{Channels: USChannels(), Retune: studyRetune}}
	case armMissBeacon:
		return &ap.ScanConfig{Planner: scan.Config{Channels: USChannels(), Retune: studyRetune, MissBeacon: true}}
	case armPeriodic:
		return &ap.ScanConfig{
			Planner: scan.Config{Channels: USChannels(), Retune: studyRetune, Mode: scan.Periodic, Period: studyPeriod},
			Table:   scan.TableConfig{MaxAge: 2 * studyPeriod},
		}
	}
	return nil
}

// scanBSS builds the study's BSS: the AP on channel 36, one station, a
// wired host, the foreign BSSs at phases drawn from the seed; it runs until
// the station is associated.
func scanBSS(t testing.TB, seed uint64, arm int) (*Sim, *Host, *Station) {
	t.Helper()
	s, err := New(Config{Seed: seed, AP: ap.Config{Channel: 36, WMM: true, Scan: scanStudyConfig(arm)},
		Medium: MediumConfig{RetuneTime: studyRetune}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range foreignActive {
		s.AddForeignBSS(ForeignBSSConfig{Freq: chanFreq(ch)})
	}
	for _, ch := range foreignPassive {
		s.AddForeignBSS(ForeignBSSConfig{Freq: chanFreq(ch)})
	}
	h := s.AddHost(HostConfig{})
	st := s.AddStation(StationConfig{})
	for s.Now() < 5*time.Second && !st.Associated() {
		s.Run(10 * time.Millisecond)
	}
	if !st.Associated() {
		t.Fatalf("station not associated after %v", s.Now())
	}
	return s, h, st
}

// armResult is what one arm measured.
type armResult struct {
	arm                   int
	sent, received        uint64
	upSent, upReceived    uint64 // the station's own sparse ping
	p50, avg, max         time.Duration
	tbtts, beacons        uint64 // TBTTs in the run; our beacons on the air
	beaconLate            time.Duration
	coreMissed            uint64 // beacons the core counted as missed
	trips                 uint64
	longestTrip, away     time.Duration
	plannerTrip           time.Duration // the planner's longest trip
	sweeps                int
	sweep, longestSweep   time.Duration // mean and longest sweep
	activePct, activeMin  float64       // foreign BSSs on active channels heard per sweep: mean, worst
	passivePct            float64       // the same for radar channels, mean
	uplinkLost, flushed   uint64
	held, stopped         uint64
	deauths, associations uint64
	results               int // entries of the core's scan table at the end
	hash                  uint64
}

func (r armResult) missed() uint64 { return r.tbtts - min(r.tbtts, r.beacons) }

// expectation is the analytic mean delay trips add to a ping arriving at a
// random moment: the chance of arriving during a trip (duty cycle) times
// the mean wait then (half a trip).
func (r armResult) expectation(run time.Duration) time.Duration {
	if r.trips == 0 {
		return 0
	}
	trip := r.away / time.Duration(r.trips)
	return time.Duration(float64(r.away) / float64(run) * float64(trip) / 2)
}

func runScanArm(t testing.TB, seed uint64, arm int, run time.Duration) armResult {
	t.Helper()
	s, h, st := scanBSS(t, seed, arm)
	start := s.Now()
	p := s.Ping(h, st, studyPingEvery, 56)
	p.KeepRTTs()
	end := start + run
	// A sparse ping the other way shows what happens to frames a station
	// sends while the AP is away.
	s.Run(studyPingEvery / 2)
	up := s.Ping(st, h, studyUpEvery, 56)
	if arm == armOneTrip {
		for at := start + oneTripFirst; at < end; at += studyPeriod {
			s.RunUntil(at)
			if !s.OneTripScan(USChannels()) {
				t.Fatalf("one-trip scan refused at %v", s.Now())
			}
		}
	}
	s.RunUntil(end)
	p.Stop()
	up.Stop()
	s.Run(5 * time.Second) // replies still on their way; a one-trip scan may be running

	r := armResult{arm: arm, hash: s.Hash()}
	ps := p.Stats()
	r.sent, r.received, r.max = ps.Sent, ps.Received, ps.RTTMax
	r.avg = ps.RTTAvg()
	r.upSent, r.upReceived = up.Stats().Sent, up.Stats().Received
	rtts := slices.Clone(p.RTTs())
	slices.Sort(rtts)
	if len(rtts) > 0 {
		r.p50 = rtts[len(rtts)/2]
	}
	bi := time.Duration(s.Core().Config().BeaconInterval) * 1024 * time.Microsecond
	r.tbtts = uint64((s.Now()-time.Millisecond)/bi) + 1
	ss := s.Stats()
	r.beacons, r.beaconLate = ss.Beacons, ss.BeaconLateMax
	r.trips, r.longestTrip, r.away = ss.Trips, ss.LongestTrip, ss.Away
	r.uplinkLost, r.flushed, r.held, r.stopped = ss.UplinkLostAway, ss.RetuneFlushed, ss.Held, ss.BeaconsStopped
	cs := s.Core().ScanStats()
	r.coreMissed = cs.MissedBeacons
	r.plannerTrip = cs.Planner.LongestTrip
	r.deauths, r.associations = st.Stats().DeauthsReceived, st.Stats().Associations
	r.results = len(s.Core().ScanResults(nil, s.Now()))

	nActive := len(foreignActive)
	var sum time.Duration
	r.activeMin = 100
	for _, sw := range s.Sweeps() {
		var a, pa int
		for i, b := range s.ForeignBSSs() {
			if !b.HeardBetween(sw.Start, sw.End) {
				continue
			}
			if i < nActive {
				a++
			} else {
				pa++
			}
		}
		ap := 100 * float64(a) / float64(nActive)
		r.activePct += ap
		r.activeMin = min(r.activeMin, ap)
		r.passivePct += 100 * float64(pa) / float64(len(foreignPassive))
		d := sw.End - sw.Start
		sum += d
		r.longestSweep = max(r.longestSweep, d)
		r.sweeps++
	}
	if r.sweeps > 0 {
		r.activePct /= float64(r.sweeps)
		r.passivePct /= float64(r.sweeps)
		r.sweep = sum / time.Duration(r.sweeps)
	} else {
		r.activeMin = 0
	}
	return r
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// TestScanStudy pings a station from the wired side every 200 ms while
// the AP scans the US channel plan (home: channel 36) with foreign BSSs on
// eleven channels, in four arms, and checks airq's continuous scanning
// against its goals: every trip within the planner's limit, no missed
// beacon, ping p50 unchanged, mean within the analytic expectation, max
// within one trip, a sweep in 10 s, the BSSs of active channels found in
// one sweep; mac80211's one-trip scan must show the damage.
func TestScanStudy(t *testing.T) {
	// make norace runs the study make bench-scan runs, whose figures the
	// README quotes (virtual time, under a second of CPU); the race pass a
	// shorter one.
	run := 60 * time.Second
	if *scanLong || !raceEnabled {
		run = 5 * time.Minute
	} else if testing.Short() {
		run = 30 * time.Second
	}
	const seed = 4
	var res [5]armResult
	for arm := range res {
		res[arm] = runScanArm(t, seed, arm, run)
	}
	pl, err := scan.New(scan.Config{Channels: USChannels(), Home: 5180, BeaconInterval: 100 * 1024 * time.Microsecond, Retune: studyRetune})
	if err != nil {
		t.Fatal(err)
	}
	limit := pl.Limit()

	t.Logf("run %v per arm, ping every %v, %d channels (%d passive), %d foreign BSSs on active channels, %d on radar channels, trip limit %v, retune %v",
		run, studyPingEvery, len(USChannels()), countPassive(USChannels()), len(foreignActive), len(foreignPassive), limit, studyRetune)
	t.Logf("%-14s %9s %7s %7s %8s %6s %7s %9s %8s %8s %9s %9s %7s %6s %8s %6s %6s",
		"arm", "sent/recv", "p50ms", "avgms", "maxms", "missed", "trips", "longestms", "sweep_s", "maxsw_s", "active%", "(worst)%", "radar%", "uplost", "up-ping", "flush", "held")
	for _, r := range res {
		t.Logf("%-14s %4d/%-4d %7.2f %7.2f %8.1f %6d %7d %9.1f %8.2f %8.2f %9.1f %9.1f %7.1f %6d %4d/%-3d %6d %6d",
			armNames[r.arm], r.sent, r.received, ms(r.p50), ms(r.avg), ms(r.max), r.missed(), r.trips, ms(r.longestTrip),
			r.sweep.Seconds(), r.longestSweep.Seconds(), r.activePct, r.activeMin, r.passivePct, r.uplinkLost,
			r.upReceived, r.upSent, r.flushed, r.held)
	}
	a, b, c, d, e := res[armNone], res[armOneTrip], res[armContinuous], res[armPeriodic], res[armMissBeacon]
	exp := c.expectation(run)
	t.Logf("(c) duty cycle %.1f%%, mean trip %.1f ms: expected added delay %.2f ms; (d) %.2f ms",
		100*float64(c.away)/float64(run), ms(c.away/time.Duration(max(c.trips, 1))), ms(exp), ms(d.expectation(run)))
	t.Logf("core: (c) missed %d, planner longest trip %v, %d BSSs in the table; (d) missed %d, %d BSSs; (b) beacons stopped %d",
		c.coreMissed, c.plannerTrip, c.results, d.coreMissed, d.results, b.stopped)
	t.Logf("(e) radar-channel BSSs found per sweep %.1f%% (c: %.1f%%) for %d missed beacons; %d BSSs in the table",
		e.passivePct, c.passivePct, e.coreMissed, e.results)
	t.Logf("latest beacon after its TBTT: (a) %v (b) %v (c) %v (d) %v; one-trip scans %d, %d frames held for the return",
		a.beaconLate, b.beaconLate, c.beaconLate, d.beaconLate, b.sweeps, b.held)
	avgExcess := c.avg - a.avg - exp
	t.Logf("RESULT max_trip_ms=%.1f missed_beacons=%d p50_delta_ms=%.2f avg_excess_ms=%.2f max_ping_ms=%.1f sweep_s=%.2f discovered_pct=%.1f onetrip_max_ping_ms=%.1f",
		ms(c.longestTrip), c.missed()+c.coreMissed, ms(c.p50-a.p50), ms(avgExcess), ms(c.max), c.longestSweep.Seconds(), c.activePct, ms(b.max))

	if run == 5*time.Minute { // make bench-scan's figures, which the README quotes
		readmetest.Check(t, `a longest trip of ([\d.]+) ms and .missed_beacons=(\d+).`,
			fmt.Sprintf("%.1f", ms(c.longestTrip)), fmt.Sprint(c.missed()+c.coreMissed))
		readmetest.Check(t, `takes ([\d.]+) s\s+\(the study's continuous arm: (\d+) trips in 5 minutes\)`,
			fmt.Sprintf("%.2f", c.longestSweep.Seconds()), fmt.Sprint(c.trips))
		readmetest.Check(t, `\((\d+) missed over\s+its five scans in 5 minutes\), a ping held for the whole trip \(([\d.]+) ms`,
			fmt.Sprint(b.missed()), fmt.Sprintf("%.1f", ms(b.max)))
		readmetest.Check(t, `\(the study's longest ping: ([\d.]+) ms\)`, fmt.Sprintf("%.1f", ms(c.max)))
	}
	for _, r := range []armResult{c, d} {
		name := armNames[r.arm]
		if r.longestTrip > limit || r.plannerTrip > limit {
			t.Errorf("%s: longest trip %v (planner %v), limit %v", name, r.longestTrip, r.plannerTrip, limit)
		}
		if r.missed() != 0 || r.coreMissed != 0 {
			t.Errorf("%s: %d beacons missing on the air, core counted %d missed", name, r.missed(), r.coreMissed)
		}
		if r.sweeps == 0 || r.longestSweep > 10*time.Second {
			t.Errorf("%s: %d sweeps, longest %v", name, r.sweeps, r.longestSweep)
		}
		if r.activePct < 95 {
			t.Errorf("%s: %.1f%% of the BSSs on active channels found per sweep, want 95%%", name, r.activePct)
		}
		if r.received != r.sent || r.deauths != 0 || r.associations != 1 {
			t.Errorf("%s: pings %d/%d, %d deauths, %d associations", name, r.received, r.sent, r.deauths, r.associations)
		}
		if r.flushed != 0 {
			t.Errorf("%s: %d frames of the core flushed at a retune", name, r.flushed)
		}
	}
	if d := c.p50 - a.p50; d > time.Millisecond || d < -time.Millisecond {
		t.Errorf("p50 %v, baseline %v", c.p50, a.p50)
	}
	if avgExcess > 2*time.Millisecond {
		t.Errorf("avg %v, baseline %v + expectation %v", c.avg, a.avg, exp)
	}
	if c.max > a.max+limit+5*time.Millisecond {
		t.Errorf("max %v, baseline max %v + trip limit %v", c.max, a.max, limit)
	}
	if a.trips != 0 || a.missed() != 0 {
		t.Errorf("baseline: %d trips, %d beacons missed", a.trips, a.missed())
	}
	// The one-trip scan must show the damage: beacons missed and a ping
	// held for the whole list.
	if b.missed() == 0 || b.max < time.Second || b.longestTrip < 2*time.Second {
		t.Errorf("one-trip: %d missed, max ping %v, trip %v", b.missed(), b.max, b.longestTrip)
	}
}

func countPassive(cs []scan.Channel) int {
	n := 0
	for _, c := range cs {
		if c.Passive {
			n++
		}
	}
	return n
}

// TestScanKeepsStation: a station associated to the AP stays associated
// throughout continuous scanning, with every ping answered, and the core's
// scan results hold the foreign BSSs.
func TestScanKeepsStation(t *testing.T) {
	s, h, st := scanBSS(t, 7, armContinuous)
	up := s.Ping(st, h, 100*time.Millisecond, 56)
	down := s.Ping(h, st, 100*time.Millisecond, 56)
	s.Run(25 * time.Second)
	up.Stop()
	down.Stop()
	s.Run(time.Second)
	if !st.Associated() || st.Stats().Associations != 1 || st.Stats().DeauthsReceived != 0 {
		t.Errorf("station: associated %v, %+v", st.Associated(), st.Stats())
	}
	// Pings from the wired side are all answered: requests wait in the
	// core while it is away. Requests the station sends while the AP is
	// away are lost once the station's retries run out (nothing tells the
	// station the AP is gone); each such loss is counted by the medium.
	if ps := down.Stats(); ps.Sent < 240 || ps.Received != ps.Sent {
		t.Errorf("ping from the wired side: %d sent, %d received", ps.Sent, ps.Received)
	}
	ups := up.Stats()
	if ups.Sent < 240 || ups.Sent-ups.Received > s.Stats().UplinkLostAway {
		t.Errorf("ping from the station: %d sent, %d received, %d uplink frames lost while away", ups.Sent, ups.Received, s.Stats().UplinkLostAway)
	}
	t.Logf("ping from the station: %d of %d answered (%.0f%% lost: sent while the AP was away)",
		ups.Received, ups.Sent, 100*float64(ups.Sent-ups.Received)/float64(ups.Sent))
	res := s.Core().ScanResults(nil, s.Now())
	found := map[[6]byte]int{}
	for _, b := range res {
		found[b.BSSID] = b.Freq
	}
	for i, b := range s.ForeignBSSs() {
		f, ok := found[b.Config().BSSID]
		switch {
		case ok && f != b.Config().Freq:
			t.Errorf("%s recorded on %d MHz, is on %d", b.Config().BSSID, f, b.Config().Freq)
		case !ok && i < len(foreignActive):
			t.Errorf("%s on %d MHz (active) not in the scan results", b.Config().BSSID, b.Config().Freq)
		case !ok:
			t.Logf("%s on %d MHz (radar) not in the scan results", b.Config().BSSID, b.Config().Freq)
		}
	}
	cs := s.Core().ScanStats()
	if cs.Planner.Sweeps < 2 || cs.MissedBeacons != 0 {
		t.Errorf("scan stats %+v", cs)
	}
	ss := s.Stats()
	t.Logf("%d results, %d sweeps, %d trips (longest %v), beacons on air %d, uplink lost away %d, flushed %d",
		len(res), cs.Planner.Sweeps, ss.Trips, ss.LongestTrip, ss.Beacons, ss.UplinkLostAway, ss.RetuneFlushed)
	if s.Stats().Unaccounted != 0 {
		t.Errorf("core unaccounted after %d calls", s.Stats().Unaccounted)
	}
}

// TestScanDeterministic: the same seed gives the same run with channels,
// retunes, foreign BSSs and a one-trip scan.
func TestScanDeterministic(t *testing.T) {
	for _, arm := range []int{armOneTrip, armContinuous} {
		a := runScanArm(t, 3, arm, 12*time.Second)
		b := runScanArm(t, 3, arm, 12*time.Second)
		if a.hash != b.hash {
			t.Errorf("%s: hash %x then %x", armNames[arm], a.hash, b.hash)
		}
		if a.trips == 0 {
			t.Errorf("%s: no trip", armNames[arm])
		}
	}
}

// TestScanUnderLoad runs continuous scanning under a saturating downlink
// transfer and a ping: the core's books stay balanced, trips keep their
// beacons, the station stays associated, and what the retunes cost is
// reported (frames flushed at the radio, records without status, echoes
// that came after the core gave up on them).
func TestScanUnderLoad(t *testing.T) {
	load := 15 * time.Second
	if raceEnabled { // make norace runs the 15 s
		load = 5 * time.Second
	}
	for _, arm := range []int{armNone, armContinuous} {
		s, h, st := scanBSS(t, 11, arm)
		bulk := s.Bulk(h, st, BulkConfig{})
		p := s.Ping(h, st, 100*time.Millisecond, 56)
		s.Run(load)
		bulk.Stop()
		p.Stop()
		s.Run(2 * time.Second)
		ss, cs, c := s.Stats(), s.Core().ScanStats(), s.Core().Counters()
		bs, ps := bulk.Stats(), p.Stats()
		t.Logf("%s: goodput %.1f Mbit/s, %d timeouts; ping %d/%d avg %v max %v; trips %d (longest %v, planner %v, forced %d, deferred %d); missed %d; flushed %d, sent while retuning %d; no status %d, unmatched echoes %d",
			armNames[arm], float64(bs.Delivered)*8/load.Seconds()/1e6, bs.Timeouts, ps.Received, ps.Sent, ps.RTTAvg(), ps.RTTMax,
			ss.Trips, ss.LongestTrip, cs.Planner.LongestTrip, cs.Planner.Forced, cs.Planner.Deferred, cs.MissedBeacons,
			ss.RetuneFlushed, ss.TxWhileRetuning, c[counter.NoStatus], c[counter.EchoUnmatched])
		// Downlink frames the radio still holds when a trip leaves are
		// flushed by the retune and lost (the core has given up their
		// records at Leave): a ping may be among them.
		if !st.Associated() || st.Stats().Associations != 1 || ps.Sent-ps.Received > ss.RetuneFlushed || bs.Delivered == 0 {
			t.Errorf("%s: associated %v (%d times), ping %d/%d, %d bytes delivered", armNames[arm], st.Associated(), st.Stats().Associations, ps.Received, ps.Sent, bs.Delivered)
		}
		if ss.Unaccounted != 0 || !s.Core().Accounted() {
			t.Errorf("%s: core unaccounted after %d calls", armNames[arm], ss.Unaccounted)
		}
		if arm == armContinuous && (ss.Trips == 0 || cs.MissedBeacons != 0 || ss.TxWhileRetuning != 0 || ss.CoreOffChannel != 0) {
			t.Errorf("%s: %d trips, %d missed beacons, %d frames while retuning, %d off channel", armNames[arm], ss.Trips, cs.MissedBeacons, ss.TxWhileRetuning, ss.CoreOffChannel)
		}
	}
}
