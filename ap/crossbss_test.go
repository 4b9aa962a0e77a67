package ap

import (
	"bytes"
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/pmf"
	"github.com/airq/airq/rsn"
)

// Frames from a station of one BSS to another BSS of the same radio: to
// that BSS the station is a stranger, as it is to hostapd, whose station
// tables are per BSS. Nothing the station has with its own BSS changes.

// reasonFrom returns the subtype and reason of the deauthentication or
// disassociation from BSSID `from` to sta in out; ok false if none.
func reasonFrom(t *testing.T, out [][]byte, from, sta ieee80211.MAC) (subtype uint8, reason uint16, ok bool) {
	t.Helper()
	for _, b := range out {
		_, fr := parsed(t, b)
		if fr.Type() == ieee80211.TypeMgmt && (fr.Subtype() == ieee80211.SubtypeDeauth || fr.Subtype() == ieee80211.SubtypeDisassoc) &&
			fr.Addr1() == sta && fr.Addr2() == from && len(fr.Body()) >= 2 {
			return fr.Subtype(), uint16(fr.Body()[0]) | uint16(fr.Body()[1])<<8, true
		}
	}
	return 0, 0, false
}

// mfpBesideGuests connects an MFP station to the first BSS (WPA2,
// ieee80211w=2) of a radio carrying threeBSSes' open BSSes beside it.
func mfpBesideGuests(t *testing.T) (*harness, *wpaSTA) {
	cfg := pmfConfig(t, rsn.MFPRequired)
	cfg.BSSes = threeBSSes().BSSes
	return mfpStationIn(t, cfg)
}

// saeStation connects mainSTA to h's first BSS with SAE and MFP.
func saeStation(t *testing.T, h *harness) *wpaSTA {
	t.Helper()
	w := joinBSS(h, mainSTA, 0, rsn.AKMSAE)
	w.mfp = true
	keys, status := w.saeAuth(saePassword, 19, true)
	if keys == nil {
		t.Fatalf("SAE refused: status %d", status)
	}
	if st := w.saeAssociate(&keys.PMK, nil); st != 0 || !w.done {
		t.Fatalf("association status %d", st)
	}
	return w
}

// guestMgmt is a management frame from sta to the guest BSS.
func (h *harness) guestMgmt(subtype int, sta ieee80211.MAC) []byte {
	return ieee80211.AppendMgmtHeader(nil, uint8(subtype), guest2ID, sta, guest2ID, h.nextSeq())
}

// TestAssocToAnotherBSSWantsItsOwnAuth: a station authenticated with
// the first BSS that asks the guest BSS to associate, without
// authenticating there, is refused by the guest BSS with a
// deauthentication (reason 6, class 2 frame from a station not
// authenticated), as hostapd's handle_assoc; it neither joins the guest
// BSS nor the first BSS's books under the guest's BSSID.
func TestAssocToAnotherBSSWantsItsOwnAuth(t *testing.T) {
	h := newHarness(t, threeBSSes())
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	h.auth(sta, 0, 1)
	h.take()
	req := ieee80211.AppendAssocReq(h.guestMgmt(ieee80211.SubtypeAssocReq, sta), 0x0421, 10)
	h.air(ieee80211.AppendRates(ieee80211.AppendSSID(req, "guest"), gRates))
	out, _ := h.take()
	for _, b := range out {
		if _, fr := parsed(t, b); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeAssocResp) && fr.Addr1() == sta {
			ar, _ := ieee80211.ParseAssocResp(fr.Body())
			t.Errorf("the guest BSS answered the association with status %d (AID %d), want a deauthentication", ar.Status(), ar.AID())
		}
	}
	if sub, reason, ok := reasonFrom(t, out, guest2ID, sta); !ok || sub != ieee80211.SubtypeDeauth || reason != ieee80211.ReasonClass2FromNonAuth {
		t.Errorf("from the guest BSS: subtype %d reason %d (sent %v), want a deauthentication with reason 6", sub, reason, ok)
	}
	_, s := h.a.sta.lookup(sta)
	if s == nil || s.bss != h.a.bss || s.State != bss.StateAuthenticated {
		t.Fatalf("the station's entry: %+v, want authenticated with the first BSS", s)
	}
	if p := h.a.bss.Pending + h.a.bsses[1].Pending; p != 0 {
		t.Errorf("%d associations pending", p)
	}
	// It still associates with the BSS it authenticated with.
	h.assoc(sta, h.a.cfg.SSID, gRates, false)
	h.acceptAssoc(sta)
	if h.a.bss.Associated != 1 || h.a.bsses[1].Associated != 0 {
		t.Errorf("associated: %d and %d, want the station in the first BSS", h.a.bss.Associated, h.a.bsses[1].Associated)
	}
}

