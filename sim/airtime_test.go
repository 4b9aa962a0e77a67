package sim

import (
	"fmt"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/readmetest"
	"github.com/airq/airq/txq/policy"
)

// airtimeStas are the first two stations' addresses, the simulator's own.
var airtimeStas = []ieee80211.MAC{{0x02, 0, 0, 0, 0x10, 1}, {0x02, 0, 0, 0, 0x10, 2}}

// busyBSS is one BSS with airtime c and n stations, each sent more UDP
// than the air carries.
func busyBSS(t *testing.T, c ap.Config, n int) *Sim {
	t.Helper()
	s, err := New(Config{Seed: 7, AP: c})
	if err != nil {
		t.Fatal(err)
	}
	h := s.AddHost(HostConfig{})
	for i := range n {
		s.AddStation(StationConfig{Addr: airtimeStas[i], Start: time.Duration(i) * time.Millisecond})
	}
	for s.Now() < 2*time.Second && associated(s) < n {
		s.Run(10 * time.Millisecond)
	}
	if associated(s) < n {
		t.Fatalf("%d of %d stations associated", associated(s), n)
	}
	for _, st := range s.Stations() {
		s.UDP(h, st, UDPConfig{Size: 1400, Interval: 100 * time.Microsecond}) // 112 Mbit/s offered each
	}
	s.Run(500 * time.Millisecond) // queues fill
	return s
}

// airtimeOver runs d and returns each station's TX airtime and bytes over it.
func airtimeOver(s *Sim, d time.Duration) (air, bytes []float64) {
	before := s.Control(ctl.Request{Op: ctl.OpStationDump}).Stations
	s.Run(d)
	after := s.Control(ctl.Request{Op: ctl.OpStationDump}).Stations
	for i := range after {
		air = append(air, float64(after[i].TxAirtime-before[i].TxAirtime)) // µs
		bytes = append(bytes, float64(after[i].TxBytes-before[i].TxBytes))
	}
	return air, bytes
}

// airtime_mode=1 with two busy stations of airtime_sta_weight 1:3: their
// shares of the air follow the weights.
//
// With at most 32 frames in flight per AC. At the default 64 (16 ms of
// air at this rate, under the AQL threshold), each station may have its
// AQL high limit (12 ms) in flight, so the heavier one is held at it and
// the lighter one fills the rest of the radio's queue: 0.40/0.60 here,
// for weights set by airqctl as for the policy's, as with mac80211 over a
// deep hardware queue. The weights decide only while the radio's queue is
// what AQL keeps short.
func TestAirtimeStaticShares(t *testing.T) {
	s := busyBSS(t, ap.Config{InFlightPerAC: 32, Airtime: ap.Airtime{Mode: policy.Static, BSS: []ap.BSSAirtime{{StaWeights: map[ieee80211.MAC]uint16{
		airtimeStas[0]: 200, airtimeStas[1]: 600,
	}}}}}, 2)
	air, _ := airtimeOver(s, 5*time.Second)
	if len(air) != 2 {
		t.Fatalf("%d stations", len(air))
	}
	share := air[0] / (air[0] + air[1])
	t.Logf("airtime %.0f ms and %.0f ms: shares %.3f and %.3f", air[0]/1e3, air[1]/1e3, share, 1-share)
	readmetest.Check(t, `1:3 get\s+([\d.]+) and ([\d.]+) of the air`, fmt.Sprintf("%.3f", share), fmt.Sprintf("%.3f", 1-share))
	if share < 0.20 || share > 0.30 {
		t.Errorf("the weight-1 station's share is %.3f, want 0.25 ± 0.05", share)
	}
	if s.Stats().Unaccounted != 0 {
		t.Error("core unaccounted")
	}
	// The default radio queue, as the comment above says.
	deep := busyBSS(t, ap.Config{Airtime: ap.Airtime{Mode: policy.Static, BSS: []ap.BSSAirtime{{StaWeights: map[ieee80211.MAC]uint16{
		airtimeStas[0]: 200, airtimeStas[1]: 600,
	}}}}}, 2)
	air, _ = airtimeOver(deep, 5*time.Second)
	share = air[0] / (air[0] + air[1])
	t.Logf("64 frames in flight per AC: shares %.3f and %.3f", share, 1-share)
	readmetest.Check(t, `weights give ([\d.]+)/([\d.]+)`, fmt.Sprintf("%.2f", share), fmt.Sprintf("%.2f", 1-share))
}

// airtime_bss_cap=30 with one busy station and the air otherwise free: the
// BSS uses at most 30 % of the time, and the station's throughput follows;
// the cap removed live (airqctl airtime set airtime_bss_cap 100), it is
// back to full.
//
// The tolerance, 1 % of the 5 s window (50 ms): the bucket's burst
// (txq.DefaultCapBurst, 20 ms) may be spent on top of the share, and the
// cap is charged at completion, so what AQL lets the station have in
// flight when the bucket runs dry (at most its 12 ms BE limit) comes on
// top of that.
func TestAirtimeCap(t *testing.T) {
	const window = 5 * time.Second
	s := busyBSS(t, ap.Config{Airtime: ap.Airtime{BSS: []ap.BSSAirtime{{CapPercent: 30}}}}, 1)
	air, capped := airtimeOver(s, window)
	used := air[0] / float64(window.Microseconds())
	if r := s.Control(ctl.Request{Op: ctl.OpAirtimeSet, Key: "airtime_bss_cap", Value: 100}); r.Err() != nil {
		t.Fatal(r.Err())
	}
	s.Run(200 * time.Millisecond)
	freeAir, free := airtimeOver(s, window)
	ratio := capped[0] / free[0]
	t.Logf("capped: %.1f %% of the air, %.1f Mbit/s; uncapped: %.1f %% of the air, %.1f Mbit/s: %.3f of it",
		100*used, capped[0]*8/window.Seconds()/1e6, 100*freeAir[0]/float64(window.Microseconds()), free[0]*8/window.Seconds()/1e6, ratio)
	readmetest.Check(t, `holds one busy station to ([\d.]+) % of\s+free air, ([\d.]+) of the ([\d.]+) Mbit/s`,
		fmt.Sprintf("%.1f", 100*used), fmt.Sprintf("%.1f", capped[0]*8/window.Seconds()/1e6), fmt.Sprintf("%.1f", free[0]*8/window.Seconds()/1e6))
	if used > 0.31 || used < 0.27 {
		t.Errorf("the capped BSS used %.1f %% of the air, want 30 %% (at most 31 %%)", 100*used)
	}
	if freeAir[0] < 2*air[0] {
		t.Errorf("the cap removed, the BSS used %.0f ms of air against %.0f ms capped: not back to full", freeAir[0]/1e3, air[0]/1e3)
	}
	// Throughput follows the airtime: the capped share of what the free
	// air carried, within the same tolerance.
	if want := used / (freeAir[0] / float64(window.Microseconds())); ratio < want-0.03 || ratio > want+0.03 {
		t.Errorf("capped throughput is %.3f of the uncapped, want its airtime's %.3f", ratio, want)
	}
	if s.Stats().Unaccounted != 0 {
		t.Error("core unaccounted")
	}
}
