package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

var (
	mainOne  = ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	guestOne = ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}
)

// guestWith is a radio carrying its own BSS (cfg's keys) and the guest
// BSS g beside it.
func guestWith(cfg Config, g BSSConfig) Config {
	g.BSSID, g.SSID = guest2ID, "guest"
	cfg.BSSes = []BSSConfig{g}
	return cfg
}

// pollsUntil advances in steps of 100 ms until end, and returns the first
// inactivity poll (a Null frame) to want; a poll to anyone else fails.
func (h *harness) pollsUntil(end time.Duration, want ieee80211.MAC) []byte {
	h.t.Helper()
	for h.now < end {
		h.advance(100 * time.Millisecond)
		out, _ := h.take()
		for _, b := range out {
			_, fr := parsed(h.t, b)
			if !fr.IsNullData() {
				continue
			}
			if fr.Addr1() != want {
				h.t.Fatalf("at %v: an inactivity poll to %s, want one to %s only", h.now, fr.Addr1(), want)
			}
			return b
		}
	}
	return nil
}

// TestInactivityPerBSS: a silent station is polled at its own BSS's
// ap_max_inactivity and, the poll unanswered, disassociated, while the
// other BSS's silent station, whose BSS waits longer, is neither polled
// nor dropped; either way round.
func TestInactivityPerBSS(t *testing.T) {
	for _, c := range []struct {
		name        string
		main, guest time.Duration // zero: the default, 300 s
		short, long ieee80211.MAC
	}{
		{"guest's shorter", 0, 2 * time.Second, guestOne, mainOne},
		{"first's shorter", 2 * time.Second, 20 * time.Second, mainOne, guestOne},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, guestWith(Config{InactivityTimeout: c.main}, BSSConfig{InactivityTimeout: c.guest}))
			h.join(mainOne, false)
			h.joinGuest(guestOne)
			h.take()
			h.takeEvents()
			poll := h.pollsUntil(3*time.Second, c.short)
			if poll == nil {
				t.Fatalf("%s not polled within 3 s", c.short)
			}
			h.echo(poll, radio.TxStatus{})
			var gone []ieee80211.MAC
			for _, e := range h.takeEvents() {
				if e.Kind == EventDisconnected && e.Reason == ieee80211.ReasonInactivity {
					gone = append(gone, e.Addr)
				}
			}
			if len(gone) != 1 || gone[0] != c.short {
				t.Errorf("disconnected for inactivity: %v, want %s alone", gone, c.short)
			}
			if h.state(c.long) != bss.StateAssociated {
				t.Errorf("%s: %v, want associated", c.long, h.state(c.long))
			}
		})
	}
}

// TestAdmissionTimersPerBSS: a station only authenticated goes at its own
// BSS's auth_timeout, and an association response without TX status gives
// its AID back at its own BSS's assoc_resp_timeout, while the other BSS's
// stations in the same states, whose BSS waits longer, are kept; either
// way round.
func TestAdmissionTimersPerBSS(t *testing.T) {
	short := BSSConfig{AuthTimeout: 500 * time.Millisecond, AssocResponseTimeout: 300 * time.Millisecond}
	mainAuth, mainPend := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 2}, ieee80211.MAC{0x02, 0, 0, 0, 0x10, 3}
	guestAuth, guestPend := ieee80211.MAC{0x02, 0, 0, 0, 0x20, 2}, ieee80211.MAC{0x02, 0, 0, 0, 0x20, 3}
	for _, c := range []struct {
		name           string
		cfg            Config
		gone, pendGone ieee80211.MAC // the short-timed BSS's stations
		kept, pendKept ieee80211.MAC
	}{
		{"guest's shorter", guestWith(Config{}, short), guestAuth, guestPend, mainAuth, mainPend},
		{"first's shorter", guestWith(Config{AuthTimeout: short.AuthTimeout, AssocResponseTimeout: short.AssocResponseTimeout}, BSSConfig{}),
			mainAuth, mainPend, guestAuth, guestPend},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, c.cfg)
			h.take()
			h.auth(mainAuth, 0, 1)
			h.authTo(guest2ID, guestAuth, 0, 1)
			h.request(mainPend) // its response never echoed
			h.authTo(guest2ID, guestPend, 0, 1)
			req := ieee80211.AppendAssocReq(h.guestMgmt(ieee80211.SubtypeAssocReq, guestPend), 0x0421, 10)
			h.air(ieee80211.AppendRates(ieee80211.AppendSSID(req, "guest"), gRates))
			h.take()
			if h.state(guestPend) != bss.StateAssocPending || h.state(mainPend) != bss.StateAssocPending {
				t.Fatalf("pending: %v and %v", h.state(mainPend), h.state(guestPend))
			}
			for h.now < 700*time.Millisecond {
				h.advance(h.a.nextBeacon - h.now)
			}
			for sta, want := range map[ieee80211.MAC]bss.StationState{
				c.gone: bss.StateNone, c.pendGone: bss.StateAuthenticated,
				c.kept: bss.StateAuthenticated, c.pendKept: bss.StateAssocPending,
			} {
				if got := h.state(sta); got != want {
					t.Errorf("%s after %v: %v, want %v", sta, h.now, got, want)
				}
			}
		})
	}
}

