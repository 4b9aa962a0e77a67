package ap

import (
	"bytes"
	"testing"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/rsn/handshake"
	"github.com/airq/airq/sae"
)

// The harness runs SAE jobs itself, when the test says, as the shell's
// worker does off the loop.
func (h *harness) RunSAE(jobs []*sae.Job) { h.saeJobs = append(h.saeJobs, jobs...) }

// runSAEJobs runs the jobs handed over and gives them back.
func (h *harness) runSAEJobs() {
	jobs := h.saeJobs
	h.saeJobs = nil
	for _, j := range jobs {
		j.Run(nil)
		h.a.HandleSAEDone(h.now, j)
	}
	h.collect()
}

const saePassword = "correct horse battery staple"

// saeConfig is an SAE BSS (ieee80211w=2) with one password; akms adds
// WPA-PSK for transition mode (then ieee80211w=1).
func saeConfig(t testing.TB, pwe sae.PWEMode, akms ...rsn.AKM) Config {
	mfp := rsn.MFPRequired
	if len(akms) > 0 {
		mfp = rsn.MFPOptional
	}
	return Config{WMM: true, RSN: &RSNConfig{AKMs: append(akms, rsn.AKMSAE), MFP: mfp,
		PSKs: []bss.PSK{{PMK: ptr(testPMK(t, testPassphrase))}}, Rand: newSeeded(1),
		SAE: &SAEConfig{Passwords: []sae.Password{{Password: []byte(saePassword), AnyPeer: true}},
			Groups: []uint16{19, 20}, PWE: pwe, Sync: 3, AntiCloggingThreshold: 5}}}
}

// saeFrames returns the SAE Authentication frames the AP sent to addr.
func (h *harness) saeFrames(addr ieee80211.MAC) []sae.Frame {
	var out []sae.Frame
	for _, b := range h.radio {
		_, fr := parsed(h.t, b)
		if !fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeAuth) || fr.Addr1() != addr {
			continue
		}
		a, err := ieee80211.ParseAuth(fr.Body())
		if err != nil || a.Algorithm() != authSAE {
			continue
		}
		out = append(out, sae.Frame{Transaction: a.Transaction(), Status: a.Status(), Body: append([]byte(nil), a[6:]...)})
	}
	return out
}

// sendSAE sends the station's SAE frame to the AP.
func (h *harness) sendSAE(from ieee80211.MAC, f sae.Frame) {
	b := ieee80211.AppendAuth(h.mgmt(ieee80211.SubtypeAuth, from), authSAE, f.Transaction, f.Status)
	h.airTick(append(b, f.Body...))
}

// sendSAE sends the station's SAE frame to its BSS.
func (w *wpaSTA) sendSAE(f sae.Frame) {
	b := ieee80211.AppendAuth(w.mgmtHeader(ieee80211.SubtypeAuth), authSAE, f.Transaction, f.Status)
	w.h.airTick(append(b, f.Body...))
}

// airTick hands frame to the core as a batch of the shell's loop: the
// frame, then Tick (which works a queued SAE frame that is due), then
// Flush.
func (h *harness) airTick(frame []byte) {
	h.a.HandleRadio(h.now, append(radiotapRx(), frame...))
	h.a.Tick(h.now)
	h.collect()
}

// saeAuth runs an SAE exchange with the AP; it returns the station's keys
// and the AP's last status (0 when accepted).
func (w *wpaSTA) saeAuth(password string, group uint16, h2e bool) (*sae.Keys, uint16) {
	return w.saeAuthAs(w.ssid(), password, group, h2e)
}

