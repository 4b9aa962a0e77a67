package ap

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/sae"
)

// Several secured BSSes on one radio, each with its own RSN, as hostapd's
// bss= sections: the first BSS is "airq-test" at bssid, the second
// "guest" at guest2ID.

const guestPassphrase = "guest network passphrase"

var (
	mainSTA  = ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	guestSTA = ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}
)

// guestWPA2 is a WPA2-PSK section for the second BSS with its own
// passphrase and random source.
func guestWPA2() *RSNConfig {
	return &RSNConfig{Passphrase: bss.NewPassphrase(guestPassphrase), Rand: newSeeded(9)}
}

// twoWPA2 is a radio whose two BSSes are WPA2-Personal with different
// passphrases.
func twoWPA2(t testing.TB) Config {
	c := wpaConfig(t, rsn.AKMPSK)
	c.BSSes = []BSSConfig{{BSSID: guest2ID, SSID: "guest", RSN: guestWPA2()}}
	return c
}

// joinBSS makes a station of BSS i offering akm.
func joinBSS(h *harness, addr ieee80211.MAC, i int, akm rsn.AKM) *wpaSTA {
	w := newWPASTA(h, addr, akm)
	w.bss = i
	return w
}

// pumpAll delivers the AP's frames to the stations they are for (a group
// frame to the stations of the BSS that sent it) until the air is quiet.
func pumpAll(h *harness, ws ...*wpaSTA) {
	h.settle(100, func(b []byte) {
		_, fr := parsed(h.t, b)
		for _, w := range ws {
			if fr.Addr1() == w.addr || fr.Addr1().IsMulticast() && fr.Addr2() == w.bssid() {
				if fr.Type() == ieee80211.TypeData && !fr.IsNullData() {
					w.receive(fr)
				}
			}
		}
		h.echo(b, radio.TxStatus{Acked: true})
		for _, w := range ws {
			if w.sup != nil {
				w.act()
			}
		}
	})
}

// connectBoth connects a station to each of twoWPA2's BSSes with its
// BSS's passphrase.
func connectBoth(h *harness) (main, guest *wpaSTA) {
	h.t.Helper()
	wm, wg := joinBSS(h, mainSTA, 0, rsn.AKMPSK), joinBSS(h, guestSTA, 1, rsn.AKMPSK)
	wm.associate(testPassphrase)
	pumpAll(h, wm, wg)
	wg.associate(guestPassphrase)
	pumpAll(h, wm, wg)
	if !wm.done || !wg.done {
		h.t.Fatalf("4-way handshakes: main %v, guest %v", wm.done, wg.done)
	}
	return wm, wg
}

// groupKeys returns the group keys the station holds, by their bytes.
func (w *wpaSTA) groupKeys() [][16]byte {
	var out [][16]byte
	for _, k := range w.history {
		if k.group {
			out = append(out, w.keys[k.k])
		}
	}
	return out
}

// beaconsOf collects one beacon of each BSS of the radio.
func beaconsOf(h *harness) map[ieee80211.MAC]ieee80211.Frame {
	got := map[ieee80211.MAC]ieee80211.Frame{}
	for len(got) < len(h.a.bsses) {
		h.advance(h.a.Deadline() - h.now)
		out, _ := h.take()
		for _, f := range out {
			if _, fr := parsed(h.t, f); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
				got[fr.Addr2()] = append(ieee80211.Frame(nil), fr...)
			}
		}
	}
	return got
}

