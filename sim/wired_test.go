package sim

import (
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/ieee80211"
)

// twoBSSes is a radio carrying "main" and "guest", each guest BSS setting
// from guest.
func twoBSSes(t *testing.T, mainIsolate bool, guest ap.BSSConfig) *Sim {
	t.Helper()
	guest.BSSID, guest.SSID = ieee80211.MAC{0x02, 0, 0, 0, 0x01, 1}, "guest"
	s, err := New(Config{Seed: 3, AP: ap.Config{SSID: "main", BSSID: ieee80211.MAC{0x02, 0, 0, 0, 0x01, 0},
		APIsolate: mainIsolate, BSSes: []ap.BSSConfig{guest}}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// pings runs a ping of 20 between each pair and returns what each got back.
func pings(s *Sim, pairs [][2]Endpoint) []PingStats {
	var ps []*Ping
	for _, p := range pairs {
		ps = append(ps, s.Ping(p[0], p[1], 100*time.Millisecond, 56))
	}
	s.Run(2 * time.Second)
	for _, p := range ps {
		p.Stop()
	}
	s.Run(time.Second) // the last replies
	var st []PingStats
	for _, p := range ps {
		st = append(st, p.Stats())
	}
	return st
}

// TestWiredSidePerBSS: each BSS's station reaches the host on its own
// BSS's wired side and not the other's; a host reaches its own BSS's
// station alone; a guest station's frames to a main station go to the
// guest's wired side, never over the air.
func TestWiredSidePerBSS(t *testing.T) {
	s := twoBSSes(t, false, ap.BSSConfig{})
	hostMain, hostGuest := s.AddHost(HostConfig{BSS: 0}), s.AddHost(HostConfig{BSS: 1})
	main := s.AddStation(StationConfig{SSID: "main"})
	guest := s.AddStation(StationConfig{SSID: "guest", Start: time.Millisecond})
	s.Run(time.Second)
	if !main.Associated() || !guest.Associated() {
		t.Fatal("the stations did not join")
	}
	got := pings(s, [][2]Endpoint{{main, hostMain}, {guest, hostGuest}, {main, hostGuest}, {hostGuest, main}, {guest, hostMain}, {guest, main}})
	names := []string{"main to its host", "guest to its host", "main to the guest's host", "the guest's host to main", "guest to the main host", "guest to main"}
	for i, ps := range got {
		through := i < 2
		if ps.Sent < 15 || through && ps.Received != ps.Sent || !through && ps.Received != 0 {
			t.Errorf("%s: %d sent, %d received; want all through: %v", names[i], ps.Sent, ps.Received, through)
		}
	}
	// Unicast frames straight to the main station's address (no ARP to
	// stop them): the guest's wired side gets them, where no host owns
	// the address; the main station gets none.
	before, rx := s.Stats(), main.Stats().RxData
	for range 5 {
		guest.sendData(main.Addr(), 0x88b5, make([]byte, 46))
	}
	s.Run(100 * time.Millisecond)
	after := s.Stats()
	if n := main.Stats().RxData - rx; n != 0 || after.WiredOut[1]-before.WiredOut[1] != 5 || after.WiredOut[0] != before.WiredOut[0] || after.WiredUnclaimed-before.WiredUnclaimed != 5 {
		t.Errorf("guest to the main station's address: %d received over the air, %d to the guest's wired side and %d to the main one's, %d unclaimed; want 0, 5, 0, 5",
			n, after.WiredOut[1]-before.WiredOut[1], after.WiredOut[0]-before.WiredOut[0], after.WiredUnclaimed-before.WiredUnclaimed)
	}
	// A main station's broadcast reaches the host on the main wired side
	// alone.
	rxMain, rxGuest := hostMain.Stack().RxFrames, hostGuest.Stack().RxFrames
	for range 3 {
		main.sendData(ieee80211.Broadcast, 0x88b5, make([]byte, 46))
	}
	s.Run(100 * time.Millisecond)
	if m, g := hostMain.Stack().RxFrames-rxMain, hostGuest.Stack().RxFrames-rxGuest; m != 3 || g != 0 {
		t.Errorf("a main station's broadcasts: %d on the main wired side, %d on the guest's; want 3 and 0", m, g)
	}
	if s.Stats().Unaccounted != 0 {
		t.Errorf("%d times the core's books did not balance", s.Stats().Unaccounted)
	}
}

// TestAPIsolatePerBSS: ap_isolate on one BSS keeps two of its stations
// apart (their frames go to its wired side, where no host answers for the
// other station) while the other BSS relays between its stations; and
// the other way round.
func TestAPIsolatePerBSS(t *testing.T) {
	for _, guestIsolated := range []bool{true, false} {
		s := twoBSSes(t, !guestIsolated, ap.BSSConfig{APIsolate: guestIsolated})
		m1, m2 := s.AddStation(StationConfig{SSID: "main"}), s.AddStation(StationConfig{SSID: "main", Start: time.Millisecond})
		g1, g2 := s.AddStation(StationConfig{SSID: "guest", Start: 2 * time.Millisecond}), s.AddStation(StationConfig{SSID: "guest", Start: 3 * time.Millisecond})
		s.Run(time.Second)
		got := pings(s, [][2]Endpoint{{m1, m2}, {g1, g2}})
		for i, name := range []string{"main", "guest"} {
			isolated := (i == 1) == guestIsolated
			if ps := got[i]; ps.Sent < 15 || isolated && ps.Received != 0 || !isolated && ps.Received != ps.Sent {
				t.Errorf("guest isolated %v: %s's stations: %d sent, %d received", guestIsolated, name, ps.Sent, ps.Received)
			}
		}
	}
}
