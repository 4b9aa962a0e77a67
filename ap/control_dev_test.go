package ap

import (
	"testing"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
)

// newTwoBSSHarness is a radio with its first BSS "wlan0" and a guest
// network "guest" beside it, named as the daemon names them.
func newTwoBSSHarness(t *testing.T) *harness {
	return newHarness(t, Config{Name: "wlan0", Holder: "airq0", TAP: "airq-tap0",
		BSSes: []BSSConfig{{Name: "guest", BSSID: guestID, SSID: "guest", Holder: "guest-ack", TAP: "guest"}}})
}

// upTo is a station's data frame to the BSS at bssid.
func (h *harness) upTo(sta, bssid ieee80211.MAC, seq uint16, retry bool) []byte {
	hdr := ieee80211.DataHeader{Flags: ieee80211.FCToDS, Addr1: bssid, Addr2: sta, Addr3: host, Seq: seq}
	if retry {
		hdr.Flags |= ieee80211.FCRetry
	}
	b := ieee80211.AppendLLCSNAP(ieee80211.AppendDataHeader(nil, hdr), 0x0800)
	return append(b, ipv4(0)...)
}

var guestSta = ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}

// TestDevLists: airqctl dev lists each BSS with its name, address, SSID,
// the interfaces the daemon named and its own stations and counters; a
// station request scoped to a BSS sees that BSS's stations alone.
func TestDevLists(t *testing.T) {
	h := newTwoBSSHarness(t)
	h.join(staMAC, false)
	h.joinBSS(guestSta, guestID, "guest")
	h.air(h.upTo(guestSta, guestID, 100, false))

	r := h.a.Control(h.now, ctl.Request{Op: ctl.OpDev})
	if len(r.Devs) != 2 {
		t.Fatalf("dev lists %d BSSes, want 2: %+v", len(r.Devs), r)
	}
	first, guest := r.Devs[0], r.Devs[1]
	if first.Name != "wlan0" || first.BSSID != ctl.MAC(bssid) || first.SSID != "airq-test" || first.Holder != "airq0" ||
		first.TAP != "airq-tap0" || first.Security != "open" || first.Channel != 1 || first.Stations != 1 {
		t.Errorf("first BSS %+v", first)
	}
	if guest.Name != "guest" || guest.Index != 1 || guest.BSSID != ctl.MAC(guestID) || guest.Holder != "guest-ack" ||
		guest.TAP != "guest" || guest.Stations != 1 || guest.Associations != 1 || guest.AuthResponses != 1 ||
		guest.AssocResponses != 1 || guest.RxPackets != 1 || guest.RxBytes == 0 {
		t.Errorf("guest BSS %+v", guest)
	}
	if first.RxPackets != 0 || first.Associations != 1 {
		t.Errorf("the guest's traffic or admission was counted in the first BSS: %+v", first)
	}

	dump := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationDump, Dev: "guest"})
	if len(dump.Stations) != 1 || dump.Stations[0].Addr != ctl.MAC(guestSta) || dump.Stations[0].BSS != "guest" {
		t.Errorf("dev guest station dump: %+v", dump.Stations)
	}
	all := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationDump})
	if len(all.Stations) != 2 || all.Stations[0].BSS != "wlan0" || all.Stations[1].BSS != "guest" {
		t.Errorf("station dump: %+v", all.Stations)
	}
	page := &ctl.StationPage{From: 1, Into: make([]ctl.Station, 4)}
	h.a.Control(h.now, ctl.Request{Op: ctl.OpStationDump, Dev: "wlan0", Page: page})
	if page.N != 1 || page.Into[0].Addr != ctl.MAC(staMAC) {
		t.Errorf("a page of dev wlan0: %d stations, first %v", page.N, page.Into[0].Addr)
	}
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationGet, Addr: guestSta, Dev: "wlan0"}); r.Errno != ctl.ENOENT {
		t.Errorf("dev wlan0 station get of the guest's station: %+v", r)
	}
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationDel, Addr: guestSta, Dev: "wlan0"}); r.Errno != ctl.ENOENT || h.a.Associated() != 2 {
		t.Errorf("dev wlan0 station del of the guest's station: %+v", r)
	}
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationDump, Dev: "lan"}); r.Errno != ctl.ENODEV {
		t.Errorf("dev lan station dump: %+v", r)
	}
}