// TestSecuredBSSesOwnPassphrases: two WPA2 BSSes of one radio, each
// beaconing its own RSNE; a station of each completes the 4-way handshake
// with its BSS's passphrase and fails with the other's; their GTKs
// differ, and a group frame of one BSS goes under its GTK, which the
// other BSS's station cannot open.
func TestSecuredBSSesOwnPassphrases(t *testing.T) {
	h := newHarness(t, twoWPA2(t))
	for id, fr := range beaconsOf(h) {
		b, _ := ieee80211.ParseBeacon(fr.Body())
		i := slices.IndexFunc(h.a.bsses, func(x *bss.BSS) bool { return x.BSSID == id })
		e, ok := b.Elements().Find(ieee80211.ElemRSN)
		if b.Capability()&ieee80211.CapPrivacy == 0 || !ok || !bytes.Equal(rawElement(ieee80211.ElemRSN, e), h.a.radios[i].rsn.ie) {
			t.Errorf("BSS %v: beacon without its RSNE (privacy %v)", id, b.Capability()&ieee80211.CapPrivacy != 0)
		}
	}
	wm, wg := connectBoth(h)
	for i, pass := range []string{guestPassphrase, testPassphrase} {
		w := joinBSS(h, ieee80211.MAC{0x02, 0, 0, 0, 0x30, byte(i)}, i, rsn.AKMPSK)
		mismatches := h.a.cnt[counter.PSKMismatch]
		w.associate(pass)
		pumpAll(h, w)
		if w.done || h.a.cnt[counter.PSKMismatch] == mismatches {
			t.Errorf("BSS %d took the other BSS's passphrase", i)
		}
	}
	gm, gg := wm.groupKeys(), wg.groupKeys()
	if len(gm) != 1 || len(gg) != 1 || gm[0] == gg[0] {
		t.Fatalf("group keys: main %x, guest %x; want one each, different", gm, gg)
	}
	if h.a.radios[0].rsn.gtk == h.a.radios[1].rsn.gtk {
		t.Fatal("the BSSes send under one GTK")
	}
	// The main station's broadcast is relayed in its BSS alone, under its
	// GTK.
	h.take()
	h.air(wm.frameTo(ieee80211.Broadcast, 0x0800, append(ipv4(0), "main broadcast"...), true, false))
	out, _ := h.take()
	var group ieee80211.Frame
	for _, f := range out {
		if _, fr := parsed(t, f); fr.Type() == ieee80211.TypeData && fr.Addr1().IsMulticast() {
			if fr.Addr2() != bssid || group != nil {
				t.Fatalf("group frame from %v; want one, from the main BSS", fr.Addr2())
			}
			group = append(ieee80211.Frame(nil), fr...)
		}
	}
	if group == nil || !group.Protected() {
		t.Fatal("the broadcast was not relayed protected")
	}
	wm.receive(group)
	if !wm.hasPayload([]byte("main broadcast")) {
		t.Error("the main BSS's station cannot open its BSS's group frame")
	}
	lost := wg.lost
	wg.receive(group)
	if wg.lost != lost+1 || wg.hasPayload([]byte("main broadcast")) {
		t.Error("the guest station opened the main BSS's group frame")
	}
}

// TestSecuredBSSGTKRekeyAlone: the guest BSS's group rekey (its own
// timer) gives its station a new GTK and leaves the main BSS's key, its
// station and its PNs alone.
func TestSecuredBSSGTKRekeyAlone(t *testing.T) {
	cfg := twoWPA2(t)
	cfg.BSSes[0].RSN.GroupRekey = time.Second
	h := newHarness(t, cfg)
	wm, wg := connectBoth(h)
	mainGTK, guestID := h.a.radios[0].rsn.gtk, h.a.radios[1].rsn.auth.GroupKeyID()
	for range 30 {
		h.advance(50 * time.Millisecond)
		pumpAll(h, wm, wg)
	}
	if got := h.a.radios[1].rsn.auth.GroupKeyID(); got == guestID {
		t.Fatalf("the guest BSS's GTK key ID is still %d", got)
	}
	if h.a.radios[0].rsn.gtk != mainGTK || len(wm.groupKeys()) != 1 {
		t.Fatalf("the main BSS's GTK changed: station holds %d", len(wm.groupKeys()))
	}
	if g := wg.groupKeys(); len(g) != 2 || g[0] == g[1] {
		t.Fatalf("the guest station holds %d group keys", len(g))
	}
	if int(h.a.radios[1].rsn.gtk.ID()) != h.a.radios[1].rsn.auth.GroupKeyID() {
		t.Fatal("the guest BSS does not send under its new GTK")
	}
}