// saeAuthAs is saeAuth with the password element derived for ssid.
func (w *wpaSTA) saeAuthAs(ssid, password string, group uint16, h2e bool) (*sae.Keys, uint16) {
	h := w.h
	h.t.Helper()
	g, _ := sae.GroupByID(group)
	st, err := sae.NewStation(g, sae.MAC(w.addr), sae.MAC(w.bssid()), []byte(ssid), []byte(password), nil, h2e)
	if err != nil {
		h.t.Fatal(err)
	}
	rng := newSeeded(byte(7 + h.seq)) // a fresh rand and mask per exchange: a repeated scalar is refused
	f, err := st.Commit(rng)
	if err != nil {
		h.t.Fatal(err)
	}
	next := &f
	for range 6 {
		h.take()
		w.sendSAE(*next)
		h.runSAEJobs()
		replies := h.saeFrames(w.addr)
		next = nil
		for _, r := range replies {
			if r.Status != 0 && r.Status != sae.StatusSAEHashToElement && r.Status != sae.StatusAntiCloggingToken {
				return nil, r.Status
			}
			reply, keys, err := st.Handle(rng, r)
			if err != nil {
				h.t.Fatalf("station: %v", err)
			}
			if keys != nil {
				return keys, 0
			}
			if reply != nil {
				next = reply
			}
		}
		if next == nil {
			return nil, 0xffff // nothing more came
		}
	}
	h.t.Fatal("the SAE exchange does not end")
	return nil, 0
}

// saeAssociate associates with AKM SAE (naming pmkid if given) and runs
// the 4-way handshake with pmk; it returns the association status.
func (w *wpaSTA) saeAssociate(pmk *[sae.PMKLen]byte, pmkid *rsn.PMKID) uint16 {
	h := w.h
	h.t.Helper()
	w.akm = rsn.AKMSAE
	rsne := w.rsne()
	if pmkid != nil {
		e, _ := rsn.ParseElement(rsne)
		e.PMKIDs, e.Last = []rsn.PMKID{*pmkid}, rsn.FieldPMKID
		rsne = e.Append(nil)
	}
	b := ieee80211.AppendAssocReq(w.mgmtHeader(ieee80211.SubtypeAssocReq), 0x0431, 10)
	b = ieee80211.AppendSSID(b, w.ssid())
	b = ieee80211.AppendRates(b, gRates)
	b = append(b, rsne...)
	b = ieee80211.AppendWMMInfo(b, 0)
	h.take()
	h.air(b)
	out, _ := h.take()
	ar, raw := h.assocResp(out, w.addr)
	if ar.Status() != 0 {
		return ar.Status()
	}
	r := h.a.radios[w.bss].rsn
	sup, err := handshake.NewSupplicant(handshake.SupplicantConfig{SPA: w.addr, AA: w.bssid(), PMK: rsn.PMK(*pmk),
		RSNE: rsne, APRSNE: r.policy.Element(), APRSNXE: r.policy.RSNXElement(), Rand: newSeeded(2)})
	if err != nil {
		h.t.Fatal(err)
	}
	w.sup = sup
	h.echo(raw, radioAcked)
	w.pump()
	return 0
}

// An SAE station of either method and group authenticates, associates,
// completes AKM 8's handshake with the exchange's PMK and carries data.
func TestSAEStationConnects(t *testing.T) {
	for _, c := range []struct {
		pwe   sae.PWEMode
		h2e   bool
		group uint16
	}{{sae.HuntAndPeck, false, 19}, {sae.HashToElement, true, 19}, {sae.BothMethods, true, 20}, {sae.BothMethods, false, 20}} {
		h := newHarness(t, saeConfig(t, c.pwe))
		w := newWPASTA(h, staMAC, rsn.AKMSAE)
		w.mfp = true
		keys, status := w.saeAuth(saePassword, c.group, c.h2e)
		if keys == nil {
			t.Fatalf("%+v: SAE refused with status %d", c, status)
		}
		if keys.Group != c.group || keys.H2E != c.h2e {
			t.Fatalf("%+v: keys %v", c, keys)
		}
		id := rsn.PMKID(keys.PMKID)
		if st := w.saeAssociate(&keys.PMK, &id); st != 0 {
			t.Fatalf("%+v: association status %d", c, st)
		}
		if !w.done || w.ptk == nil {
			t.Fatalf("%+v: 4-way handshake not completed", c)
		}
		if m1, ok := w.sup.Message1PMKID(); !ok || m1 != id {
			t.Fatalf("%+v: message 1 PMKID %x", c, m1)
		}
		if n := h.a.Counters()[counter.SAEAccepted]; n != 1 {
			t.Fatalf("%+v: %d accepted", c, n)
		}
		// Data both ways under the PTK.
		h.wire(eth(staMAC, host, 0))
		w.pump()
		if len(w.plain) == 0 {
			t.Fatalf("%+v: no downlink data", c)
		}
		w.send(0x0800, ipv4(0), true)
		if _, wired := h.take(); len(wired) != 1 {
			t.Fatalf("%+v: %d uplink frames bridged", c, len(wired))
		}
	}
}

