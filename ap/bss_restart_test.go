package ap

import (
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// TestRestartBSSAlone: restarting the guest BSS with a new SSID and DTIM
// period deauthenticates its stations (reason 2, as hostapd's reload)
// and no other: the first BSS's station stays associated and its data
// still reaches the wired side, the third BSS is untouched; the guest
// BSS beacons its new settings at its own TBTT, its old SSID is no longer
// answered, and its station joins again under the new one.
func TestRestartBSSAlone(t *testing.T) {
	h := newHarness(t, threeBSSes())
	main1 := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	guest1, guest2 := ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}, ieee80211.MAC{0x02, 0, 0, 0, 0x20, 2}
	h.join(main1, false)
	h.joinGuest(guest1)
	h.joinGuest(guest2)
	tbtt, adj := h.a.radios[1].tbtt, h.a.radios[1].tsfAdjust
	h.take()
	h.takeEvents()

	if err := h.a.RestartBSS(h.now, 1, BSSConfig{Name: "guest", SSID: "guest-new", DTIMPeriod: 3}); err != nil {
		t.Fatal(err)
	}
	h.collect()
	out, _ := h.take()
	for _, sta := range []ieee80211.MAC{guest1, guest2, ieee80211.Broadcast} {
		d := findMgmt(t, out, ieee80211.SubtypeDeauth, sta)
		if d.Addr2() != guest2ID || len(d.Body()) < 2 || d.Body()[0] != ieee80211.ReasonPrevAuthNotValid {
			t.Errorf("deauthentication to %v from %v, body %v; want reason 2 from the guest BSS", sta, d.Addr2(), d.Body())
		}
	}
	for _, f := range out {
		if _, fr := parsed(t, f); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeDeauth) && fr.Addr2() != guest2ID {
			t.Errorf("a deauthentication from %v to %v: only the guest BSS restarts", fr.Addr2(), fr.Addr1())
		}
	}
	ev := h.takeEvents()
	if len(ev) != 2 || ev[0].Kind != EventDisconnected || ev[0].Reason != ieee80211.ReasonPrevAuthNotValid || ev[1].Kind != EventDisconnected {
		t.Errorf("events %+v, want the guest BSS's two stations disconnected", ev)
	}
	if h.a.bss.Associated != 1 || h.a.bsses[1].Associated != 0 || h.a.bsses[1].Stations.Len() != 0 {
		t.Errorf("associated: first %d, guest %d (%d in its table); want 1 and 0", h.a.bss.Associated, h.a.bsses[1].Associated, h.a.bsses[1].Stations.Len())
	}
	if r := h.a.radios[1]; r.tbtt != tbtt || r.tsfAdjust != adj || r.b != h.a.bsses[1] {
		t.Errorf("the guest BSS's TBTT %v TSF adjust %d, want %v %d", r.tbtt, r.tsfAdjust, tbtt, adj)
	}
	if c := h.a.Config().BSSes[0]; c.SSID != "guest-new" || c.DTIMPeriod != 3 || c.BSSID != guest2ID || c.MaxStations != maxAID {
		t.Errorf("Config reports %+v", c)
	}

	// The first BSS's station still passes data.
	h.air(h.upIPv4(main1, ieee80211.MAC{0x02, 0, 0, 0, 0x30, 1}, 0, false))
	h.advance(0)
	if _, w := h.take(); len(w) != 1 {
		t.Errorf("the first BSS's station: %d frames to the wired side, want 1", len(w))
	}

	// The guest BSS beacons its new SSID and DTIM period.
	seen := false
	for !seen {
		h.advance(h.a.Deadline() - h.now)
		out, _ := h.take()
		for _, f := range out {
			_, fr := parsed(t, f)
			if !fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) || fr.Addr2() != guest2ID {
				continue
			}
			seen = true
			if h.now != tbtt && (h.now-tbtt)%h.a.beaconPeriod() != 0 {
				t.Errorf("the guest BSS beaconed at %v, off its TBTTs (%v + intervals)", h.now, tbtt)
			}
			if ssid := ssidOf(t, fr); ssid != "guest-new" || timOf(t, fr).DTIMPeriod() != 3 {
				t.Errorf("the guest BSS's beacon: ssid %q DTIM period %d", ssid, timOf(t, fr).DTIMPeriod())
			}
		}
	}

	// The old SSID is not accepted; the new one is.
	h.take()
	h.air(ieee80211.AppendAuth(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, guest2ID, guest1, guest2ID, h.nextSeq()), 0, 1, 0))
	out, _ = h.take()
	for _, f := range out {
		if _, fr := parsed(t, f); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeAuth) && fr.Addr1() == guest1 {
			h.echo(f, radio.TxStatus{Acked: true})
		}
	}
	h.take()
	req := ieee80211.AppendAssocReq(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAssocReq, guest2ID, guest1, guest2ID, h.nextSeq()), 0x0421, 10)
	h.air(ieee80211.AppendRates(ieee80211.AppendSSID(req, "guest"), gRates))
	out, _ = h.take()
	for _, f := range out {
		if _, fr := parsed(t, f); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeAssocResp) && fr.Addr1() == guest1 {
			if ar, err := ieee80211.ParseAssocResp(fr.Body()); err == nil && ar.Status() == ieee80211.StatusSuccess {
				t.Error("an association with the old SSID succeeded")
			}
		}
	}
	req = ieee80211.AppendAssocReq(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAssocReq, guest2ID, guest1, guest2ID, h.nextSeq()), 0x0421, 10)
	h.air(ieee80211.AppendRates(ieee80211.AppendSSID(req, "guest-new"), gRates))
	if aid := h.acceptAssoc(guest1); aid == 0 || h.a.bsses[1].Associated != 1 || h.a.bss.Associated != 1 {
		t.Errorf("rejoining: AID %d, guest %d associated, first %d", aid, h.a.bsses[1].Associated, h.a.bss.Associated)
	}
}

