package scan

import (
	"errors"
	"testing"
	"time"
)

const tu = 1024 * time.Microsecond

// usPlan is a US channel plan: 2.4 GHz 1-11, UNII-1 and UNII-3 active,
// UNII-2 and UNII-2e radar (passive).
func usPlan() []Channel {
	var cs []Channel
	for ch := 1; ch <= 11; ch++ {
		cs = append(cs, Channel{Freq: 2407 + 5*ch})
	}
	for _, ch := range []int{36, 40, 44, 48, 52, 56, 60, 64, 100, 104, 108, 112, 116, 120, 124, 128, 132, 136, 140, 144, 149, 153, 157, 161, 165} {
		cs = append(cs, Channel{Freq: 5000 + 5*ch, Passive: ch >= 52 && ch <= 144})
	}
	return cs
}

func usPlanner(t *testing.T, mut func(*Config)) *Planner {
	t.Helper()
	c := Config{Channels: usPlan(), Home: 5180, BeaconInterval: 100 * tu, Retune: 1 * ms}
	if mut != nil {
		mut(&c)
	}
	p, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPlannerFigures works the US plan by hand: 100 TU, 1 ms retune, 3 ms
// guard, 2 ms drain. Limit = min(125, 102.4 - 2 - 3) = 97.4 ms. A call at
// the TBTT leaves 2 ms later with 102.4 - 2 - 3 = 97.4 ms to the guard: an
// active trip holds floor((97.4-1)/(25+1)) = 3 channels, each dwelling
// (97.4-1)/3 - 1 = 31.133 ms; a passive trip listens 97.4 - 2 = 95.4 ms.
func TestPlannerFigures(t *testing.T) {
	p := usPlanner(t, nil)
	if got, want := p.Limit(), 97400*time.Microsecond; got != want {
		t.Fatalf("limit %v, want %v", got, want)
	}
	b := p.Bound()
	// 16 passive + ceil(19/3) = 23 trips; K = 1 + ceil(200/102.4) = 3;
	// D = min(5, ceil(1005/102.4)) = 5.
	if b.ActivePerTrip != 3 || b.TripsPerSweep != 23 || b.TripSpacing != 8 {
		t.Fatalf("bounds %+v", b)
	}
	now, next := 100*tu, 200*tu
	tr, ok := p.Next(now, next, false)
	if !ok || tr.Passive || tr.N != 3 {
		t.Fatalf("first trip %+v", tr)
	}
	if d := tr.Visits[0].Dwell; d != 31133*time.Microsecond {
		t.Fatalf("active dwell %v", d)
	}
	if tr.Leave != now+2*ms || tr.Return > next-3*ms || tr.Visits[0].Freq != 2412 || !tr.Visits[0].Probe {
		t.Fatalf("first trip %+v", tr)
	}
	// Home for 200 ms: the next two beacons give no trip, the third does.
	for i := 2; i <= 3; i++ {
		if _, ok := p.Next(time.Duration(i)*100*tu, time.Duration(i+1)*100*tu, false); ok {
			t.Fatalf("trip after beacon %d, only %v home", i, time.Duration(i-1)*100*tu)
		}
	}
	tr, ok = p.Next(400*tu, 500*tu, false)
	if !ok || !tr.Passive || tr.N != 1 || tr.Visits[0].Freq != 5260 || tr.Visits[0].Dwell != 95400*time.Microsecond || tr.Visits[0].Probe {
		t.Fatalf("passive trip %+v", tr)
	}
}

// TestSweepTime runs the US plan unloaded: 23 trips, one every third
// beacon, so a sweep takes 22×3×102.4 ms plus the last trip: about 6.9 s,
// within the 10 s.
func TestSweepTime(t *testing.T) {
	p := usPlanner(t, nil)
	for n := time.Duration(1); p.Stats().Sweeps < 2; n++ {
		p.Next(n*100*tu+ms, (n+1)*100*tu, false)
	}
	st := p.Stats()
	if st.Trips != 46 || st.LastSweep > 7*time.Second || st.LastSweep < 6*time.Second {
		t.Fatalf("stats %+v", st)
	}
	t.Logf("sweep %v, longest trip %v, %d trips per sweep", st.LastSweep, st.LongestTrip, st.Trips/2)
	for _, c := range p.Channels(nil) {
		if want := uint64(2); c.Freq != 5180 && c.Visits != want {
			t.Fatalf("channel %d visited %d times", c.Freq, c.Visits)
		}
	}
}

// TestMissBeaconPhases checks that, with the option on, odd passive visits
// are centred on our TBTT and so listen over the phases a normal visit
// cannot reach.
func TestMissBeaconPhases(t *testing.T) {
	c := Config{Channels: []Channel{{Freq: 5260, Passive: true}}, Home: 5180, BeaconInterval: 100 * tu, Retune: ms, MissBeacon: true, MinHome: 1}
	p, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	var trips []Trip
	for n := time.Duration(1); len(trips) < 2; n++ {
		if tr, ok := p.Next(n*100*tu, (n+1)*100*tu, false); ok {
			trips = append(trips, tr)
		}
	}
	if trips[0].MissesBeacon || !trips[1].MissesBeacon || p.Stats().MissedBeacons != 1 {
		t.Fatalf("trips %+v", trips)
	}
	if ph := p.Channels(nil)[0].Phases; ph != ^uint32(0) {
		t.Fatalf("phases %032b: two visits should cover the whole interval", ph)
	}
}

// TestRotation checks the listening phase moves across visits when the
// budget leaves slack before the next TBTT.
func TestRotation(t *testing.T) {
	c := Config{Channels: []Channel{{Freq: 5260, Passive: true}}, Home: 5180, BeaconInterval: 300 * tu, Retune: ms, MinHome: 1}
	p, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[time.Duration]bool{}
	for n := time.Duration(1); n < 20; n++ {
		tbtt := n * 300 * tu
		if tr, ok := p.Next(tbtt, tbtt+300*tu, false); ok {
			seen[tr.Leave-tbtt] = true
		}
	}
	if len(seen) < 5 {
		t.Fatalf("departure phases %v", seen)
	}
	if ph := p.Channels(nil)[0].Phases; ph&1 != 0 || ph&(1<<31) != 0 {
		t.Fatalf("phases %032b: the bins next to our TBTT are blind", ph)
	}
}

func TestDeferral(t *testing.T) {
	p := usPlanner(t, func(c *Config) { c.MaxDefers = 3 })
	var n time.Duration
	for n = 1; ; n++ {
		if _, ok := p.Next(n*100*tu, (n+1)*100*tu, true); ok {
			break
		}
	}
	if st := p.Stats(); n != 4 || st.Deferred != 3 || st.Forced != 1 {
		t.Fatalf("trip after %d calls, stats %+v", n, st)
	}
}

func TestConfigErrors(t *testing.T) {
	for name, c := range map[string]Config{
		"no interval":   {Channels: usPlan()},
		"short":         {Channels: usPlan(), BeaconInterval: 20 * tu},
		"slow retune":   {Channels: usPlan(), BeaconInterval: 100 * tu, Retune: 40 * ms},
		"negative":      {Channels: usPlan(), BeaconInterval: 100 * tu, Guard: -1},
		"passive short": {Channels: []Channel{{Freq: 5260, Passive: true}}, BeaconInterval: 100 * tu, PassiveMin: 100 * ms},
	} {
		if _, err := New(c); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %v", name, err)
		}
	}
	p := usPlanner(t, nil)
	if err := p.SetRetune(45 * ms); !errors.Is(err, ErrConfig) || p.Limit() != 97400*time.Microsecond {
		t.Fatalf("SetRetune: %v, limit %v", err, p.Limit())
	}
}

func TestStartup(t *testing.T) {
	p := usPlanner(t, func(c *Config) { c.StartupRuns = 2 })
	vs := p.Startup(nil, 0)
	if len(vs) != 2*36 || vs[0].Start != ms || !vs[0].Probe || vs[15].Probe || vs[1].Start != ms+100*ms+ms {
		t.Fatalf("startup %d visits: %+v", len(vs), vs[:2])
	}
}