// A wrong password fails at the Confirm: status 15, counted, and the
// station never gets an entry to associate with.
func TestSAEWrongPassword(t *testing.T) {
	h := newHarness(t, saeConfig(t, sae.HuntAndPeck))
	w := newWPASTA(h, staMAC, rsn.AKMSAE)
	w.mfp = true
	keys, status := w.saeAuth("not the password", 19, false)
	if keys != nil || status != sae.StatusChallengeFail {
		t.Fatalf("wrong password: keys %v status %d, want 15", keys, status)
	}
	if h.a.Counters()[counter.SAEConfirmMismatch] != 1 || h.a.Counters()[counter.SAEAccepted] != 0 {
		t.Error("the mismatch is not counted")
	}
	if _, s := h.a.sta.lookup(staMAC); s != nil {
		t.Error("a station entry after a failed exchange")
	}
	evs := h.takeEvents()
	if len(evs) != 1 || evs[0].Kind != EventSAEFailed || evs[0].Reason != 15 || evs[0].Why != "SAE confirm mismatch: wrong password likely" {
		t.Errorf("events %+v", evs)
	}
}

// Reconnecting with a cached PMKID skips SAE: Open System authentication,
// the PMKID in the association, the handshake with the cached PMK, a hit
// counted. An unknown PMKID gets status 53, as does AKM SAE after Open
// System authentication without any.
func TestSAEPMKSACaching(t *testing.T) {
	h := newHarness(t, saeConfig(t, sae.HashToElement))
	w := newWPASTA(h, staMAC, rsn.AKMSAE)
	w.mfp = true
	keys, _ := w.saeAuth(saePassword, 19, true)
	if keys == nil {
		t.Fatal("SAE refused")
	}
	id := rsn.PMKID(keys.PMKID)
	if st := w.saeAssociate(&keys.PMK, &id); st != 0 || !w.done {
		t.Fatalf("first association %d", st)
	}
	// The AP lets it go (an MFP station's unprotected deauthentication
	// would be ignored), then it comes back with Open System and the
	// PMKID.
	slot, _ := h.a.sta.lookup(staMAC)
	h.a.disconnect(h.now, slot, ieee80211.ReasonDeauthLeaving, "test", true)
	// Gone, its PMK is still the PMKSA's: GET_PMK answers from the cache,
	// as hostapd's.
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationPMK, Addr: staMAC}); r.Err() != nil || !bytes.Equal(r.PMK, keys.PMK[:]) {
		t.Errorf("GET_PMK of a station gone: %x, %v; want the PMKSA's PMK", r.PMK, r.Err())
	}
	w = newWPASTA(h, staMAC, rsn.AKMSAE)
	w.mfp = true
	h.auth(staMAC, authOpenSystem, 1)
	if st := w.saeAssociate(&keys.PMK, &id); st != 0 || !w.done {
		t.Fatalf("reassociation with the PMKSA: status %d done %v", st, w.done)
	}
	if n := h.a.Counters()[counter.SAEPMKSAHits]; n != 1 {
		t.Errorf("%d PMKSA hits", n)
	}
	if n := h.a.Counters()[counter.SAEAccepted]; n != 1 {
		t.Errorf("%d SAE exchanges, want the first only", n)
	}
	// Authenticated by Open System: no SAE exchange's group, as hostapd's
	// STA reply has no sae_group= for a station back on its PMKSA.
	slot, _ = h.a.sta.lookup(staMAC)
	if st := h.a.ctlStation(h.now, slot, nil); st.SAEAuthGroup != 0 || st.SAEGroup != 19 {
		t.Errorf("back on its PMKSA: SAE exchange's group %d (want 0), group %d (want 19)", st.SAEAuthGroup, st.SAEGroup)
	}
	other := ieee80211.MAC{2, 0, 0, 0, 9, 9}
	for _, pmkid := range []*rsn.PMKID{{0xba, 0xd}, nil} {
		x := newWPASTA(h, other, rsn.AKMSAE)
		x.mfp = true
		h.auth(other, authOpenSystem, 1)
		if st := x.saeAssociate(&keys.PMK, pmkid); st != statusInvalidPMKID {
			t.Errorf("Open System, PMKID %v: status %d, want 53", pmkid, st)
		}
	}
}