// TestPMFBSSBesideOpen: an open first BSS and a PMF-required second one:
// the second's MFP station gets the association SA Query under its PTK
// and its BSS's group deauthentication is signed with its BSS's IGTK,
// while the open BSS's station re-associates as before and its BSS's
// group deauthentication goes unsigned.
func TestPMFBSSBesideOpen(t *testing.T) {
	cfg := Config{WMM: true, BSSes: []BSSConfig{{BSSID: guest2ID, SSID: "guest",
		RSN: &RSNConfig{AKMs: []rsn.AKM{rsn.AKMPSKSHA256}, MFP: rsn.MFPRequired, Passphrase: bss.NewPassphrase(guestPassphrase), Rand: newSeeded(9)}}}}
	h := newHarness(t, cfg)
	if h.a.radios[0].rsn != nil || h.a.bsses[0].Profile.RSNE != nil {
		t.Fatal("the open BSS has an RSN")
	}
	w := joinBSS(h, guestSTA, 1, rsn.AKMPSKSHA256)
	w.mfp = true
	w.associate(guestPassphrase)
	w.pump()
	if !w.done || w.igtk.Key(4) == nil {
		t.Fatalf("MFP station: handshake %v, IGTK %v", w.done, w.igtk.Key(4))
	}
	h.join(mainSTA, true)
	h.take()
	h.assoc(mainSTA, "airq-test", gRates, true)
	if aid := h.acceptAssoc(mainSTA); aid == 0 {
		t.Fatal("the open BSS's station cannot associate again")
	}
	if h.a.cnt[counter.AssocComeback] != 0 {
		t.Fatal("the open BSS's station was asked to come back")
	}
	h.take()
	w.mgmt = nil
	w.assocReq()
	out, _ := h.take()
	ar, _ := h.assocResp(out, guestSTA)
	if ar.Status() != ieee80211.StatusAssocRejectedTemp {
		t.Fatalf("MFP station's association: status %d, want 30", ar.Status())
	}
	w.answerSAQuery(t, out)
	if h.a.cnt[counter.SAQueryKept] != 1 {
		t.Fatalf("SA Query: %s", h.a.cnt.String())
	}
	h.a.Shutdown(h.now)
	h.collect()
	out, _ = h.take()
	signed := map[ieee80211.MAC]bool{}
	for _, f := range out {
		if _, fr := parsed(t, f); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeDeauth) && fr.Addr1().IsBroadcast() {
			_, err := w.igtk.Open(append([]byte(nil), fr...))
			signed[fr.Addr2()] = err == nil
		}
	}
	if s, ok := signed[guest2ID]; !ok || !s {
		t.Errorf("the PMF BSS's group deauthentication: sent %v, signed with its IGTK %v", ok, s)
	}
	if s, ok := signed[bssid]; !ok || s {
		t.Errorf("the open BSS's group deauthentication: sent %v, signed %v", ok, s)
	}
}

// twoSAE is a WPA2 first BSS and an SAE second one ("guest") whose
// password is the first's passphrase; both with H2E.
func twoSAE(t testing.TB, firstSAE bool) Config {
	c := wpaConfig(t, rsn.AKMPSK)
	if firstSAE {
		c = saeConfig(t, sae.BothMethods)
	}
	g := saeConfig(t, sae.BothMethods).RSN
	g.Rand = newSeeded(9)
	c.BSSes = []BSSConfig{{BSSID: guest2ID, SSID: "guest", RSN: g}}
	return c
}

// TestSAEBSSBesideWPA2: an SAE BSS beside a WPA2 one: its station
// authenticates with the password element of its BSS's SSID (an H2E PT
// derived for the other BSS's SSID fails the Confirm), associates and completes
// AKM 8's handshake, while the WPA2 BSS keeps its PSK station.
func TestSAEBSSBesideWPA2(t *testing.T) {
	h := newHarness(t, twoSAE(t, false))
	if h.a.radios[0].sae() != nil || h.a.radios[1].sae() == nil {
		t.Fatal("SAE on the wrong BSS")
	}
	wm := joinBSS(h, mainSTA, 0, rsn.AKMPSK)
	wm.connect()
	w := joinBSS(h, guestSTA, 1, rsn.AKMSAE)
	w.mfp = true
	// Only hash-to-element's PT depends on the SSID (hunting and pecking
	// derives from the addresses and the password alone).
	if keys, status := w.saeAuthAs("airq-test", saePassword, 19, true); keys != nil || status != sae.StatusChallengeFail {
		t.Fatalf("SAE with the other BSS's SSID: keys %v, status %d; want 15", keys != nil, status)
	}
	keys, status := w.saeAuth(saePassword, 19, true)
	if keys == nil {
		t.Fatalf("SAE refused: status %d", status)
	}
	if st := w.saeAssociate(&keys.PMK, nil); st != 0 || !w.done {
		t.Fatalf("association status %d, handshake %v", st, w.done)
	}
	if _, s := h.a.sta.lookup(guestSTA); s == nil || s.bss != h.a.bsses[1] || s.RSN.HS.AKM() != rsn.AKMSAE {
		t.Fatal("the SAE station is not the guest BSS's")
	}
	// An SAE Commit to the WPA2 BSS is refused: it runs no SAE.
	h.take()
	wm2 := joinBSS(h, ieee80211.MAC{0x02, 0, 0, 0, 0x10, 2}, 0, rsn.AKMSAE)
	wm2.sendSAE(sae.Frame{Transaction: 1, Body: []byte{19, 0}})
	out, _ := h.take()
	a, err := ieee80211.ParseAuth(findMgmt(t, out, ieee80211.SubtypeAuth, wm2.addr).Body())
	if err != nil || a.Status() != ieee80211.StatusNotSupportedAuthAlg {
		t.Fatalf("SAE to the WPA2 BSS: status %d, %v", a.Status(), err)
	}
}

