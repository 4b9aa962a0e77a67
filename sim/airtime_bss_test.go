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

// mainGuest are the BSSIDs of busyBSSes' "main" and "guest".
var mainGuest = [2]ieee80211.MAC{{0x02, 0, 0, 0, 0x01, 0}, {0x02, 0, 0, 0, 0x01, 1}}

// busyBSSes is a radio at the default settings with two open BSSes, "main"
// and "guest", airtime c, and n[i] stations in BSS i, joined by SSID; the
// stations of BSS i are each sent more UDP than the air carries if busy[i].
func busyBSSes(t *testing.T, c ap.Airtime, n [2]int, busy [2]bool) *Sim {
	t.Helper()
	s, err := New(Config{Seed: 7, AP: ap.Config{SSID: "main", BSSID: mainGuest[0], Airtime: c,
		BSSes: []ap.BSSConfig{{SSID: "guest", BSSID: mainGuest[1]}}}})
	if err != nil {
		t.Fatal(err)
	}
	hosts := [2]*Host{s.AddHost(HostConfig{}), s.AddHost(HostConfig{BSS: 1})} // each BSS's wired side
	k := 0
	for i, ssid := range []string{"main", "guest"} {
		for range n[i] {
			s.AddStation(StationConfig{SSID: ssid, Start: time.Duration(k) * time.Millisecond})
			k++
		}
	}
	for s.Now() < 2*time.Second && associated(s) < k {
		s.Run(10 * time.Millisecond)
	}
	if associated(s) < k {
		t.Fatalf("%d of %d stations associated", associated(s), k)
	}
	for _, st := range s.Stations() {
		if busy[bssIndex(st)] {
			s.UDP(hosts[bssIndex(st)], st, UDPConfig{Size: 1400, Interval: 100 * time.Microsecond}) // 112 Mbit/s offered each
		}
	}
	s.Run(500 * time.Millisecond) // queues fill
	return s
}

// bssIndex is the BSS a station of twoBSSes joined.
func bssIndex(st *Station) int {
	if st.bssid == mainGuest[1] {
		return 1
	}
	return 0
}

// airShares runs d and returns each station's share of the airtime the
// stations used (in s.Stations() order), each BSS's share of it, and each
// BSS's airtime over d as a share of d.
func airShares(t *testing.T, s *Sim, d time.Duration) (sta []float64, bssShare, bssAir [2]float64) {
	t.Helper()
	air, _ := airtimeOver(s, d)
	if u := s.Stats().Unaccounted; u != 0 {
		t.Errorf("%d times the core's books did not balance (ap.Accounted)", u)
	}
	dump := s.Control(ctl.Request{Op: ctl.OpStationDump}).Stations
	of := map[ieee80211.MAC]float64{}
	var sum float64
	for i, a := range air {
		of[ieee80211.MAC(dump[i].Addr)] = a
		sum += a
	}
	for _, st := range s.Stations() {
		a := of[st.Addr()]
		sta = append(sta, a/sum)
		bssShare[bssIndex(st)] += a / sum
		bssAir[bssIndex(st)] += a / float64(d.Microseconds())
	}
	return sta, bssShare, bssAir
}

// equalBSSes is airtime_bss_weight 256 for both BSSes, limit on main's if
// limitMain.
func equalBSSes(m policy.Mode, limitMain bool) ap.Airtime {
	return ap.Airtime{Mode: m, BSS: []ap.BSSAirtime{{Weight: 256, Limit: limitMain}, {Weight: 256}}}
}

// airtime_mode=1, two busy BSSes of 3 and 1 stations, equal weights: each
// station weighs its BSS's weight, so each gets a quarter of the air and
// the BSSes 0.75/0.25, at the default 64 frames in flight per AC. Then the
// guest station's airtime_sta_weight set to 768 live (airqctl airtime set
// bss guest airtime_sta_weight MAC 768): it weighs the three others
// together and gets half the air, each of them a sixth.
func TestAirtimeBSSStatic(t *testing.T) {
	s := busyBSSes(t, equalBSSes(policy.Static, false), [2]int{3, 1}, [2]bool{true, true})
	sta, b, _ := airShares(t, s, 5*time.Second)
	t.Logf("equal weights: stations %.3f, BSSes %.3f", sta, b)
	for i, x := range sta {
		if x < 0.24 || x > 0.26 {
			t.Errorf("station %d got %.3f of the air, want 0.25 ± 0.01", i, x)
		}
	}
	guest := s.Stations()[3]
	if r := s.Control(ctl.Request{Op: ctl.OpAirtimeSet, BSS: "1", Key: "airtime_sta_weight", Addr: guest.Addr(), Value: 768}); r.Err() != nil {
		t.Fatal(r.Err())
	}
	s.Run(500 * time.Millisecond)
	sta, b, _ = airShares(t, s, 5*time.Second)
	t.Logf("the guest station at 768: stations %.3f, BSSes %.3f", sta, b)
	readmetest.Check(t, `768 live, ([\d.]+) to it`, fmt.Sprintf("%.3f", sta[3]))
	for i, want := range []float64{1.0 / 6, 1.0 / 6, 1.0 / 6, 0.5} {
		if x := sta[i]; x < want*0.9 || x > want*1.1 {
			t.Errorf("station %d got %.3f of the air, want %.3f within 10 %%", i, x, want)
		}
	}
}