// A transition BSS serves a WPA-PSK station and an SAE station at once.
func TestSAETransitionMode(t *testing.T) {
	h := newHarness(t, saeConfig(t, sae.BothMethods, rsn.AKMPSK))
	psk := newWPASTA(h, ieee80211.MAC{2, 0, 0, 0, 1, 1}, rsn.AKMPSK)
	psk.associate(testPassphrase)
	psk.pump()
	if !psk.done {
		t.Fatal("the WPA-PSK station did not complete")
	}
	w := newWPASTA(h, staMAC, rsn.AKMSAE)
	w.mfp = true
	keys, _ := w.saeAuth(saePassword, 19, true)
	if keys == nil {
		t.Fatal("SAE refused")
	}
	if st := w.saeAssociate(&keys.PMK, nil); st != 0 || !w.done {
		t.Fatalf("SAE station: status %d", st)
	}
	// A station that authenticated by SAE cannot then associate with
	// WPA-PSK.
	x := newWPASTA(h, ieee80211.MAC{2, 0, 0, 0, 3, 3}, rsn.AKMSAE)
	x.mfp = true
	if k, _ := x.saeAuth(saePassword, 19, false); k == nil {
		t.Fatal("SAE refused")
	}
	x.akm = rsn.AKMPSK
	if st := x.assocStatus(nil); st != ieee80211.StatusInvalidAKMP {
		t.Errorf("WPA-PSK after SAE: status %d, want 43", st)
	}
}

// assocStatus sends an association request with the station's RSNE and
// extra elements and returns the status of the AP's answer.
func (w *wpaSTA) assocStatus(extra []byte) uint16 {
	h := w.h
	b := ieee80211.AppendAssocReq(h.mgmt(ieee80211.SubtypeAssocReq, w.addr), 0x0431, 10)
	b = ieee80211.AppendSSID(b, h.a.cfg.SSID)
	b = ieee80211.AppendRates(b, gRates)
	b = append(append(b, w.rsne()...), extra...)
	h.take()
	h.air(b)
	out, _ := h.take()
	ar, _ := h.assocResp(out, w.addr)
	return ar.Status()
}

// With sae_pwe=2, a station that ran hunting and pecking while its RSNXE
// says it can do H2E is refused at association (a downgrade).
func TestSAEDowngradeRefused(t *testing.T) {
	h := newHarness(t, saeConfig(t, sae.BothMethods))
	w := newWPASTA(h, staMAC, rsn.AKMSAE)
	w.mfp = true
	keys, _ := w.saeAuth(saePassword, 19, false)
	if keys == nil {
		t.Fatal("SAE refused")
	}
	if st := w.assocStatus([]byte{rsn.ElemRSNX, 1, 0x20}); st != ieee80211.StatusUnspecified {
		t.Errorf("H&P with an H2E RSNXE: status %d, want 1", st)
	}
}