// TestUTF8SSIDPerBSS: the Extended Capabilities' UTF-8 SSID bit is in the
// beacons and probe responses of the BSS whose section sets utf8_ssid
// alone.
func TestUTF8SSIDPerBSS(t *testing.T) {
	cfg := threeBSSes()
	cfg.BSSes[0].UTF8SSID = true
	h := newHarness(t, cfg)
	h.take()
	h.advance(h.a.beaconPeriod())
	h.air(ieee80211.AppendProbeReq(nil, ieee80211.MAC{0x02, 0xee, 0, 0, 0, 1}, "", gRates, h.nextSeq()))
	out, _ := h.take()
	seen := map[ieee80211.MAC]int{}
	for _, b := range out {
		_, fr := parsed(t, b)
		if !fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) && !fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeProbeResp) {
			continue
		}
		f, _ := ieee80211.ParseBeacon(fr.Body())
		body, ok := f.Elements().Find(ieee80211.ElemExtCap)
		has := ok && len(body) == 7 && body[6] == 0x01
		if want := fr.Addr2() == guest2ID; has != want || ok != want {
			t.Errorf("%s's subtype %d: Extended Capabilities % x, want the UTF-8 SSID bit %v", fr.Addr2(), fr.Subtype(), body, want)
		}
		seen[fr.Addr2()]++
	}
	for _, id := range []ieee80211.MAC{bssid, guest2ID, guest3ID} {
		if seen[id] != 2 {
			t.Errorf("%s: %d beacons and probe responses, want one of each", id, seen[id])
		}
	}
}

