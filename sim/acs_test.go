package sim

import (
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/scan"
)

// acsCrowded are the channels the foreign BSSs crowd: every 2.4 GHz one
// is within 10 MHz of one of them, and 5 GHz 36-44, 149-157 and 165 are
// taken. 48 is the first clean channel that allows beaconing; the radar
// channels are clean too, but the AP may not beacon there.
var acsCrowded = []int{1, 1, 1, 6, 6, 11, 11, 11, 36, 36, 40, 44, 149, 153, 157, 165}

// acsBSS runs the start-up selection on the US plan with the crowded
// channels and returns the simulation once the AP beacons.
func acsBSS(t *testing.T, seed uint64) *Sim {
	t.Helper()
	s, err := New(Config{Seed: seed, AP: ap.Config{ACS: &ap.ACSConfig{Channels: USChannels(), Runs: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range acsCrowded {
		s.AddForeignBSS(ForeignBSSConfig{Freq: chanFreq(ch), Signal: -55})
	}
	for s.Home() == 0 && s.Now() < 30*time.Second {
		s.Run(10 * time.Millisecond)
	}
	if s.Home() == 0 {
		t.Fatalf("no channel chosen after %v", s.Now())
	}
	return s
}

// TestACSPicksCleanChannel: the AP scans the US plan before beaconing,
// picks the clean channel, and stations associate and pass traffic there.
func TestACSPicksCleanChannel(t *testing.T) {
	s := acsBSS(t, 1)
	core := s.Core()
	d, ok := core.ACSDecision()
	if !ok {
		t.Fatal("no decision")
	}
	t.Logf("chose channel %d after %v\n%s", d.Channel, core.ACSTook(), scan.AppendDecision(nil, &d))
	if d.Channel != 48 || s.Home() != 5240 || core.Config().Channel != 48 {
		t.Fatalf("chose channel %d (home %d MHz)", d.Channel, s.Home())
	}
	if st := s.Stats(); st.Trips != 0 || st.Beacons > 1 {
		t.Errorf("the start-up scan counted as %d trips, %d beacons", st.Trips, st.Beacons)
	}
	// Every crowded channel's BSSs were heard.
	want := map[int]int{}
	for _, ch := range acsCrowded {
		want[ch]++
	}
	for _, c := range d.Channels {
		if c.Neighbours < want[c.Channel] {
			t.Errorf("channel %d: %d neighbours heard, want %d", c.Channel, c.Neighbours, want[c.Channel])
		}
	}
	start := s.Now()
	h := s.AddHost(HostConfig{})
	var stas []*Station
	for i := range 2 {
		stas = append(stas, s.AddStation(StationConfig{Start: start + time.Duration(i+1)*50*time.Millisecond}))
	}
	s.Run(2 * time.Second)
	var pings []*Ping
	for _, st := range stas {
		if !st.Associated() {
			t.Fatalf("station not associated %v after the choice", s.Now()-start)
		}
		pings = append(pings, s.Ping(h, st, 100*time.Millisecond, 56))
	}
	s.Run(3 * time.Second)
	for i, p := range pings {
		p.Stop()
		if ps := p.Stats(); ps.Sent < 25 || ps.Received+1 < ps.Sent {
			t.Errorf("station %d: ping %+v", i, ps)
		}
	}
	st := s.Stats()
	if st.Beacons < 45 || st.Unaccounted != 0 || st.CoreOffChannel != 0 {
		t.Errorf("after the choice: %d beacons, %d unaccounted, %d off channel", st.Beacons, st.Unaccounted, st.CoreOffChannel)
	}
}

// TestACSDeterministic: the same seed makes the same run.
func TestACSDeterministic(t *testing.T) {
	a, b := acsBSS(t, 7), acsBSS(t, 7)
	if a.Hash() != b.Hash() || a.Now() != b.Now() {
		t.Errorf("hash %x at %v vs %x at %v", a.Hash(), a.Now(), b.Hash(), b.Now())
	}
}