// The beacon carries the RSNXE's H2E bit with sae_pwe 1 or 2 only.
func TestSAEBeaconRSNXE(t *testing.T) {
	for _, c := range []struct {
		pwe  sae.PWEMode
		id   bool // a password with an identifier, which needs H2E
		want bool
	}{{sae.HuntAndPeck, false, false}, {sae.HashToElement, false, true}, {sae.BothMethods, false, true}, {sae.HuntAndPeck, true, true}} {
		cfg := saeConfig(t, c.pwe)
		if c.id {
			cfg.RSN.SAE.Passwords = append(cfg.RSN.SAE.Passwords, sae.Password{Password: []byte("guest pw"), Identifier: []byte("guest"), AnyPeer: true})
		}
		h := newHarness(t, cfg)
		out, _ := h.take()
		_, fr := parsed(t, out[0])
		ies := ieee80211.Elements(fr.Body()[12:])
		var rsnxe []byte
		it := ies.Iter()
		for it.Next() {
			if it.ID() == rsn.ElemRSNX {
				rsnxe = rawElement(rsn.ElemRSNX, it.Body())
			}
		}
		if rsn.RSNXH2E(rsnxe) != c.want {
			t.Errorf("sae_pwe %d, identifier %v: RSNXE %x", c.pwe, c.id, rsnxe)
		}
	}
}

// A reload's SAE passwords (their PTs derived off the loop, by
// ReloadPSKs) replace the old: the old password fails, the new one works,
// and the PMKSA cache, from the old password, is flushed. Settings other
// than the passwords stay as they run.
func TestSAEReloadPasswords(t *testing.T) {
	cfg := saeConfig(t, sae.HashToElement)
	h := newHarness(t, cfg)
	w := newWPASTA(h, staMAC, rsn.AKMSAE)
	w.mfp = true
	keys, _ := w.saeAuth(saePassword, 19, true)
	if keys == nil {
		t.Fatal("SAE refused")
	}
	next := *cfg.RSN
	nextSAE := *cfg.RSN.SAE
	nextSAE.Passwords = []sae.Password{{Password: []byte("a new password"), AnyPeer: true}}
	nextSAE.Groups = []uint16{21} // not reloaded
	next.SAE = &nextSAE
	p, err := ReloadPSKs(cfg.RSN, &next, h.a.cfg.SSID)
	if err != nil || p == nil {
		t.Fatalf("ReloadPSKs: %v %v", p, err)
	}
	if _, err := h.a.SetPSKs(p); err != nil {
		t.Fatal(err)
	}
	if n := h.a.radios[0].rsn.sae.pmksa.Len(); n != 0 {
		t.Errorf("%d PMKSAs kept across a password change", n)
	}
	other := ieee80211.MAC{2, 0, 0, 0, 7, 7}
	x := newWPASTA(h, other, rsn.AKMSAE)
	if k, st := x.saeAuth(saePassword, 19, true); k != nil || st != sae.StatusChallengeFail {
		t.Errorf("old password after the reload: keys %v status %d", k, st)
	}
	y := newWPASTA(h, ieee80211.MAC{2, 0, 0, 0, 8, 8}, rsn.AKMSAE)
	if k, st := y.saeAuth("a new password", 19, true); k == nil {
		t.Errorf("new password refused with %d", st)
	}
	if same, _ := ReloadPSKs(&next, &next, h.a.cfg.SSID); same != nil {
		t.Error("an unchanged reload rebuilt the authenticator")
	}
}