// TestClass3ToAnotherBSSIsAStrangers: an associated station's data frame
// and PS-Poll to the guest BSS's BSSID are a stranger's class 3 frames
// there: dropped, answered from the guest BSS with a deauthentication
// (reason 7) as hostapd's ieee802_11_rx_from_unknown, and the station's
// association with its own BSS goes on, its power save state untouched.
func TestClass3ToAnotherBSSIsAStrangers(t *testing.T) {
	h := newHarness(t, threeBSSes())
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	aid := h.join(sta, false)
	h.take()
	f := h.upIPv4(sta, host, 0, false)
	copy(f[4:10], guest2ID[:])
	h.air(f)
	out, wired := h.take()
	if len(wired) != 0 {
		t.Errorf("%d frames to the wired side from a data frame to a BSS the station is not in", len(wired))
	}
	if sub, reason, ok := reasonFrom(t, out, guest2ID, sta); !ok || sub != ieee80211.SubtypeDeauth || reason != ieee80211.ReasonClass3FromNonAssoc {
		t.Errorf("from the guest BSS: subtype %d reason %d (sent %v), want a deauthentication with reason 7", sub, reason, ok)
	}
	// Null data to the guest BSS with the Power Management bit set does
	// not put the first BSS's station to sleep.
	h.air(ieee80211.AppendNullData(nil, guest2ID, sta, h.nextSeq(), true))
	if _, s := h.a.sta.lookup(sta); s == nil || s.Dozing || s.bss != h.a.bss || s.State != bss.StateAssociated {
		t.Fatalf("the station after frames to the guest BSS: %+v, want associated with the first, awake", s)
	}
	if h.a.bss.Dozing != 0 || h.a.bsses[1].Dozing != 0 {
		t.Errorf("dozing: %d and %d, want none", h.a.bss.Dozing, h.a.bsses[1].Dozing)
	}
	h.take()
	// Its own BSS still carries its frames.
	h.air(h.upIPv4(sta, host, 0, false))
	if _, wired := h.take(); len(wired) != 1 {
		t.Errorf("%d frames to the wired side from its own BSS, want 1", len(wired))
	}
	_ = aid
}

// TestMgmtToAnotherBSSChangesNothing: a station of the first BSS that
// sends the guest BSS a deauthentication, a disassociation or a
// management frame with the Power Management bit set keeps its
// association, awake: the guest BSS has nothing of it to end (hostapd:
// "deauthentication from unknown station").
func TestMgmtToAnotherBSSChangesNothing(t *testing.T) {
	h := newHarness(t, threeBSSes())
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	h.join(sta, false)
	for _, sub := range []int{ieee80211.SubtypeDisassoc, ieee80211.SubtypeDeauth} {
		f := h.guestMgmt(sub, sta)
		f[1] |= 0x10 // Power Management
		h.air(ieee80211.AppendDeauth(f, ieee80211.ReasonDeauthLeaving))
		if _, s := h.a.sta.lookup(sta); s == nil || s.State != bss.StateAssociated || s.Dozing {
			t.Fatalf("after subtype %d to the guest BSS: %+v, want associated, awake", sub, s)
		}
	}
	if evs := h.takeEvents(); len(evs) != 1 || evs[0].Kind != EventConnected {
		t.Errorf("events %+v, want the connection alone", evs)
	}
}

