package sim

import (
	"fmt"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/readmetest"
	"github.com/airq/airq/scan"
)

// What background scanning costs a station, per mode, with retune jitter:
// the goodput of a bulk download, and the round trips and losses of pings
// each way, each against the same run without scanning (make bench-scan).

const (
	costRetune = 2 * time.Millisecond
	costJitter = time.Millisecond // each retune takes 2-3 ms
	costWarmup = 2 * time.Second  // slow start, rate selection
)

var costModes = [...]string{"none", "continuous", "periodic"}

// costScan is the scan configuration of a mode: the planner plans with the
// longest retune the radio may take.
func costScan(mode int) *ap.ScanConfig {
	if mode == 0 {
		return nil
	}
	c := &ap.ScanConfig{Planner: scan.Config{Channels: USChannels(), Retune: costRetune + costJitter}}
	if mode == 2 {
		c.Planner.Mode, c.Planner.Period = scan.Periodic, studyPeriod
		c.Table = scan.TableConfig{MaxAge: 2 * studyPeriod}
	}
	return c
}

// costBSS is the AP on channel 36 with the study's neighbours, one station
// (associated on return) and a wired host.
func costBSS(t *testing.T, mode int) (*Sim, *Host, *Station) {
	t.Helper()
	s, err := New(Config{Seed: 5, AP: ap.Config{Channel: 36, WMM: true, Scan: costScan(mode)},
		Medium: MediumConfig{RetuneTime: costRetune, RetuneJitter: costJitter}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range append(append([]int{}, foreignActive...), foreignPassive...) {
		s.AddForeignBSS(ForeignBSSConfig{Freq: chanFreq(ch)})
	}
	h := s.AddHost(HostConfig{})
	st := s.AddStation(StationConfig{})
	for s.Now() < 5*time.Second && !st.Associated() {
		s.Run(10 * time.Millisecond)
	}
	if !st.Associated() {
		t.Fatalf("%s: station not associated", costModes[mode])
	}
	return s, h, st
}

// costResult is what one mode measured.
type costResult struct {
	mbit               float64
	down, up           PingStats
	missed, coreMissed uint64
	duty               float64 // share of the ping run away from home
	retuneMax, longest time.Duration
	limit              time.Duration
	deauths            uint64
}

func lostPct(p PingStats) float64 {
	if p.Sent == 0 {
		return 0
	}
	return 100 * float64(p.Sent-p.Received) / float64(p.Sent)
}

func runCost(t *testing.T, mode int, run time.Duration) costResult {
	var r costResult
	// Throughput: a bulk download alone, after its warm-up.
	s, h, st := costBSS(t, mode)
	b := s.Bulk(h, st, BulkConfig{})
	s.Run(costWarmup)
	from := b.Stats().Delivered
	s.Run(run)
	r.mbit = float64(b.Stats().Delivered-from) * 8 / run.Seconds() / 1e6
	r.deauths = st.Stats().DeauthsReceived
	r.missed, r.coreMissed = missedOnAir(s), s.Core().ScanStats().MissedBeacons
	// Pings alone, each way, 200 ms apart, interleaved.
	s, h, st = costBSS(t, mode)
	start, away := s.Now(), s.Stats().Away
	down := s.Ping(h, st, studyPingEvery, 56)
	s.Run(studyPingEvery / 2)
	up := s.Ping(st, h, studyPingEvery, 56)
	s.Run(run)
	down.Stop()
	up.Stop()
	r.duty = float64(s.Stats().Away-away) / float64(s.Now()-start)
	s.Run(2 * time.Second) // replies on their way
	r.down, r.up = down.Stats(), up.Stats()
	cs := s.Core().ScanStats()
	r.missed += missedOnAir(s)
	r.coreMissed += cs.MissedBeacons
	r.retuneMax, r.longest, r.limit = cs.RetuneMax, s.Stats().LongestTrip, cs.Planner.LongestTrip
	r.deauths += st.Stats().DeauthsReceived
	return r
}

// missedOnAir counts the TBTTs so far without a beacon on the air.
func missedOnAir(s *Sim) uint64 {
	bi := time.Duration(s.Core().Config().BeaconInterval) * 1024 * time.Microsecond
	tbtts := uint64((s.Now()-time.Millisecond)/bi) + 1
	return tbtts - min(tbtts, s.Stats().Beacons)
}

// TestScanCost measures scanning's cost per mode (make bench-scan prints
// its RESULT lines): no beacon may be missed with retunes that vary by
// 1 ms, the planner must plan with the longest, and scanning must cost
// something that periodic sweeps reduce.
func TestScanCost(t *testing.T) {
	run := 30 * time.Second
	switch {
	case *scanLong:
		run = 5 * time.Minute
	case raceEnabled: // a third of the load, the same checks; make norace runs 30 s
		run = 10 * time.Second
	}
	pl, err := scan.New(scan.Config{Channels: USChannels(), Home: 5180, BeaconInterval: 100 * 1024 * time.Microsecond, Retune: costRetune + costJitter})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("run %v per measurement; retune %v + up to %v of jitter, planned at %v: trip limit %v; periodic: a sweep every %v",
		run, costRetune, costJitter, costRetune+costJitter, pl.Limit(), studyPeriod)
	var res [len(costModes)]costResult
	for mode := range costModes {
		res[mode] = runCost(t, mode, run)
	}
	base := res[0]
	for mode, r := range res {
		cost := 100 * (1 - r.mbit/base.mbit)
		t.Logf("RESULT mode=%s tput_mbit=%.1f tput_cost_pct=%.1f down_ping_avg_ms=%.2f down_ping_max_ms=%.1f down_ping_lost_pct=%.1f "+
			"up_ping_avg_ms=%.2f up_ping_lost_pct=%.1f away_pct=%.1f retune_max_ms=%.2f missed_beacons=%d",
			costModes[mode], r.mbit, cost, ms(r.down.RTTAvg()), ms(r.down.RTTMax), lostPct(r.down), ms(r.up.RTTAvg()), lostPct(r.up),
			100*r.duty, ms(r.retuneMax), r.missed+r.coreMissed)
		if *scanLong { // the README's table is make bench-scan's
			readmetest.Check(t, `(?m)^\| `+costModes[mode]+` \| ([\d.]+) Mbit/s \| ([\d.]*)(?: %)? ?\| ([\d.]+) ms \(([\d.]+)\) \| ([\d.]+) % \| ([\d.]+) % \| (\d+) \|$`,
				fmt.Sprintf("%.1f", r.mbit), costCell(mode, cost), fmt.Sprintf("%.2f", ms(r.down.RTTAvg())), fmt.Sprintf("%.1f", ms(r.down.RTTMax)),
				fmt.Sprintf("%.1f", lostPct(r.up)), fmt.Sprintf("%.1f", 100*r.duty), fmt.Sprint(r.missed+r.coreMissed))
		}
		if r.missed != 0 || r.coreMissed != 0 || r.deauths != 0 {
			t.Errorf("%s: %d beacons missing on the air, %d counted by the core, %d deauthentications", costModes[mode], r.missed, r.coreMissed, r.deauths)
		}
		if mode == 0 {
			continue
		}
		if r.retuneMax <= costRetune || r.longest > pl.Limit() || r.limit > pl.Limit() {
			t.Errorf("%s: longest retune %v (no jitter seen?), longest trip %v (planner %v), limit %v", costModes[mode], r.retuneMax, r.longest, r.limit, pl.Limit())
		}
		if r.down.Received != r.down.Sent {
			t.Errorf("%s: pings to the station %d/%d: the core holds them while away", costModes[mode], r.down.Received, r.down.Sent)
		}
	}
	c, p := res[1], res[2]
	if !(c.mbit < p.mbit && p.mbit <= base.mbit*1.02) || !(c.down.RTTAvg() > p.down.RTTAvg() && p.down.RTTAvg() >= base.down.RTTAvg()) {
		t.Errorf("continuous %.1f Mbit/s, %v; periodic %.1f, %v; none %.1f, %v: want the cost to fall from continuous to periodic to none",
			c.mbit, c.down.RTTAvg(), p.mbit, p.down.RTTAvg(), base.mbit, base.down.RTTAvg())
	}
}

// costCell is the README table's cost column: empty for the mode without
// scanning.
func costCell(mode int, cost float64) string {
	if mode == 0 {
		return ""
	}
	return fmt.Sprintf("%.1f", cost)
}