// TestBSSLoadPerBSS: each BSS takes the radio's busy time over its own
// bss_load_update_period: one interval of a station's uplink at half the
// air shows at about 127 in one beacon of the BSS updating every
// interval, and as its quarter in the guest's, which updates every four
// intervals (at its own beacons only); the BSS without the key sends no
// element.
func TestBSSLoadPerBSS(t *testing.T) {
	cfg := threeBSSes()
	cfg.Advert = bss.Advert{BSSLoadPeriod: 1}
	cfg.BSSes[0].BSSLoadPeriod = 4
	h := newHarness(t, cfg)
	h.join(staMAC, false)
	h.take()
	period := h.a.beaconPeriod()
	utils := map[ieee80211.MAC][]uint8{}
	collect := func() {
		out, _ := h.take()
		for _, b := range out {
			_, fr := parsed(t, b)
			if !fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
				continue
			}
			f, _ := ieee80211.ParseBeacon(fr.Body())
			body, ok := f.Elements().Find(ieee80211.ElemBSSLoad)
			if fr.Addr2() == guest3ID {
				if ok {
					t.Errorf("a BSS Load element from the BSS without bss_load_update_period")
				}
				continue
			}
			if !ok || len(body) != 5 {
				t.Fatalf("%s's beacon: BSS Load % x", fr.Addr2(), body)
			}
			utils[fr.Addr2()] = append(utils[fr.Addr2()], body[2])
		}
	}
	// Idle to the first BSS's TBTT, then one interval at half the air.
	for h.now < 3*period || h.a.radios[0].tbtt != h.now+period {
		h.advance(h.a.Deadline() - h.now)
		collect()
	}
	frame := h.upIPv4(staMAC, host, 0, false)
	air := time.Duration(h.a.est.Airtime(radio.LegacyRate(54000), ieee80211.ACBE, len(frame)+4)) * time.Microsecond // as h.air sends it
	for end := h.now + period; h.now < end; {
		// Every beacon at its TBTT: a late one would move its BSS's window.
		if d := h.a.Deadline(); d > h.now && d < h.now+2*air {
			h.advance(d - h.now)
		} else {
			h.air(h.upIPv4(staMAC, host, 0, false))
			h.advance(2 * air)
		}
		collect()
	}
	for end := h.now + 12*period; h.now < end; {
		h.advance(h.a.Deadline() - h.now)
		collect()
	}

	t.Logf("channel utilization in the beacons: first BSS %v, guest %v", utils[bssid], utils[guest2ID])
	var busy int
	for _, u := range utils[bssid] {
		if u > 20 {
			busy++
			if u < 110 || u > 145 {
				t.Errorf("first BSS: channel utilization %d over the busy interval, want about 127", u)
			}
		}
	}
	if busy != 1 {
		t.Errorf("first BSS: %d beacons with the busy interval, want 1: %v", busy, utils[bssid])
	}
	// The guest's windows end at every 4th of its beacons: its figure
	// changes there alone, and its windows together hold the burst.
	g, at, sum := utils[guest2ID], -1, 0
	for i := 1; i < len(g); i++ {
		if g[i] == g[i-1] {
			continue
		}
		if at < 0 {
			at = i % 4
		}
		if i%4 != at {
			t.Errorf("guest: its utilization changed at its beacons %d and %d, not 4 apart: %v", at, i, g)
		}
	}
	for i := max(at, 0); i < len(g); i += 4 {
		sum += int(g[i])
	}
	if sum < 22 || sum > 42 {
		t.Errorf("guest: its windows' utilizations sum to %d, want about 127/4: %v", sum, g)
	}
}

// TestRestartBSSTakesItsOwnKeys: a BSS restarted with its section's new
// values runs with them (a SIGHUP of a changed section): its UTF-8 SSID
// bit and BSS Load element in its beacons, the radio counting busy time
// for it though no other BSS sends the element, and its inactivity
// timeout; the first BSS keeps its own.
func TestRestartBSSTakesItsOwnKeys(t *testing.T) {
	h := newHarness(t, threeBSSes())
	if h.a.load.on {
		t.Fatal("busy time counted without a BSS Load element")
	}
	g := BSSConfig{SSID: "guest", DTIMPeriod: 1, UTF8SSID: true, BSSLoadPeriod: 1, InactivityTimeout: 2 * time.Second}
	if err := h.a.RestartBSS(h.now, 1, g); err != nil {
		t.Fatal(err)
	}
	h.take()
	h.advance(h.a.beaconPeriod())
	out, _ := h.take()
	var beacons int
	for _, b := range out {
		_, fr := parsed(t, b)
		if !fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
			continue
		}
		beacons++
		f, _ := ieee80211.ParseBeacon(fr.Body())
		_, load := f.Elements().Find(ieee80211.ElemBSSLoad)
		_, ext := f.Elements().Find(ieee80211.ElemExtCap)
		if want := fr.Addr2() == guest2ID; load != want || ext != want {
			t.Errorf("%s's beacon: BSS Load %v, Extended Capabilities %v, want %v", fr.Addr2(), load, ext, want)
		}
	}
	if beacons != 3 || !h.a.load.on {
		t.Errorf("%d beacons, busy time counted: %v", beacons, h.a.load.on)
	}
	if in := h.a.radios[1].timers.inactivity; in != 2*time.Second || h.a.radios[0].timers.inactivity != defaultInactivity {
		t.Errorf("inactivity timeouts: first %v, guest %v", h.a.radios[0].timers.inactivity, in)
	}
}