// TestAuthToAnotherBSSMovesTheStation: a station of the first BSS that
// authenticates with the guest BSS is deauthenticated from the first
// (reason 2, hostapd's ap_sta_remove_in_other_bss) and joins the guest
// BSS alone.
func TestAuthToAnotherBSSMovesTheStation(t *testing.T) {
	h := newHarness(t, threeBSSes())
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	h.join(sta, false)
	h.take()
	h.air(ieee80211.AppendAuth(h.guestMgmt(ieee80211.SubtypeAuth, sta), 0, 1, 0))
	out, _ := h.take()
	if sub, reason, ok := reasonFrom(t, out, bssid, sta); !ok || sub != ieee80211.SubtypeDeauth || reason != ieee80211.ReasonPrevAuthNotValid {
		t.Errorf("from the first BSS: subtype %d reason %d (sent %v), want a deauthentication with reason 2", sub, reason, ok)
	}
	if _, s := h.a.sta.lookup(sta); s == nil || s.bss != h.a.bsses[1] || s.State != bss.StateAuthenticated {
		t.Fatalf("the station: %+v, want authenticated with the guest BSS", s)
	}
	if h.a.bss.Associated != 0 || h.a.bss.Stations.Stations() != 0 || h.a.bsses[1].Stations.Stations() != 1 {
		t.Errorf("first BSS: %d associated, %d stations; guest: %d stations", h.a.bss.Associated, h.a.bss.Stations.Stations(), h.a.bsses[1].Stations.Stations())
	}
}

// TestAnotherBSSsACLLeavesTheStation: the guest BSS's access lists
// refusing an authentication in the name of a station of the first BSS
// (anyone can forge one) refuse it there, and end nothing of the station
// in its own BSS.
func TestAnotherBSSsACLLeavesTheStation(t *testing.T) {
	cfg := threeBSSes()
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	cfg.BSSes[0].ACL = bss.NewACL(bss.ACLAcceptUnlessDenied, nil, []ieee80211.MAC{sta})
	h := newHarness(t, cfg)
	h.join(sta, false)
	h.take()
	h.air(ieee80211.AppendAuth(h.guestMgmt(ieee80211.SubtypeAuth, sta), 0, 1, 0))
	if _, s := h.a.sta.lookup(sta); s == nil || s.bss != h.a.bss || s.State != bss.StateAssociated {
		t.Fatalf("the station after the guest BSS refused it: %+v, want associated with the first", s)
	}
}

// TestFloodAtOneBSSEvictsItsOwn: a flood of authentications at the guest
// BSS that fills the radio's table makes room with its own oldest
// entries, not with a station of the first BSS that has just
// authenticated and is about to associate (with SAE, its entry holds the
// exchange's keys, which a readmission after a lost ACK does not).
func TestFloodAtOneBSSEvictsItsOwn(t *testing.T) {
	cfg := threeBSSes()
	cfg.ReplyAirtime, cfg.AuthTimeout = 1, time.Minute // a flood that fills the table quickly
	h := newHarness(t, cfg)
	flood := func(i int) {
		h.now += time.Millisecond // within the reply budget
		sta := ieee80211.MAC{0x06, 0, 0, 0xf0, byte(i >> 8), byte(i)}
		h.air(ieee80211.AppendAuth(h.guestMgmt(ieee80211.SubtypeAuth, sta), 0, 1, 0))
		out, _ := h.take()
		for _, b := range out {
			if _, fr := parsed(t, b); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeAuth) && fr.Addr1() == sta {
				h.echo(b, radioAcked) // the attacker acknowledges for its forged addresses
			}
		}
	}
	i := 0
	for h.a.sta.ids.Free() > 0 {
		flood(i)
		i++
		if i > 3*maxAID {
			t.Fatalf("the table never filled: %d free", h.a.sta.ids.Free())
		}
	}
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	h.auth(sta, 0, 1)
	if _, s := h.a.sta.lookup(sta); s == nil {
		t.Fatal("the first BSS's station found no room")
	}
	flood(i) // the flood goes on while the station associates
	if _, s := h.a.sta.lookup(sta); s == nil {
		t.Fatal("the first BSS's station was evicted by a flood at the guest BSS")
	}
	h.take()
	h.assoc(sta, h.a.cfg.SSID, gRates, false)
	out, _ := h.take()
	for _, b := range out {
		if _, fr := parsed(t, b); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeDeauth) && fr.Addr1() == sta {
			t.Fatal("the first BSS's station was evicted by a flood at the guest BSS")
		}
	}
	if ar, _ := h.assocResp(out, sta); ar.Status() != ieee80211.StatusSuccess {
		t.Errorf("association status %d", ar.Status())
	}
}

