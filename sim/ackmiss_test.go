package sim

import (
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
)

// TestAckMissUnheldBSSID: a radio whose hardware does not ACK its second
// BSSID (no interface holds it) still receives that BSS's frames, each one
// again and again as its stations retransmit: airqctl dev counts the
// unanswered frames for that BSS alone, and the core warns once.
func TestAckMissUnheldBSSID(t *testing.T) {
	guestID := ieee80211.MAC{0x02, 0, 0, 0, 0x02, 1}
	s, err := New(Config{Seed: 5, AP: ap.Config{Name: "wlan0", BSSes: []ap.BSSConfig{{Name: "guest", BSSID: guestID, SSID: "guest"}}},
		Medium: MediumConfig{Unacked: []ieee80211.MAC{guestID}}})
	if err != nil {
		t.Fatal(err)
	}
	hosts := []*Host{s.AddHost(HostConfig{}), s.AddHost(HostConfig{BSS: 1})} // each BSS's wired side
	main, guest := s.AddStation(StationConfig{}), s.AddStation(StationConfig{SSID: "guest"})
	s.Run(2 * time.Second)
	for i, st := range []*Station{main, guest} {
		s.Ping(st, hosts[i], 100*time.Millisecond, 56)
	}
	s.Run(3 * time.Second)
	devs := s.Control(ctl.Request{Op: ctl.OpDev}).Devs
	if len(devs) != 2 {
		t.Fatalf("devs %+v", devs)
	}
	for _, d := range devs {
		t.Logf("%s: %d frames, %d retries, %d unanswered; %d stations", d.Name, d.AckFrames, d.AckRetries, d.AckUnanswered, d.Stations)
	}
	if d := devs[0]; d.AckUnanswered != 0 || d.AckFrames == 0 {
		t.Errorf("the ACKed BSS: %d frames, %d retries, %d unanswered; want frames and none unanswered", d.AckFrames, d.AckRetries, d.AckUnanswered)
	}
	if d := devs[1]; d.AckUnanswered < 10 || d.AckRetries < 3*d.AckUnanswered {
		t.Errorf("the unACKed BSS: %d frames, %d retries, %d unanswered; want every frame unanswered", d.AckFrames, d.AckRetries, d.AckUnanswered)
	}
	warned := 0
	s.DrainEvents(func(e ap.Event) {
		if e.Kind == ap.EventUnacked {
			warned++
			if e.BSS != "guest" || e.Addr != guestID {
				t.Errorf("warning %+v, want guest's %s", e, guestID)
			}
		}
	})
	if warned != 1 {
		t.Errorf("%d warnings in 5 s, want 1: at most one a minute", warned)
	}
}