// airqctl station get shows a WPA3 station's AKM, group and method; the
// status names the BSS's security.
func TestSAEStationStatus(t *testing.T) {
	h := newHarness(t, saeConfig(t, sae.BothMethods, rsn.AKMPSK))
	w := newWPASTA(h, staMAC, rsn.AKMSAE)
	w.mfp = true
	keys, _ := w.saeAuth(saePassword, 20, true)
	if keys == nil || w.saeAssociate(&keys.PMK, nil) != 0 {
		t.Fatal("not connected")
	}
	slot, _ := h.a.sta.lookup(staMAC)
	st := h.a.ctlStation(h.now, slot, nil)
	if st.AKM != "SAE" || st.SAEGroup != 20 || st.SAEMethod != "hash-to-element" || st.SAEAuthGroup != 20 {
		t.Errorf("station status: AKM %q group %d method %q, SAE exchange's group %d",
			st.AKM, st.SAEGroup, st.SAEMethod, st.SAEAuthGroup)
	}
	var bss ctl.Status
	h.a.describeBSS(&bss, 0)
	if bss.Security != "WPA2/WPA3-Personal transition" || bss.KeyMgmt != "WPA-PSK SAE" {
		t.Errorf("BSS status: %q %q", bss.Security, bss.KeyMgmt)
	}
}

// SAE from an associated MFP station leaves its association in place: the
// new exchange completes, the station keeps its keys and port until it
// associates again.
func TestSAEFromAssociatedMFPStation(t *testing.T) {
	h := newHarness(t, saeConfig(t, sae.HashToElement))
	w := newWPASTA(h, staMAC, rsn.AKMSAE)
	w.mfp = true
	keys, _ := w.saeAuth(saePassword, 19, true)
	if keys == nil || w.saeAssociate(&keys.PMK, nil) != 0 || !w.done {
		t.Fatal("not connected")
	}
	again, st := w.saeAuth(saePassword, 19, true)
	if again == nil {
		t.Fatalf("the second exchange was refused: %d, counters %v", st, h.a.Counters())
	}
	_, s := h.a.sta.lookup(staMAC)
	if s == nil || s.State != bss.StateAssociated || !s.Authorized || h.a.Counters()[counter.AuthKeptAssoc] != 1 {
		t.Fatalf("the association did not stay: %+v", s)
	}
	if s.SAE == nil || s.SAE.Keys.PMKID != again.PMKID {
		t.Error("the new exchange's keys are not kept for the next association")
	}
}

// FuzzSAEAuthBody hands an SAE BSS Authentication frames of algorithm 3
// with any transaction, status and body, from a station in the middle of
// an exchange, with the jobs run: the core never panics, stays accounted,
// keeps its SAE state bounded, and the honest station still connects
// afterwards.
func FuzzSAEAuthBody(f *testing.F) {
	g, _ := sae.GroupByID(19)
	st, _ := sae.NewStation(g, sae.MAC(staMAC), sae.MAC(bssid), []byte("airq-test"), []byte(saePassword), nil, true)
	commit, _ := st.Commit(newSeeded(9))
	f.Add(uint16(1), commit.Status, commit.Body)
	f.Add(uint16(1), uint16(0), commit.Body)
	f.Add(uint16(2), uint16(0), []byte{1, 0, 0xaa})
	f.Add(uint16(1), sae.StatusAntiCloggingToken, []byte{19, 0})
	f.Fuzz(func(t *testing.T, trans, status uint16, body []byte) {
		h := newHarness(t, saeConfig(t, sae.BothMethods))
		attacker := ieee80211.MAC{2, 0, 0, 0, 6, 6}
		for range 3 {
			h.sendSAE(attacker, sae.Frame{Transaction: trans, Status: status, Body: body})
			h.runSAEJobs()
		}
		if !h.a.Accounted() || len(h.a.radios[0].rsn.sae.live) != 0 || len(h.a.radios[0].rsn.sae.queue) != 0 {
			t.Fatal("accounting broken or jobs left out")
		}
		w := newWPASTA(h, staMAC, rsn.AKMSAE)
		w.mfp = true
		if keys, st := w.saeAuth(saePassword, 19, true); keys == nil {
			t.Fatalf("the honest station was refused afterwards: %d", st)
		}
	})
}