// airtime_mode=2, the same load, airtime_bss_weight 1:1: the lone guest
// station weighs three main stations, and the BSSes share the air within
// 5 % of 0.5/0.5 at the default 64 frames in flight per AC. Without the
// scheduler's per-BSS in-flight share (txq's GroupShares) AQL held the
// guest station at its limit while main's three filled the radio's queue:
// 0.65/0.35.
func TestAirtimeBSSDynamic(t *testing.T) {
	s := busyBSSes(t, equalBSSes(policy.Dynamic, false), [2]int{3, 1}, [2]bool{true, true})
	sta, b, _ := airShares(t, s, 5*time.Second)
	t.Logf("stations %.3f, BSSes %.3f", sta, b)
	readmetest.Check(t, `weights 1:1 gives the BSSes ([\d.]+)/([\d.]+) of the air`, fmt.Sprintf("%.3f", b[0]), fmt.Sprintf("%.3f", b[1]))
	for i, x := range b {
		if x < 0.475 || x > 0.525 {
			t.Errorf("BSS %d got %.3f of the air, want 0.5 within 5 %%", i, x)
		}
	}
}

// airtime_mode=3, the same load, main (3 stations) with airtime_bss_limit=1
// and weights 1:1: main would exceed its half, so it is held to it. With
// the limit on the guest instead, which holds fewer stations, nobody would
// exceed a share and the stations keep the default weights: main 0.75.
func TestAirtimeBSSLimit(t *testing.T) {
	s := busyBSSes(t, equalBSSes(policy.Limit, true), [2]int{3, 1}, [2]bool{true, true})
	_, b, _ := airShares(t, s, 5*time.Second)
	loose := busyBSSes(t, ap.Airtime{Mode: policy.Limit, BSS: []ap.BSSAirtime{{Weight: 256}, {Weight: 256, Limit: true}}}, [2]int{3, 1}, [2]bool{true, true})
	_, free, _ := airShares(t, loose, 5*time.Second)
	t.Logf("main limited: BSSes %.3f; guest limited: %.3f", b, free)
	readmetest.Check(t, `holds the limited 3-station BSS to ([\d.]+)`, fmt.Sprintf("%.3f", b[0]))
	if b[0] > 0.525 || b[0] < 0.475 {
		t.Errorf("the limited BSS got %.3f of the air, want its share 0.5 within 5 %%", b[0])
	}
	if free[0] < 0.7 {
		t.Errorf("with the limit on the smaller BSS main got %.3f, want its stations' 0.75", free[0])
	}
}

// airtime_bss_cap=30 on the guest, its station busy and main's stations
// associated but idle: the guest uses 30 % of the air, not the free rest.
func TestAirtimeBSSCapIdle(t *testing.T) {
	s := busyBSSes(t, ap.Airtime{BSS: []ap.BSSAirtime{{}, {CapPercent: 30}}}, [2]int{3, 1}, [2]bool{false, true})
	_, _, air := airShares(t, s, 5*time.Second)
	t.Logf("air used: main %.3f, guest %.3f", air[0], air[1])
	readmetest.Check(t, `beside an idle main BSS uses ([\d.]+) %`, fmt.Sprintf("%.1f", 100*air[1]))
	if air[1] > 0.31 || air[1] < 0.27 {
		t.Errorf("the capped guest used %.1f %% of the air, want 30 %% (at most 31 %%)", 100*air[1])
	}
	if air[0] != 0 {
		t.Errorf("idle main used %.3f of the air", air[0])
	}
}
