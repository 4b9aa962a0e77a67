package ap

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/sae"
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
// radio does not carry, a new BSSID, an invalid configuration (a
// secured one without a key among them) are refused, naming the BSS, and
// change nothing.
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
		{1, BSSConfig{Name: "guest", SSID: "x", RSN: &RSNConfig{}}, "bss 2 (x): wpa"},
		{1, BSSConfig{Name: "guest", SSID: "x", AuthTimeout: time.Millisecond}, "bss 2 (x): auth_timeout: 1ms, want 100ms to 1h0m0s"},
		{1, BSSConfig{Name: "guest", SSID: "x", AssocResponseTimeout: 2 * time.Minute}, "bss 2 (x): assoc_resp_timeout: 2m0s"},
		{1, BSSConfig{Name: "guest", SSID: "x", BSSLoadPeriod: 101}, "bss 2 (x): bss_load_update_period: 101"},
		{1, BSSConfig{Name: "guest", SSID: "x", ChanUtilAvgPeriod: -1}, "bss 2 (x): chan_util_avg_period: -1"},
	} {
		err := h.a.RestartBSS(h.now, c.i, c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("RestartBSS(%d, %+v): %v, want %q", c.i, c.cfg, err, c.want)
		}
	}
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

// TestRestartSecuredBSSWhileDisabled: a secured BSS restarted while the
// radio is switched off gets its group keys, and a station joins it once
// the radio is enabled.
func TestRestartSecuredBSSWhileDisabled(t *testing.T) {
	h := newHarness(t, twoWPA2(t))
	h.a.Disable(h.now)
	h.collect()
	h.take()
	const newPass = "the guest's new passphrase"
	if err := h.a.RestartBSS(h.now, 1, BSSConfig{SSID: "guest", RSN: &RSNConfig{Passphrase: bss.NewPassphrase(newPass), Rand: newSeeded(11)}}); err != nil {
		t.Fatal(err)
	}
	h.collect()
	if out, _ := h.take(); len(out) != 0 {
		t.Errorf("a disabled radio sent %d frames", len(out))
	}
	h.a.Enable(h.now)
	if g := h.a.radios[1].rsn; !g.started || g.gtk == nil {
		t.Fatal("the restarted BSS has no GTK once enabled")
	}
	w := joinBSS(h, guestSTA, 1, rsn.AKMPSK)
	w.associate(newPass)
	pumpAll(h, w)
	if !w.done || len(w.groupKeys()) != 1 {
		t.Fatalf("joining the restarted BSS: handshake %v, %d group keys", w.done, len(w.groupKeys()))
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

// TestRestartSecuredBSS: the secured guest BSS restarts with a new
// passphrase and a group rekey interval: its station is deauthenticated,
// the BSS has a new authenticator with a fresh GTK and its rekey timer
// running, and a station joins it again with the new passphrase only;
// the WPA2 main BSS keeps its station, its GTK and PNs, and its station
// keeps passing data. The guest BSS then turns open and secured again.
func TestRestartSecuredBSS(t *testing.T) {
	h := newHarness(t, twoWPA2(t))
	wm, _ := connectBoth(h)
	mainRSN, mainGTK, oldGuest := h.a.radios[0].rsn, h.a.radios[0].rsn.gtk, h.a.radios[1].rsn
	mainPN := mainGTK.LastPN()
	h.take()
	h.takeEvents()

	const newPass = "the guest's new passphrase"
	secured := BSSConfig{Name: "guest", SSID: "guest", RSN: &RSNConfig{Passphrase: bss.NewPassphrase(newPass), GroupRekey: time.Hour, Rand: newSeeded(11)}}
	if err := h.a.RestartBSS(h.now, 1, secured); err != nil {
		t.Fatal(err)
	}
	h.collect()
	out, _ := h.take()
	findMgmt(t, out, ieee80211.SubtypeDeauth, guestSTA)
	g := h.a.radios[1].rsn
	switch {
	case g == nil || g == oldGuest || g.gtk == nil || g.gtk == oldGuest.gtk:
		t.Fatal("the guest BSS has not a new RSN with its own GTK")
	case !g.hasDeadline || g.deadline != h.now+time.Hour:
		t.Errorf("the guest BSS's group rekey is not due an hour from now (%v %v)", g.hasDeadline, g.deadline)
	case !slices.Equal(h.a.rsns, []*rsnState{mainRSN, g}):
		t.Error("the radio's secured BSSes are not the main and the new guest RSN, in order")
	case h.a.bsses[1].Associated != 0 || h.a.bss.Associated != 1:
		t.Errorf("associated: guest %d, main %d", h.a.bsses[1].Associated, h.a.bss.Associated)
	case h.a.radios[0].rsn != mainRSN || mainRSN.gtk != mainGTK || mainGTK.LastPN() != mainPN:
		t.Error("the main BSS's RSN, GTK or its PN changed")
	}
	if ev := h.takeEvents(); len(ev) != 1 || ev[0].Addr != guestSTA {
		t.Errorf("events %+v, want the guest station's disconnection alone", ev)
	}

	// The main station keeps passing data.
	wm.send(0x0800, ipv4(0), true)
	if _, w := h.take(); len(w) != 1 {
		t.Errorf("the main station: %d frames to the wired side, want 1", len(w))
	}

	// The old passphrase fails, the new one joins.
	old := joinBSS(h, guestSTA, 1, rsn.AKMPSK)
	old.associate(guestPassphrase)
	pumpAll(h, old, wm)
	if old.done {
		t.Fatal("the guest BSS took its old passphrase")
	}
	fresh := joinBSS(h, ieee80211.MAC{0x02, 0, 0, 0, 0x20, 7}, 1, rsn.AKMPSK)
	fresh.associate(newPass)
	pumpAll(h, fresh, wm)
	if !fresh.done || len(fresh.groupKeys()) != 1 || len(wm.groupKeys()) != 1 {
		t.Fatalf("with the new passphrase: handshake %v, %d group keys; main station %d", fresh.done, len(fresh.groupKeys()), len(wm.groupKeys()))
	}

	// Open, then secured again.
	if err := h.a.RestartBSS(h.now, 1, BSSConfig{Name: "guest", SSID: "guest"}); err != nil {
		t.Fatal(err)
	}
	if h.a.radios[1].rsn != nil || h.a.bsses[1].Profile.RSNE != nil || !slices.Equal(h.a.rsns, []*rsnState{mainRSN}) {
		t.Fatal("the guest BSS turned open still has an RSN")
	}
	keys, err := DerivePSKs(secured.RSN, secured.SSID) // as a reload derives them, off the loop
	if err != nil {
		t.Fatal(err)
	}
	if err := h.a.RestartBSSWith(h.now, 1, secured, keys); err != nil {
		t.Fatal(err)
	}
	if g := h.a.radios[1].rsn; g == nil || g.gtk == nil || !bytes.Equal(h.a.bsses[1].Profile.RSNE, g.ie) || len(h.a.rsns) != 2 {
		t.Fatal("the guest BSS secured again has no RSN, GTK or RSNE")
	}
	if h.a.bss.Associated != 1 || mainRSN.gtk != mainGTK {
		t.Error("the main BSS lost its station or its GTK")
	}
	again := joinBSS(h, ieee80211.MAC{0x02, 0, 0, 0, 0x20, 6}, 1, rsn.AKMPSK)
	again.associate(newPass)
	pumpAll(h, again, wm)
	if !again.done {
		t.Fatal("the passphrase of the keys derived beforehand does not join")
	}
}

// TestRestartSAEBSS: an SAE guest BSS restarted with a new SSID and
// password: its PMKSA cache starts empty, a job the driver held for the
// old authenticator comes back to nobody, and a station authenticates
// with the new password and the new SSID's password element only.
func TestRestartSAEBSS(t *testing.T) {
	h := newHarness(t, twoSAE(t, false))
	w := joinBSS(h, guestSTA, 1, rsn.AKMSAE)
	w.mfp = true
	keys, status := w.saeAuth(saePassword, 19, true)
	if keys == nil || w.saeAssociate(&keys.PMK, nil) != 0 || h.a.radios[1].sae().pmksa.Len() != 1 {
		t.Fatalf("SAE with the guest BSS: status %d", status)
	}
	// A Commit whose job the driver holds over the restart.
	late := joinBSS(h, ieee80211.MAC{0x02, 0, 0, 0, 0x20, 8}, 1, rsn.AKMSAE)
	g, _ := sae.GroupByID(19)
	st, err := sae.NewStation(g, sae.MAC(late.addr), sae.MAC(guest2ID), []byte("guest"), []byte(saePassword), nil, true)
	if err != nil {
		t.Fatal(err)
	}
	f, err := st.Commit(newSeeded(40))
	if err != nil {
		t.Fatal(err)
	}
	late.sendSAE(f)
	if len(h.saeJobs) != 1 {
		t.Fatalf("%d SAE jobs with the driver, want 1", len(h.saeJobs))
	}
	// And one still queued for the next Flush: cancelled with its BSS.
	queued := joinBSS(h, ieee80211.MAC{0x02, 0, 0, 0, 0x20, 9}, 1, rsn.AKMSAE)
	if f, err = st.Commit(newSeeded(41)); err != nil {
		t.Fatal(err)
	}
	b := ieee80211.AppendAuth(queued.mgmtHeader(ieee80211.SubtypeAuth), authSAE, f.Transaction, f.Status)
	h.a.HandleRadio(h.now, append(radiotapRx(), append(b, f.Body...)...))
	// And one received in the same batch, still in the BSS's queue of
	// frames: it goes with the BSS, never worked.
	waiting := joinBSS(h, ieee80211.MAC{0x02, 0, 0, 0, 0x20, 10}, 1, rsn.AKMSAE)
	if f, err = st.Commit(newSeeded(42)); err != nil {
		t.Fatal(err)
	}
	b = ieee80211.AppendAuth(waiting.mgmtHeader(ieee80211.SubtypeAuth), authSAE, f.Transaction, f.Status)
	h.a.HandleRadio(h.now, append(radiotapRx(), append(b, f.Body...)...))
	h.a.Tick(h.now)
	if h.a.saeQueued != 1 || h.a.radios[1].sae().frames.Len() != 1 {
		t.Fatalf("%d SAE jobs queued, %d frames; want 1 and 1", h.a.saeQueued, h.a.radios[1].sae().frames.Len())
	}

	const newPassword = "a new guest password"
	c := saeConfig(t, sae.BothMethods).RSN
	c.SAE.Passwords = []sae.Password{{Password: []byte(newPassword), AnyPeer: true}}
	if err := h.a.RestartBSS(h.now, 1, BSSConfig{SSID: "guest2", RSN: c}); err != nil {
		t.Fatal(err)
	}
	if h.a.saeQueued != 0 {
		t.Errorf("%d SAE jobs still queued for the restarted BSS", h.a.saeQueued)
	}
	h.collect()
	h.take()
	h.runSAEJobs()
	if out := h.saeFrames(late.addr); len(out) != 0 {
		t.Errorf("the old authenticator's job answered: %+v", out)
	}
	h.advance(time.Second)
	h.runSAEJobs()
	if out := h.saeFrames(waiting.addr); len(out) != 0 || h.a.radios[1].sae().frames.Len() != 0 {
		t.Errorf("a frame queued before the restart answered after it: %+v", out)
	}
	if n := h.a.radios[1].sae().pmksa.Len(); n != 0 || h.a.bsses[1].Associated != 0 {
		t.Fatalf("after the restart: %d PMKSAs, %d associated", n, h.a.bsses[1].Associated)
	}
	if keys, status := w.saeAuth(saePassword, 19, true); keys != nil || status != sae.StatusChallengeFail {
		t.Errorf("the old password: keys %v, status %d; want 15", keys != nil, status)
	}
	if keys, status := w.saeAuthAs("guest", newPassword, 19, true); keys != nil || status != sae.StatusChallengeFail {
		t.Errorf("the old SSID's password element: keys %v, status %d; want 15", keys != nil, status)
	}
	keys, status = w.saeAuth(newPassword, 19, true)
	if keys == nil {
		t.Fatalf("the new password and SSID: status %d", status)
	}
	if st := w.saeAssociate(&keys.PMK, nil); st != 0 || !w.done || h.a.bsses[1].Associated != 1 {
		t.Fatalf("association status %d, handshake %v", st, w.done)
	}
}
