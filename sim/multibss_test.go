package sim

import (
	"encoding/binary"
	"fmt"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
)

// threeIDs and threeSSIDs are the BSSIDs and SSIDs of a radio carrying
// three BSSes.
var (
	threeIDs   = []ieee80211.MAC{{0x02, 0, 0, 0, 0x01, 0}, {0x02, 0, 0, 0, 0x01, 1}, {0x02, 0, 0, 0, 0x01, 2}}
	threeSSIDs = []string{"main", "guest", "iot"}
)

// TestThreeBSSes: one radio carrying three open BSSes (DTIM periods 2, 1
// and 3) with an awake and a dozing station in each, joined by SSID, and
// pings from each BSS's wired side to its stations for 60 s of virtual
// time.
// Each BSS beacons at its own TBTT, a third of an interval after the one
// before, with no beacon missed and a Timestamp that is a multiple of the
// interval there; each dozing station gets every ping, fetching it with a
// PS-Poll after its own BSS's beacon; each station gets the broadcasts of
// its own BSS's wired side alone; and a station's ping to a station of
// another BSS never crosses over the air: it goes to its BSS's wired side.
func TestThreeBSSes(t *testing.T) {
	ids, ssids := threeIDs, threeSSIDs
	interval := 100 * 1024 * time.Microsecond
	beacons := make([][]time.Duration, 3)
	badTS := 0
	// polls[i]: when the dozing station of BSS i sent its PS-Polls.
	var dozers [3]ieee80211.MAC
	polls := make([][]time.Duration, 3)
	var crossed []string
	staBSS := map[ieee80211.MAC]int{}
	capture := func(at time.Duration, b []byte) {
		n, txFlags, err := radiotap.Parse(b, nil, nil)
		if err != nil || txFlags && binary.LittleEndian.Uint32(b[4:])&(1<<radiotap.Flags) == 0 {
			return // a TX-status echo: the frame was seen as sent
		}
		fr := ieee80211.Frame(b[n:])
		switch {
		case fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon):
			for i, id := range ids {
				if fr.Addr2() == id {
					beacons[i] = append(beacons[i], at)
					if bc, err := ieee80211.ParseBeacon(fr.Body()); err != nil || bc.Timestamp()%uint64(interval/time.Microsecond) != 0 {
						badTS++
					}
				}
			}
		case fr.Type() == ieee80211.TypeCtrl && fr.Subtype() == ieee80211.SubtypePSPoll:
			for i, d := range dozers {
				if fr.Addr2() == d {
					polls[i] = append(polls[i], at)
				}
			}
		case fr.Type() == ieee80211.TypeData && fr.FromDS() && !fr.Addr1().IsMulticast():
			if i, ok := staBSS[fr.Addr1()]; ok && fr.Addr2() != ids[i] {
				crossed = append(crossed, fmt.Sprintf("%s from %s", fr.Addr1(), fr.Addr2()))
			}
		}
	}
	cfg := Config{Seed: 7, Capture: capture, AP: ap.Config{SSID: ssids[0], BSSID: ids[0], BSSes: []ap.BSSConfig{
		{BSSID: ids[1], SSID: ssids[1], DTIMPeriod: 1},
		{BSSID: ids[2], SSID: ssids[2], DTIMPeriod: 3},
	}}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var hosts [3]*Host
	for i := range hosts {
		hosts[i] = s.AddHost(HostConfig{BSS: i})
	}
	var awake, dozing [3]*Station
	for i, ssid := range ssids {
		awake[i] = s.AddStation(StationConfig{SSID: ssid, Start: time.Duration(2*i) * time.Millisecond})
		dozing[i] = s.AddStation(StationConfig{SSID: ssid, PowerSave: true, Start: time.Duration(2*i+1) * time.Millisecond})
		dozers[i] = dozing[i].Addr()
		staBSS[awake[i].Addr()], staBSS[dozing[i].Addr()] = i, i
	}
	s.Run(2 * time.Second)
	for i := range ssids {
		for _, st := range []*Station{awake[i], dozing[i]} {
			if !st.Associated() || st.bssid != ids[i] {
				t.Fatalf("%s joined %s, want %q's %s", st.Addr(), st.bssid, ssids[i], ids[i])
			}
		}
	}
	var pings []*Ping
	for i := range ssids {
		pings = append(pings, s.Ping(hosts[i], awake[i], 200*time.Millisecond, 56), s.Ping(hosts[i], dozing[i], 200*time.Millisecond, 56))
	}
	s.Run(time.Second) // the host's ARP requests, before counting broadcasts
	start := s.Now()
	// A broadcast from each BSS's wired side every 200 ms: every station,
	// dozing or not, gets each of its own BSS's once, from its BSS, and
	// none of the others'.
	bcast := ieee80211.AppendEtherHdr(nil, ieee80211.Broadcast, hosts[0].cfg.Addr, 0x88b5)
	bcast = append(bcast, make([]byte, 46)...)
	var group [6]uint64
	for i, st := range s.Stations() {
		group[i] = st.Stats().RxGroup
	}
	const broadcasts = 300
	for range broadcasts {
		for i := range hosts {
			s.SendRawOn(i, bcast)
		}
		s.Run(200 * time.Millisecond)
	}
	for _, p := range pings {
		p.Stop()
	}
	s.Run(time.Second)
	for i, st := range s.Stations() {
		if got := st.Stats().RxGroup - group[i]; got != broadcasts {
			t.Errorf("%s (%q, dozing %v): %d of the wired side's %d broadcasts", st.Addr(), ssids[i/2], st.cfg.PowerSave, got, broadcasts)
		}
	}
	// A guest station's ping to a main station, and its frames to the main
	// station's address, reach the guest's wired side, never the main
	// station.
	across := s.Ping(awake[1], awake[0], 200*time.Millisecond, 56)
	s.Run(10 * time.Second)
	across.Stop()
	rx, wired := awake[0].Stats().RxData, s.Stats().WiredOut
	for range 10 {
		awake[1].sendData(awake[0].Addr(), 0x88b5, make([]byte, 46))
	}
	s.Run(100 * time.Millisecond)
	if got := awake[0].Stats().RxData - rx; got != 0 {
		t.Errorf("a main station got %d frames a guest station sent it", got)
	}
	if out := s.Stats().WiredOut; out[1]-wired[1] < 10 || out[0] != wired[0] {
		t.Errorf("a guest's frames to a main station: %d to the guest's wired side, %d to the main one's; want 10 and 0", out[1]-wired[1], out[0]-wired[0])
	}

	end := s.Now()
	for i, b := range beacons {
		if want := int(end/interval) + 1; len(b) < want-1 {
			t.Errorf("%s: %d beacons in %v, want %d", ssids[i], len(b), end, want)
		}
		off := (interval * time.Duration(i) / 3).Truncate(time.Microsecond)
		for k, at := range b {
			if (at-off)%interval != 0 || k > 0 && at-b[k-1] != interval {
				t.Errorf("%s's beacon %d at %v: not at its TBTT (%v into each interval)", ssids[i], k, at, off)
				break
			}
		}
	}
	if m := s.Core().Beacons().MissedIntervals; m != 0 || badTS != 0 {
		t.Errorf("%d TBTTs missed, %d beacons with a Timestamp off their BSS's TBTT", m, badTS)
	}
	if late := s.Stats().BeaconLateMax; late > 5*time.Millisecond {
		t.Errorf("a beacon reached the air %v after its BSS's TBTT", late)
	}
	for i, p := range pings {
		if ps := p.Stats(); ps.Sent < 290 || ps.Received != ps.Sent {
			t.Errorf("ping %d: %d sent, %d received", i, ps.Sent, ps.Received)
		}
	}
	for i := range ssids {
		if len(polls[i]) == 0 {
			t.Errorf("%q's dozing station sent no PS-Poll", ssids[i])
			continue
		}
		off := (interval * time.Duration(i) / 3).Truncate(time.Microsecond)
		for _, at := range polls[i] {
			if at < start {
				continue
			}
			// Woken by its BSS's beacon: within a few ms of its TBTT.
			if since := (at - off) % interval; since > 10*time.Millisecond {
				t.Errorf("%q's dozing station polled %v after its BSS's TBTT", ssids[i], since)
				break
			}
		}
	}
	if as := across.Stats(); as.Sent < 45 || as.Received != 0 {
		t.Errorf("guest to main station: %d sent, %d received; want none through", as.Sent, as.Received)
	}
	if len(crossed) != 0 {
		t.Errorf("data frames to a station from another BSS's BSSID: %v", crossed[:min(len(crossed), 5)])
	}
}