// TestWildcardProbeFloodHoldsTheReplyShare: a flood of wildcard probe
// requests, which every BSS of the radio answers, gets no more of the air
// than Config.ReplyAirtime: the share is the radio's, split among its
// BSSes, not granted to each of them again.
func TestWildcardProbeFloodHoldsTheReplyShare(t *testing.T) {
	h := newHarness(t, threeBSSes())
	probe := ieee80211.AppendSSID(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeProbeReq, ieee80211.Broadcast,
		ieee80211.MAC{0x06, 0, 0, 0, 0xf0, 1}, ieee80211.Broadcast, 0), "")
	var spent float64 // µs
	const step, warm, measure = 100 * time.Microsecond, 2 * time.Second, 4 * time.Second
	for h.now < warm+measure {
		h.advance(step)
		h.air(probe)
		out, _ := h.take()
		for _, b := range out {
			if _, fr := parsed(t, b); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeProbeResp) {
				if h.now > warm { // past the buckets' first burst
					spent += float64(h.a.est.Airtime(h.a.bss.Rates.LowestBasic(), ieee80211.ACVO, len(fr)))
				}
				h.echo(b, radioAcked)
			}
		}
	}
	if share := spent / 1e6 / measure.Seconds(); share > h.a.cfg.ReplyAirtime*1.05 {
		t.Errorf("probe responses took %.3f of the air, want at most reply_airtime %.2f", share, h.a.cfg.ReplyAirtime)
	}
}

// TestForgedAuthToAnotherBSSKeepsAnMFPStation: an Open System
// authentication to the guest BSS in the name of an MFP station of the
// first BSS (anyone can send one: it is unprotected) leaves the station's
// association and keys in the first BSS alone. hostapd moves the station
// (ap_sta_remove_in_other_bss on the new BSS's first frame), which lets
// one forged frame undo 802.11w; a station that really moves has
// deauthenticated first under its keys (mac80211 does before it
// authenticates elsewhere).
func TestForgedAuthToAnotherBSSKeepsAnMFPStation(t *testing.T) {
	h, w := mfpBesideGuests(t)
	h.take()
	h.air(ieee80211.AppendAuth(h.guestMgmt(ieee80211.SubtypeAuth, staMAC), 0, 1, 0))
	out, _ := h.take()
	if _, _, ok := reasonFrom(t, out, bssid, staMAC); ok {
		t.Error("the first BSS deauthenticated its MFP station for a forged frame to another BSS")
	}
	if evs := h.takeEvents(); len(evs) != 0 {
		t.Errorf("events %+v, want none", evs)
	}
	w.stillThere(t)
	if _, s := h.a.sta.lookup(staMAC); s == nil || s.bss != h.a.bss {
		t.Errorf("the station's entry %+v, want the first BSS's", s)
	}
}

// TestMFPStationLeavingUnheardIsQueried: an MFP station of the first BSS
// whose deauthentication was lost asks the guest BSS to associate. The
// guest BSS refuses it as a stranger, and the first BSS asks it under its
// keys whether it is still there: it answers nothing, its association
// ends when the query times out, and its next authentication moves it to
// the guest BSS. Without the query it would stay the first BSS's (its
// unprotected frames cannot end that) and never get into the guest BSS.
func TestMFPStationLeavingUnheardIsQueried(t *testing.T) {
	h, w := mfpBesideGuests(t)
	h.take()
	auth := func() { h.air(ieee80211.AppendAuth(h.guestMgmt(ieee80211.SubtypeAuth, staMAC), 0, 1, 0)) }
	auth()
	req := ieee80211.AppendAssocReq(h.guestMgmt(ieee80211.SubtypeAssocReq, staMAC), 0x0421, 10)
	h.air(ieee80211.AppendRates(ieee80211.AppendSSID(req, "guest"), gRates))
	out, _ := h.take()
	if sub, reason, ok := reasonFrom(t, out, guest2ID, staMAC); !ok || sub != ieee80211.SubtypeDeauth || reason != ieee80211.ReasonClass2FromNonAuth {
		t.Errorf("from the guest BSS: subtype %d reason %d (sent %v), want a deauthentication with reason 6", sub, reason, ok)
	}
	q := findMgmt(t, out, ieee80211.SubtypeAction, staMAC)
	if q.Addr2() != bssid || !q.Protected() {
		t.Fatalf("SA Query from %s, protected %v; want the first BSS's, protected", q.Addr2(), q.Protected())
	}
	if sq, err := pmf.ParseSAQuery(w.openFromAP(q)); err != nil || sq.Action != pmf.ActionRequest {
		t.Fatalf("under the station's keys: %+v, %v; want an SA Query Request", sq, err)
	}
	for start := h.now; h.now < start+1100*time.Millisecond; {
		h.advance(h.a.Deadline() - h.now)
	}
	if _, s := h.a.sta.lookup(staMAC); s == nil || s.State != bss.StateAuthenticated {
		t.Fatalf("after the query timed out: %+v, want only authenticated", s)
	}
	auth()
	if _, s := h.a.sta.lookup(staMAC); s == nil || s.bss != h.a.bsses[1] {
		t.Fatalf("after authenticating again: %+v, want the guest BSS's", s)
	}
}

