package sim

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
)

// TestInactivityPollsPerBSS: two BSSes on one radio, a silent station in
// each, the guest's ap_max_inactivity 5 s and the main network's the
// default 300 s: over 20 s of virtual time the guest's station is polled
// by the guest's BSSID every 5 s or so, and acknowledging each stays
// associated, while the main network's station is never polled.
func TestInactivityPollsPerBSS(t *testing.T) {
	mainID, guestID := ieee80211.MAC{0x02, 0, 0, 0, 0x01, 0}, ieee80211.MAC{0x02, 0, 0, 0, 0x01, 1}
	polls := map[ieee80211.MAC][]ieee80211.MAC{} // station: the BSSIDs its polls came from
	capture := func(_ time.Duration, b []byte) {
		n, txFlags, err := radiotap.Parse(b, nil, nil)
		if err != nil || txFlags && binary.LittleEndian.Uint32(b[4:])&(1<<radiotap.Flags) == 0 {
			return // a TX-status echo
		}
		if fr := ieee80211.Frame(b[n:]); fr.IsNullData() && fr.FromDS() {
			polls[fr.Addr1()] = append(polls[fr.Addr1()], fr.Addr2())
		}
	}
	cfg := Config{Seed: 3, Capture: capture, AP: ap.Config{SSID: "main", BSSID: mainID, BSSes: []ap.BSSConfig{
		{BSSID: guestID, SSID: "guest", InactivityTimeout: 5 * time.Second},
	}}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	main := s.AddStation(StationConfig{SSID: "main"})
	guest := s.AddStation(StationConfig{SSID: "guest", Start: time.Millisecond})
	s.Run(20 * time.Second)
	if !main.Associated() || !guest.Associated() {
		t.Fatalf("associated: main %v, guest %v", main.Associated(), guest.Associated())
	}
	if p := polls[main.Addr()]; len(p) != 0 {
		t.Errorf("the main network's station polled %d times within its 300 s", len(p))
	}
	p := polls[guest.Addr()]
	t.Logf("polls: main %d, guest %d", len(polls[main.Addr()]), len(p))
	if len(p) < 3 || len(p) > 4 {
		t.Errorf("the guest's station polled %d times in 20 s, want every 5 s", len(p))
	}
	for _, from := range p {
		if from != guestID {
			t.Errorf("a poll to the guest's station from %s, want its BSS %s", from, guestID)
		}
	}
}