// TestRestartBSSRefused: the first BSS (the radio's Config), a BSS the
// radio does not carry, a new BSSID, an invalid or a secured
// configuration, and a secured running BSS, are refused, naming the BSS,
// and change nothing.
func TestRestartBSSRefused(t *testing.T) {
	h := newHarness(t, threeBSSes())
	guest1 := ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}
	h.joinGuest(guest1)
	h.take()
	for _, c := range []struct {
		i    int
		cfg  BSSConfig
		want string
	}{
		{0, BSSConfig{SSID: "x"}, "BSS 0: the radio's BSSes after the first are 1 to 2"},
		{3, BSSConfig{SSID: "x"}, "BSS 3"},
		{1, BSSConfig{Name: "guest", SSID: "x", BSSID: ieee80211.MAC{0x02, 0, 0, 0, 0x02, 9}}, "bss guest: bssid 02:00:00:00:02:09: a new BSSID takes a new start of the radio"},
		{1, BSSConfig{Name: "guest", SSID: "x", BSSID: guest3ID}, "a new BSSID"},
		{1, BSSConfig{Name: "guest", SSID: ""}, "ssid"},
		{1, BSSConfig{Name: "guest", SSID: "x", DTIMPeriod: 256}, "dtim_period 256"},
		{1, BSSConfig{Name: "guest", SSID: "x", RSN: &RSNConfig{}}, "bss guest: a secured BSS restarts only with the radio"},
	} {
		err := h.a.RestartBSS(h.now, c.i, c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("RestartBSS(%d, %+v): %v, want %q", c.i, c.cfg, err, c.want)
		}
	}
	// A running secured BSS is not made open by a restart either.
	h.a.cfg.BSSes[1].RSN = &RSNConfig{}
	if err := h.a.RestartBSS(h.now, 2, BSSConfig{Name: "iot", SSID: "iot"}); err == nil || !strings.Contains(err.Error(), "bss iot: a secured BSS restarts only with the radio") {
		t.Errorf("restarting a secured BSS open: %v", err)
	}
	h.a.cfg.BSSes[1].RSN = nil
	h.collect()
	if out, _ := h.take(); len(out) != 0 || h.a.bsses[1].Associated != 1 || h.a.Config().BSSes[0].SSID != "guest" {
		t.Errorf("a refused restart sent %d frames; guest associated %d, ssid %q", len(out), h.a.bsses[1].Associated, h.a.Config().BSSes[0].SSID)
	}
}

// TestRestartBSSWhileDisabled: a radio switched off (hostapd's DISABLE)
// restarts a BSS without sending anything, and beacons its new settings
// once enabled.
func TestRestartBSSWhileDisabled(t *testing.T) {
	h := newHarness(t, threeBSSes())
	h.a.Disable(h.now)
	h.collect()
	h.take()
	if err := h.a.RestartBSS(h.now, 2, BSSConfig{SSID: "iot-new"}); err != nil {
		t.Fatal(err)
	}
	h.collect()
	if out, _ := h.take(); len(out) != 0 {
		t.Errorf("a disabled radio sent %d frames", len(out))
	}
	h.a.Enable(h.now)
	for seen := false; !seen; {
		h.advance(h.a.Deadline() - h.now)
		out, _ := h.take()
		for _, f := range out {
			if _, fr := parsed(t, f); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) && fr.Addr2() == guest3ID {
				seen = true
				if ssid := ssidOf(t, fr); ssid != "iot-new" {
					t.Errorf("the restarted BSS beacons %q", ssid)
				}
			}
		}
	}
}

// ssidOf is a beacon's SSID.
func ssidOf(t *testing.T, fr ieee80211.Frame) string {
	t.Helper()
	bc, err := ieee80211.ParseBeacon(fr.Body())
	if err != nil {
		t.Fatal(err)
	}
	ssid, ok := bc.Elements().Find(ieee80211.ElemSSID)
	if !ok {
		t.Fatal("a beacon without SSID")
	}
	return string(ssid)
}