// TestAnotherBSSUsesNoneOfAStationsKeys: the guest BSS's answer to an MFP
// station of the first BSS (a deauthentication for its data frame to the
// guest BSSID) goes unprotected: the keys are the first BSS's, and
// neither their PNs nor their protection are the guest BSS's to use.
func TestAnotherBSSUsesNoneOfAStationsKeys(t *testing.T) {
	h, w := mfpBesideGuests(t)
	h.take()
	f := h.upIPv4(staMAC, host, 0, false)
	copy(f[4:10], guest2ID[:])
	h.air(f)
	out, _ := h.take()
	fr := findMgmt(t, out, ieee80211.SubtypeDeauth, staMAC)
	if fr.Addr2() != guest2ID || fr.Protected() {
		t.Fatalf("deauthentication from %s, protected %v: want the guest BSS's, unprotected", fr.Addr2(), fr.Protected())
	}
	if sub, reason, _ := reasonFrom(t, out, guest2ID, staMAC); sub != ieee80211.SubtypeDeauth || reason != ieee80211.ReasonClass3FromNonAssoc {
		t.Errorf("subtype %d reason %d, want a deauthentication with reason 7", sub, reason)
	}
	w.stillThere(t)
}

// TestEchoMatchesItsOwnBSSsFrame: each BSS numbers its management frames
// itself, so two BSSes' frames to one address can carry the same sequence
// number. The echo of one BSS's authentication response completes that
// response, not another BSS's earlier probe response of the same number:
// the station is authenticated at once, and may associate.
func TestEchoMatchesItsOwnBSSsFrame(t *testing.T) {
	h := newHarness(t, threeBSSes())
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	h.advance(h.a.beaconPeriod()) // each BSS has sent its first beacons
	out, _ := h.take()
	next := map[ieee80211.MAC]uint16{} // the sequence control of each BSS's next frame
	for _, b := range out {
		_, fr := parsed(t, b)
		next[fr.Addr2()] = fr.SeqCtl() + 1<<4
	}
	// The BSS behind answers probes until its last response is numbered
	// as the other's next frame.
	behind, ahead := guest2ID, bssid
	if next[bssid] < next[guest2ID] {
		behind, ahead = bssid, guest2ID
	}
	probe := ieee80211.AppendSSID(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeProbeReq, behind, sta, behind, h.nextSeq()), "")
	var last uint16
	for next[behind] <= next[ahead] {
		h.air(probe)
		out, _ := h.take()
		last = findMgmt(t, out, ieee80211.SubtypeProbeResp, sta).SeqCtl()
		next[behind] = last + 1<<4
	}
	h.air(ieee80211.AppendAuth(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, ahead, sta, ahead, h.nextSeq()), 0, 1, 0))
	out, _ = h.take()
	if resp := findMgmt(t, out, ieee80211.SubtypeAuth, sta); resp.SeqCtl() != last {
		t.Fatalf("the authentication response %#x is not numbered as the other BSS's probe response %#x", resp.SeqCtl(), last)
	}
	for _, b := range out {
		if _, fr := parsed(t, b); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeAuth) {
			h.echo(b, radioAcked)
		}
	}
	if _, s := h.a.sta.lookup(sta); s == nil || !s.AuthOK {
		t.Fatalf("after its acknowledged response: %+v, want authenticated", s)
	}
}

// TestForgedSAEToAnotherBSSsACLKeepsAStation: the guest BSS's access list
// refusing an SAE Commit in the name of the first BSS's MFP station
// (anyone can forge one) refuses it there and ends nothing of the
// station's association with its own BSS.
func TestForgedSAEToAnotherBSSsACLKeepsAStation(t *testing.T) {
	cfg := twoSAE(t, true)
	cfg.BSSes[0].ACL = bss.NewACL(bss.ACLDenyUnlessAccepted, nil, nil)
	h := newHarness(t, cfg)
	w := saeStation(t, h)
	h.take()
	h.air(ieee80211.AppendAuth(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, guest2ID, mainSTA, guest2ID, h.nextSeq()), bss.AuthSAE, 1, 0))
	if _, s := h.a.sta.lookup(mainSTA); s == nil || s.bss != h.a.bss || s.State != bss.StateAssociated {
		t.Fatalf("the first BSS's MFP station after a forged SAE Commit to the guest BSS: %+v", s)
	}
	w.stillThere(t)
}