// TestPMKSAPerBSS: a PMKSA from an SAE exchange with one BSS is cached in
// that BSS's cache alone: naming its PMKID in an association with the
// other BSS gets status 53, with its own BSS the station associates
// without SAE.
func TestPMKSAPerBSS(t *testing.T) {
	h := newHarness(t, twoSAE(t, true))
	w := joinBSS(h, guestSTA, 1, rsn.AKMSAE)
	w.mfp = true
	keys, status := w.saeAuth(saePassword, 19, true)
	if keys == nil {
		t.Fatalf("SAE refused: status %d", status)
	}
	id := rsn.PMKID(keys.PMKID)
	if st := w.saeAssociate(&keys.PMK, &id); st != 0 || !w.done {
		t.Fatalf("association status %d", st)
	}
	if h.a.radios[1].sae().pmksa.Len() != 1 || h.a.radios[0].sae().pmksa.Len() != 0 {
		t.Fatalf("PMKSAs: first BSS %d, guest %d", h.a.radios[0].sae().pmksa.Len(), h.a.radios[1].sae().pmksa.Len())
	}
	// To the first BSS with the guest's PMKID: Open System, then 53. It
	// leaves the guest BSS first as mac80211 does, deauthenticating under
	// its keys (an MFP association outlives unprotected frames).
	h.air(w.mgmtFrame(ieee80211.SubtypeDeauth, ieee80211.AppendDeauth(nil, ieee80211.ReasonDeauthLeaving), true))
	w.bss, w.done = 0, false
	h.take()
	h.authTo(bssid, w.addr, 0, 1)
	if st := w.saeAssociate(&keys.PMK, &id); st != statusInvalidPMKID {
		t.Fatalf("the guest's PMKID at the first BSS: status %d, want 53", st)
	}
	// Back to the guest BSS by PMKSA caching.
	w.bss = 1
	hits := h.a.cnt[counter.SAEPMKSAHits]
	h.take()
	h.authTo(guest2ID, w.addr, 0, 1)
	if st := w.saeAssociate(&keys.PMK, &id); st != 0 || !w.done || h.a.cnt[counter.SAEPMKSAHits] != hits+1 {
		t.Fatalf("PMKSA caching with the guest BSS: status %d, handshake %v", st, w.done)
	}
}

// TestSetPSKsForOneBSS: a PSK reload of the guest BSS changes its keys
// alone: its station, whose PMK is gone, is returned; the main BSS's
// station and PSKs stay.
func TestSetPSKsForOneBSS(t *testing.T) {
	h := newHarness(t, twoWPA2(t))
	connectBoth(h)
	p, err := DerivePSKs(&RSNConfig{Passphrase: bss.NewPassphrase("a new guest passphrase")}, "guest")
	if err != nil {
		t.Fatal(err)
	}
	mainPSKs := h.a.radios[0].rsn.psks.PMKs(nil, mainSTA)
	gone, err := h.a.SetPSKsFor(1, p)
	if err != nil || !slices.Equal(gone, []ieee80211.MAC{guestSTA}) {
		t.Fatalf("SetPSKsFor(1): %v, %v; want the guest station", gone, err)
	}
	if !slices.Equal(h.a.radios[0].rsn.psks.PMKs(nil, mainSTA), mainPSKs) {
		t.Fatal("the main BSS's PSKs changed")
	}
	if _, err := h.a.SetPSKsFor(2, p); err == nil {
		t.Fatal("SetPSKsFor a BSS the radio does not carry")
	}
}

