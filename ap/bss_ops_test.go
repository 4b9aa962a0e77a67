package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ackmiss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// unacked sends one frame of sta to bssid as a station that never hears
// the ACK sends it: the first transmission and its retries.
func (h *harness) unacked(sta, bssid ieee80211.MAC, seq uint16) {
	for try := range ackmiss.Threshold {
		h.air(h.upTo(sta, bssid, seq, try > 0))
	}
}

func (h *harness) unackedEvents() []Event { return h.eventsOf(EventUnacked) }

// TestAckMissShown: a BSS whose frames nobody ACKs (its stations send
// each frame again and again, Retry set) shows the count in airqctl dev
// and says so in an event, at most once a minute; a healthy BSS beside it,
// whose stations' frames need a retry now and then, shows none.
func TestAckMissShown(t *testing.T) {
	h := newTwoBSSHarness(t)
	h.join(staMAC, false)
	h.joinBSS(guestSta, guestID, "guest")
	h.takeEvents()
	for seq := range uint16(20) {
		h.air(h.upTo(staMAC, bssid, 200+seq, false))
		if seq%5 == 0 { // an ACK lost now and then: one retry
			h.air(h.upTo(staMAC, bssid, 200+seq, true))
		}
	}
	h.unacked(guestSta, guestID, 300)

	devs := h.a.Control(h.now, ctl.Request{Op: ctl.OpDev}).Devs
	if devs[0].AckUnanswered != 0 || devs[0].AckRetries != 4 || devs[0].AckFrames < 24 {
		t.Errorf("the healthy BSS: %d frames, %d retries, %d unanswered; want 24+, 4, 0", devs[0].AckFrames,
			devs[0].AckRetries, devs[0].AckUnanswered)
	}
	if devs[1].AckUnanswered != 1 || devs[1].AckRetries != 3 {
		t.Errorf("the unACKed BSS: %d retries, %d unanswered; want 3, 1", devs[1].AckRetries, devs[1].AckUnanswered)
	}
	ev := h.unackedEvents()
	if len(ev) != 1 || ev[0].BSS != "guest" || ev[0].Addr != guestID || ev[0].Count != 1 {
		t.Fatalf("events %+v, want one EventUnacked of guest %s", ev, guestID)
	}

	h.unacked(guestSta, guestID, 301)
	if ev := h.unackedEvents(); len(ev) != 0 {
		t.Errorf("a second warning within a minute: %+v", ev)
	}
	h.now += time.Minute
	h.unacked(guestSta, guestID, 302)
	ev = h.unackedEvents()
	if len(ev) != 1 || ev[0].Count != 2 {
		t.Errorf("a minute on: events %+v, want one counting the 2 frames since the last", ev)
	}
	if n := h.a.Control(h.now, ctl.Request{Op: ctl.OpDev}).Devs[1].AckUnanswered; n != 3 {
		t.Errorf("unanswered %d, want 3", n)
	}
}

// TestWatchAckAllocs: the receive path's watch allocates nothing, and a
// flood of forged retries from new addresses grows nothing.
func TestWatchAckAllocs(t *testing.T) {
	h := newTwoBSSHarness(t)
	fr := ieee80211.Frame(h.upTo(guestSta, guestID, 1, true))
	i := 0
	if n := testing.AllocsPerRun(1000, func() {
		i++
		fr[15] = byte(i) // another transmitter each time
		h.a.watchAck(h.now, fr)
	}); n != 0 {
		t.Errorf("%.1f allocations per frame, want 0", n)
	}
}

// TestDevSecurityAndWiredPerBSS: airqctl dev shows each BSS's own
// security from its RSN, the one it runs: a WPA2 first BSS beside a
// WPA2/WPA3 transition guest with PMF optional, then the guest restarted
// open; and each BSS's wired frames in (from its TAP) and out (to it),
// counted apart.
func TestDevSecurityAndWiredPerBSS(t *testing.T) {
	cfg := wpaConfig(t, rsn.AKMPSK)
	guest := guestWPA2()
	guest.AKMs, guest.MFP = []rsn.AKM{rsn.AKMPSK, rsn.AKMSAE}, rsn.MFPOptional
	cfg.BSSes = []BSSConfig{{Name: "guest", BSSID: guest2ID, SSID: "guest", RSN: guest}}
	h := newHarness(t, cfg)
	devs := h.a.Control(h.now, ctl.Request{Op: ctl.OpDev}).Devs
	if d := devs[0]; d.Security != "WPA2-Personal" || d.KeyMgmt != "WPA-PSK" || d.PMF != "off" {
		t.Errorf("first BSS: %q %q %q", d.Security, d.KeyMgmt, d.PMF)
	}
	if d := devs[1]; d.Security != "WPA2/WPA3-Personal transition" || d.KeyMgmt != "WPA-PSK SAE" || d.PMF != "optional" {
		t.Errorf("guest BSS: %q %q %q", d.Security, d.KeyMgmt, d.PMF)
	}
	wm, _ := connectBoth(h)
	for range 3 {
		h.wireTo(1, eth(guestSTA, host, 0))
	}
	h.wireTo(0, eth(mainSTA, host, 0))
	wm.send(0x0800, ipv4(0), true)
	h.take()
	devs = h.a.Control(h.now, ctl.Request{Op: ctl.OpDev}).Devs
	if devs[0].WiredIn != 1 || devs[1].WiredIn != 3 {
		t.Errorf("wired in: first %d, guest %d; want 1 and 3", devs[0].WiredIn, devs[1].WiredIn)
	}
	if devs[0].WiredOut != 1 || devs[1].WiredOut != 0 {
		t.Errorf("wired out: first %d, guest %d; want 1 and 0", devs[0].WiredOut, devs[1].WiredOut)
	}
	if err := h.a.RestartBSS(h.now, 1, BSSConfig{Name: "guest", SSID: "guest"}); err != nil {
		t.Fatal(err)
	}
	if d := h.a.Control(h.now, ctl.Request{Op: ctl.OpDev}).Devs[1]; d.Security != "open" || d.KeyMgmt != "" || d.PMF != "off" {
		t.Errorf("guest BSS restarted open: %q %q %q", d.Security, d.KeyMgmt, d.PMF)
	}
}