// TestDevKeepsDepartedTraffic: a BSS's traffic counters are counters: a
// station that leaves takes nothing away from them.
func TestDevKeepsDepartedTraffic(t *testing.T) {
	h := newTwoBSSHarness(t)
	h.joinBSS(guestSta, guestID, "guest")
	for seq := range uint16(3) {
		h.air(h.upTo(guestSta, guestID, 100+seq, false))
	}
	before := h.a.Control(h.now, ctl.Request{Op: ctl.OpDev}).Devs[1]
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationDel, Addr: guestSta, Dev: "guest"}); r.Err() != nil {
		t.Fatal(r.Err())
	}
	after := h.a.Control(h.now, ctl.Request{Op: ctl.OpDev}).Devs[1]
	if before.RxPackets != 3 || after.RxPackets != 3 || after.RxBytes != before.RxBytes || after.Stations != 0 {
		t.Errorf("rx packets %d with the station, %d after it left (bytes %d, %d); stations %d", before.RxPackets,
			after.RxPackets, before.RxBytes, after.RxBytes, after.Stations)
	}
}

// TestEventsNameTheirBSS: a station's events name the BSS it joined, as
// hostapd sends them on that BSS's control socket.
func TestEventsNameTheirBSS(t *testing.T) {
	h := newTwoBSSHarness(t)
	h.join(staMAC, false)
	h.joinBSS(guestSta, guestID, "guest")
	want := map[ieee80211.MAC]string{staMAC: "wlan0", guestSta: "guest"}
	n := 0
	for _, e := range h.takeEvents() {
		if e.Kind == EventConnected {
			n++
			if e.BSS != want[e.Addr] {
				t.Errorf("%s of %s names BSS %q, want %q", e.Kind, e.Addr, e.BSS, want[e.Addr])
			}
		}
	}
	if n != 2 {
		t.Errorf("%d connections reported, want 2", n)
	}
}

// TestDevShowsEachBSSsPHY: airqctl dev shows each BSS's WMM and the PHY
// it advertises and serves: the radio's VHT for the first, HT alone
// with disable_11ac, legacy with disable_11n, WMM off with
// wmm_enabled=0.
func TestDevShowsEachBSSsPHY(t *testing.T) {
	h := newHarness(t, Config{Channel: 36, WMM: true, PHY: bss.PHY{VHT: true, Width: 80}, BSSes: []BSSConfig{
		{BSSID: guest2ID, SSID: "guest", NoVHT: true},
		{BSSID: guest3ID, SSID: "iot", NoHT: true, NoWMM: true},
	}})
	want := []struct {
		wmm, ht, vht bool
		mode         string
	}{{true, true, true, "802.11ac"}, {true, true, false, "802.11n"}, {false, false, false, "802.11a"}}
	r := h.a.Control(h.now, ctl.Request{Op: ctl.OpDev})
	if len(r.Devs) != len(want) {
		t.Fatalf("dev lists %d BSSes, want %d", len(r.Devs), len(want))
	}
	for i, w := range want {
		if d := r.Devs[i]; d.WMM != w.wmm || d.HT != w.ht || d.VHT != w.vht || d.PHYMode != w.mode {
			t.Errorf("BSS %d (%s): WMM %v, HT %v, VHT %v, %q; want %v, %v, %v, %q", i, d.SSID, d.WMM, d.HT, d.VHT, d.PHYMode, w.wmm, w.ht, w.vht, w.mode)
		}
	}
}