// TestSAEReloadForOneBSS: new SAE passwords for the guest BSS flush its
// PMKSA cache and run its next exchange under them, while the first BSS
// keeps its cache and its password.
func TestSAEReloadForOneBSS(t *testing.T) {
	h := newHarness(t, twoSAE(t, true))
	for i, addr := range []ieee80211.MAC{mainSTA, guestSTA} {
		w := joinBSS(h, addr, i, rsn.AKMSAE)
		if keys, status := w.saeAuth(saePassword, 19, true); keys == nil {
			t.Fatalf("BSS %d: SAE refused: status %d", i, status)
		}
	}
	next := *h.a.cfg.BSSes[0].RSN
	next.SAE = &SAEConfig{Passwords: []sae.Password{{Password: []byte("a new guest password"), AnyPeer: true}}, PWE: sae.BothMethods}
	p, err := DerivePSKs(h.a.cfg.BSSes[0].RSN.Reloaded(&next), "guest")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.a.SetPSKsFor(1, p); err != nil {
		t.Fatal(err)
	}
	if n0, n1 := h.a.radios[0].sae().pmksa.Len(), h.a.radios[1].sae().pmksa.Len(); n0 != 1 || n1 != 0 {
		t.Fatalf("PMKSAs after the guest's reload: first BSS %d, guest %d; want 1 and 0", n0, n1)
	}
	w := joinBSS(h, ieee80211.MAC{0x02, 0, 0, 0, 0x20, 2}, 1, rsn.AKMSAE)
	if keys, _ := w.saeAuth(saePassword, 19, true); keys != nil {
		t.Fatal("the guest BSS took its old password")
	}
	if keys, status := w.saeAuth("a new guest password", 19, true); keys == nil {
		t.Fatalf("the guest BSS refused its new password: status %d", status)
	}
	w = joinBSS(h, ieee80211.MAC{0x02, 0, 0, 0, 0x10, 2}, 0, rsn.AKMSAE)
	if keys, status := w.saeAuth(saePassword, 19, true); keys == nil {
		t.Fatalf("the first BSS refused its password after the guest's reload: status %d", status)
	}
}

// TestAssocWithAnotherBSSIsAStrangers: a station authenticated with one
// BSS that asks another BSS of the radio for an association is unknown
// there (each BSS has its own stations and keys, as hostapd's separate
// tables): it gets a deauthentication with reason 6 from that BSS, and
// keeps its entry in its own.
func TestAssocWithAnotherBSSIsAStrangers(t *testing.T) {
	h := newHarness(t, twoWPA2(t))
	h.authTo(guest2ID, guestSTA, 0, 1)
	h.take()
	h.assoc(guestSTA, "airq-test", gRates, true) // to the first BSS
	out, _ := h.take()
	d := findMgmt(t, out, ieee80211.SubtypeDeauth, guestSTA)
	if d.Addr2() != bssid || len(d.Body()) < 2 || d.Body()[0] != ieee80211.ReasonClass2FromNonAuth {
		t.Fatalf("deauthentication from %v, body %x; want the first BSS's, reason 6", d.Addr2(), d.Body())
	}
	if _, s := h.a.sta.lookup(guestSTA); s == nil || s.bss != h.a.bsses[1] || s.State != bss.StateAuthenticated {
		t.Fatal("the station lost its authentication with its own BSS")
	}
}

// TestSAEWithAnotherBSSMovesTheStation: an MFP station associated with
// the first BSS that leaves it (deauthenticating under its keys, as
// mac80211 does) and completes SAE with the guest BSS becomes the
// guest's, authenticated with the new exchange's keys, and associates
// there. An SAE exchange with the guest BSS in its name while it is
// still associated leaves it the first BSS's: the guest's password is
// no proof that the frames are the station's (crossbss_test.go).
func TestSAEWithAnotherBSSMovesTheStation(t *testing.T) {
	h := newHarness(t, twoSAE(t, true))
	w := saeStation(t, h)
	h.air(w.mgmtFrame(ieee80211.SubtypeDeauth, ieee80211.AppendDeauth(nil, ieee80211.ReasonDeauthLeaving), true))
	w.bss, w.done = 1, false
	keys, status := w.saeAuth(saePassword, 19, true)
	if keys == nil {
		t.Fatalf("SAE with the guest BSS refused: status %d", status)
	}
	if _, s := h.a.sta.lookup(mainSTA); s == nil || s.bss != h.a.bsses[1] || s.State != bss.StateAuthenticated {
		t.Fatal("the station is not the guest BSS's after its SAE exchange there")
	}
	if st := w.saeAssociate(&keys.PMK, nil); st != 0 || !w.done {
		t.Fatalf("association with the guest BSS: status %d, handshake %v", st, w.done)
	}
}