// TestSAEWithAnotherBSSKeepsAnMFPStation: someone who knows the guest
// BSS's password (every guest does) and completes SAE with it in the
// name of an MFP station of the first BSS does not end that station's
// association: the exchange proves the password, not the address.
func TestSAEWithAnotherBSSKeepsAnMFPStation(t *testing.T) {
	h := newHarness(t, twoSAE(t, true))
	w := saeStation(t, h)
	forger := joinBSS(h, mainSTA, 1, rsn.AKMSAE)
	if keys, _ := forger.saeAuth(saePassword, 19, true); keys == nil {
		t.Fatal("SAE with the guest BSS refused")
	}
	if _, s := h.a.sta.lookup(mainSTA); s == nil || s.bss != h.a.bss || s.State != bss.StateAssociated {
		t.Fatalf("the first BSS's MFP station after an SAE exchange with the guest BSS in its name: %+v", s)
	}
	w.stillThere(t)
}

// TestHiddenBSSLeaksNothingThroughAnother: a hidden BSS beside visible
// ones: a wildcard probe request is answered by the visible BSSes alone,
// none of whose frames carries the hidden SSID; a probe naming the hidden
// SSID is answered by the hidden BSS alone, and not at all when it is
// addressed to another BSS's BSSID.
func TestHiddenBSSLeaksNothingThroughAnother(t *testing.T) {
	cfg := threeBSSes()
	cfg.BSSes[0].SSID, cfg.BSSes[0].HideSSID = "hidden-staff", true
	h := newHarness(t, cfg)
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	probe := func(to ieee80211.MAC, ssid string) map[ieee80211.MAC]bool {
		h.take()
		h.air(ieee80211.AppendSSID(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeProbeReq, to, sta, to, h.nextSeq()), ssid))
		h.advance(h.a.beaconPeriod())
		out, _ := h.take()
		from := map[ieee80211.MAC]bool{}
		for _, b := range out {
			_, fr := parsed(t, b)
			if bytes.Contains(fr, []byte("hidden-staff")) && fr.Addr2() != guest2ID {
				t.Errorf("a frame from %s (subtype %d) carries the hidden SSID", fr.Addr2(), fr.Subtype())
			}
			if fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeProbeResp) && fr.Addr1() == sta {
				from[fr.Addr2()] = true
			}
		}
		return from
	}
	if got := probe(ieee80211.Broadcast, ""); len(got) != 2 || got[guest2ID] {
		t.Errorf("a wildcard probe answered by %v, want the two visible BSSes", got)
	}
	if got := probe(ieee80211.Broadcast, "hidden-staff"); len(got) != 1 || !got[guest2ID] {
		t.Errorf("a probe for the hidden SSID answered by %v, want the hidden BSS alone", got)
	}
	if got := probe(guest3ID, "hidden-staff"); len(got) != 0 {
		t.Errorf("a probe for the hidden SSID to another BSSID answered by %v, want none", got)
	}
}

// BenchmarkAuthFloodGuest is BenchmarkAuthFlood aimed at a BSS beside the
// first, whose table holds the AIDs the radio hands out: it must cost
// what a flood at the first BSS costs.
func BenchmarkAuthFloodGuest(b *testing.B) {
	cfg := threeBSSes()
	cfg.ReplyAirtime = 1
	h := newHarness(&testing.T{}, cfg)
	frames := make([][]byte, 4096)
	for i := range frames {
		from := ieee80211.MAC{0x02, 0xf3, 0, 0, byte(i >> 8), byte(i)}
		f := ieee80211.AppendAuth(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, guest2ID, from, guest2ID, 1), 0, 1, 0)
		frames[i] = append(radiotapRx(), f...)
	}
	for i := range maxAID + 100 { // fill the table
		h.now += time.Millisecond
		h.a.HandleRadio(h.now, frames[i%len(frames)])
		h.a.Flush(h.now, discard{})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.now += time.Microsecond
		h.a.HandleRadio(h.now, frames[i%len(frames)])
		h.a.Flush(h.now, discard{})
	}
}
