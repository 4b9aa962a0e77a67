package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/bip"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/ccmp"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/pmf"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/rsn/handshake"
)

// pmfConfig is a WPA2 BSS with ieee80211w=mfp and WPA-PSK-SHA256, as
// hostapd's tests pair them.
func pmfConfig(t testing.TB, mfp rsn.MFP) Config {
	c := wpaConfig(t, rsn.AKMPSKSHA256)
	c.RSN.MFP = mfp
	return c
}

// mfpStation connects a station offering MFP to a BSS with ieee80211w=mfp.
func mfpStation(t testing.TB, mfp rsn.MFP) (*harness, *wpaSTA) {
	t.Helper()
	return mfpStationIn(t, pmfConfig(t, mfp))
}

// mfpStationIn connects a station offering MFP to the first BSS of cfg.
func mfpStationIn(t testing.TB, cfg Config) (*harness, *wpaSTA) {
	t.Helper()
	h := newHarness(t, cfg)
	h.advance(0)
	h.take()
	w := newWPASTA(h, staMAC, rsn.AKMPSKSHA256)
	w.mfp = true
	w.connect()
	h.takeEvents()
	return h, w
}

func (w *wpaSTA) installIGTK(a handshake.Action) {
	k, err := bip.New(a.Key[:], uint16(a.KeyID))
	if err != nil {
		w.h.t.Fatal(err)
	}
	w.igtk.Install(k, a.RSC)
}

// mgmtFrame builds the station's management frame carrying body, under
// its PTK when protect (the Management flag in the nonce).
func (w *wpaSTA) mgmtFrame(subtype int, body []byte, protect bool) []byte {
	b := w.mgmtHeader(subtype)
	if !protect {
		return append(b, body...)
	}
	b = append(b, make([]byte, ccmp.HeaderLen)...)
	b = append(append(make([]byte, 0, len(b)+len(body)+ccmp.MICLen), b...), body...)
	w.pn++
	out, err := w.ptk.Encrypt(b, w.pn)
	if err != nil {
		w.h.t.Fatal(err)
	}
	return out
}

// openFromAP decrypts a protected unicast management frame the AP sent
// the station and returns its body.
func (w *wpaSTA) openFromAP(fr ieee80211.Frame) []byte {
	w.h.t.Helper()
	var r ccmp.Replay
	body, err := w.ptk.OpenMgmt(append([]byte(nil), fr...), &r)
	if err != nil {
		w.h.t.Fatalf("the AP's protected %d frame does not open under the PTK: %v", fr.Subtype(), err)
	}
	return body
}

// lastMgmt returns the last management frame of subtype the station got.
func (w *wpaSTA) lastMgmt(subtype int) ieee80211.Frame {
	for i := len(w.mgmt) - 1; i >= 0; i-- {
		if w.mgmt[i].Subtype() == uint8(subtype) {
			return w.mgmt[i]
		}
	}
	return nil
}

// assocReq sends the station's association request again.
func (w *wpaSTA) assocReq() {
	b := ieee80211.AppendAssocReq(w.mgmtHeader(ieee80211.SubtypeAssocReq), 0x0431, 10)
	b = ieee80211.AppendSSID(b, w.ssid())
	b = ieee80211.AppendRates(b, gRates)
	b = append(b, w.rsne()...)
	b = ieee80211.AppendWMMInfo(b, 0)
	w.h.air(b)
}

// stillThere checks the station is associated and authorized, and that
// a data frame under its PTK still reaches the wired side.
func (w *wpaSTA) stillThere(t *testing.T) {
	t.Helper()
	_, s := w.h.a.sta.lookup(w.addr)
	if s == nil || s.State != bss.StateAssociated || !s.Authorized || !s.usesMFP() {
		t.Fatalf("station %+v, want associated and authorized with MFP", s)
	}
	w.h.take()
	w.send(0x0800, ipv4(0), true)
	if _, wired := w.h.take(); len(wired) != 1 {
		t.Fatalf("its data frame did not pass: %d wired frames", len(wired))
	}
}

// answerSAQuery finds the protected SA Query Request to the station in
// out and sends the station's Response.
func (w *wpaSTA) answerSAQuery(t *testing.T, out [][]byte) {
	t.Helper()
	req := findMgmt(t, out, ieee80211.SubtypeAction, w.addr)
	if !req.Protected() {
		t.Fatal("SA Query Request sent unprotected")
	}
	q, err := pmf.ParseSAQuery(w.openFromAP(req))
	if err != nil || q.Action != pmf.ActionRequest {
		t.Fatalf("SA Query %+v, %v", q, err)
	}
	w.h.air(w.mgmtFrame(ieee80211.SubtypeAction, pmf.AppendSAQuery(nil, pmf.ActionResponse, q.ID), true))
}

// The RSNE offers MFPC with ieee80211w=1, MFPC and MFPR with 2.
func TestPMFAdvertised(t *testing.T) {
	for _, c := range []struct {
		mfp  rsn.MFP
		caps uint16
	}{{rsn.MFPDisabled, 0}, {rsn.MFPOptional, rsn.CapMFPC}, {rsn.MFPRequired, rsn.CapMFPC | rsn.CapMFPR}} {
		h := newHarness(t, pmfConfig(t, c.mfp))
		e, err := rsn.ParseElement(h.a.radios[0].rsn.ie)
		if err != nil || e.Caps&(rsn.CapMFPC|rsn.CapMFPR) != c.caps {
			t.Errorf("ieee80211w=%d: RSNE caps %#x (%v), want %#x", c.mfp, e.Caps, err, c.caps)
		}
	}
}

// A station without MFPC is refused by ieee80211w=2 with status 31; with
// ieee80211w=1 it joins without MFP.
func TestPMFRequiredRefusesNonMFP(t *testing.T) {
	h := newHarness(t, pmfConfig(t, rsn.MFPRequired))
	h.advance(0)
	h.take()
	w := newWPASTA(h, staMAC, rsn.AKMPSKSHA256)
	h.auth(staMAC, 0, 1)
	w.assocReq()
	out, _ := h.take()
	if ar, _ := h.assocResp(out, staMAC); ar.Status() != ieee80211.StatusRobustMgmtPolicy {
		t.Errorf("status %d, want 31", ar.Status())
	}
	h = newHarness(t, pmfConfig(t, rsn.MFPOptional))
	h.advance(0)
	w = newWPASTA(h, staMAC, rsn.AKMPSKSHA256)
	w.connect()
	if _, s := h.a.sta.lookup(staMAC); s.usesMFP() || h.a.ctlStation(h.now, 1, nil).MFP {
		t.Error("a station without MFPC uses MFP")
	}
}

// An MFP station gets the IGTK in message 3, and airqctl shows MFP.
func TestPMFConnect(t *testing.T) {
	h, w := mfpStation(t, rsn.MFPOptional)
	if w.igtk.Key(4) == nil || h.a.radios[0].rsn.igtk == nil || h.a.cnt[counter.IGTKInstalled] != 1 {
		t.Fatalf("IGTK: station %v, AP %v", w.igtk.Key(4), h.a.radios[0].rsn.igtk)
	}
	if !h.a.ctlStation(h.now, 1, nil).MFP {
		t.Error("station get: MFP no")
	}
	w.stillThere(t)
}

// Unprotected deauthentications, disassociations and robust Action
// frames claiming to come from an MFP station are dropped and counted;
// the station stays, its data passing.
func TestPMFForgedFramesIgnored(t *testing.T) {
	h, w := mfpStation(t, rsn.MFPRequired)
	h.air(w.mgmtFrame(ieee80211.SubtypeDeauth, []byte{3, 0}, false))
	h.air(w.mgmtFrame(ieee80211.SubtypeDisassoc, []byte{8, 0}, false))
	h.air(w.mgmtFrame(ieee80211.SubtypeAction, pmf.AppendSAQuery(nil, pmf.ActionRequest, pmf.TransactionID{1, 2}), false))
	h.air(w.mgmtFrame(ieee80211.SubtypeAction, []byte{bss.CategoryBlockAck, bss.ActionADDBAReq, 1, 2, 0x10, 0, 0}, false))
	c := h.a.cnt
	if c[counter.RxMgmtUnprotectedDeauth] != 1 || c[counter.RxMgmtUnprotectedDisassoc] != 1 ||
		c[counter.RxMgmtUnprotectedAction] != 2 || c[counter.SAQueryAnswered] != 0 || c[counter.ADDBADeclined] != 0 {
		t.Errorf("counters %s", c.String())
	}
	if ev := h.takeEvents(); len(ev) != 0 {
		t.Errorf("events %v", ev)
	}
	w.stillThere(t)
	// Its protected deauthentication is its own: it leaves.
	h.air(w.mgmtFrame(ieee80211.SubtypeDeauth, []byte{3, 0}, true))
	if _, s := h.a.sta.lookup(staMAC); s != nil {
		t.Errorf("a protected deauthentication left the station %v", s.State)
	}
}

// An authentication from an associated MFP station (anyone can forge one)
// leaves the association and its PTK alone, as hostapd does.
func TestPMFAuthKeepsAssoc(t *testing.T) {
	h, w := mfpStation(t, rsn.MFPOptional)
	h.take()
	h.auth(staMAC, 0, 1)
	out, _ := h.take()
	if a, _ := ieee80211.ParseAuth(findMgmt(t, out, ieee80211.SubtypeAuth, staMAC).Body()); a.Status() != ieee80211.StatusSuccess {
		t.Errorf("authentication status %d", a.Status())
	}
	if h.a.cnt[counter.AuthKeptAssoc] != 1 || len(h.takeEvents()) != 0 {
		t.Errorf("counters %s", h.a.cnt.String())
	}
	w.stillThere(t)
}

// An association request from an associated MFP station gets status 30
// with the comeback time and starts the SA Query; the station's protected
// Response keeps the association.
func TestPMFSAQueryKeeps(t *testing.T) {
	h, w := mfpStation(t, rsn.MFPRequired)
	h.take()
	w.mgmt = nil
	w.assocReq()
	out, _ := h.take()
	ar, _ := h.assocResp(out, staMAC)
	if tus, ok := pmf.Comeback(ar.Elements()); ar.Status() != ieee80211.StatusAssocRejectedTemp || !ok || tus != 1000 {
		t.Fatalf("status %d, comeback %d %v; want 30 and 1000 TUs", ar.Status(), tus, ok)
	}
	w.answerSAQuery(t, out)
	if h.a.cnt[counter.SAQueryKept] != 1 || h.a.cnt[counter.AssocComeback] != 1 {
		t.Errorf("counters %s", h.a.cnt.String())
	}
	h.advance(2 * time.Second)
	if h.a.cnt[counter.SAQueryTimedOut] != 0 || h.a.cnt[counter.SAQueryRequests] != 1 || len(h.takeEvents()) != 0 {
		t.Errorf("after the Response: %s", h.a.cnt.String())
	}
	w.stillThere(t)
}

// A station that does not answer (it lost its keys) gets hostapd's five
// Requests; the procedure then times out, the old association ends, and
// the next association request succeeds with a new handshake.
func TestPMFSAQueryTimeout(t *testing.T) {
	h, w := mfpStation(t, rsn.MFPRequired)
	h.take()
	w.assocReq()
	w.pump()
	for start := h.now; h.now < start+1100*time.Millisecond; {
		h.advance(h.a.Deadline() - h.now) // each timer when due, as the shell runs them
		w.pump()
	}
	c := h.a.cnt
	if c[counter.SAQueryRequests] != 5 || c[counter.SAQueryTimedOut] != 1 {
		t.Errorf("counters %s", c.String())
	}
	ev := h.takeEvents()
	if len(ev) != 1 || ev[0].Kind != EventDisconnected {
		t.Errorf("events %v, want one disconnection", ev)
	}
	if _, s := h.a.sta.lookup(staMAC); s == nil || s.State != bss.StateAuthenticated || s.RSN != nil {
		t.Fatalf("station after the timeout: %+v", s)
	}
	w.done = false
	w.associate(testPassphrase)
	w.associateDone(t)
	w.stillThere(t)
}

// A replayed protected frame changes nothing: the SA Query Request is
// answered once, the copy counted.
func TestPMFReplayedMgmt(t *testing.T) {
	h, w := mfpStation(t, rsn.MFPOptional)
	h.take()
	w.mgmt = nil
	req := w.mgmtFrame(ieee80211.SubtypeAction, pmf.AppendSAQuery(nil, pmf.ActionRequest, pmf.TransactionID{7, 9}), true)
	h.air(req)
	w.pump()
	h.air(req)
	w.pump()
	if c := h.a.cnt; c[counter.SAQueryAnswered] != 1 || c[counter.RxMgmtReplayed] != 1 {
		t.Errorf("counters %s", c.String())
	}
	resp := w.lastMgmt(ieee80211.SubtypeAction)
	if resp == nil || !resp.Protected() {
		t.Fatal("no protected SA Query Response")
	}
	if q, err := pmf.ParseSAQuery(w.openFromAP(resp)); err != nil || q.Action != pmf.ActionResponse || q.ID != (pmf.TransactionID{7, 9}) {
		t.Errorf("response %+v, %v", q, err)
	}
	// A bad MIC is counted too.
	bad := w.mgmtFrame(ieee80211.SubtypeAction, pmf.AppendSAQuery(nil, pmf.ActionRequest, pmf.TransactionID{1, 1}), true)
	bad[len(bad)-1] ^= 1
	h.air(bad)
	if h.a.cnt[counter.RxMgmtMICFailure] != 1 || h.a.cnt[counter.SAQueryAnswered] != 1 {
		t.Errorf("counters %s", h.a.cnt.String())
	}
}

// The AP's own deauthentications are protected: unicast under the PTK,
// the broadcast one at shutdown with BIP, which the station verifies.
func TestPMFDeauthProtected(t *testing.T) {
	h, w := mfpStation(t, rsn.MFPOptional)
	h.take()
	w.mgmt = nil
	h.a.Shutdown(h.now)
	h.collect()
	w.pump()
	var uni, group ieee80211.Frame
	for _, f := range w.mgmt {
		if f.Subtype() == ieee80211.SubtypeDeauth && f.Addr1() == staMAC {
			uni = f
		}
		if f.Subtype() == ieee80211.SubtypeDeauth && f.Addr1().IsBroadcast() {
			group = f
		}
	}
	if uni == nil || group == nil {
		t.Fatalf("deauthentications: unicast %v, broadcast %v", uni, group)
	}
	if body := w.openFromAP(uni); len(body) != 2 || body[0] != ieee80211.ReasonDeauthLeaving {
		t.Errorf("unicast deauthentication body %x", body)
	}
	if body, err := w.igtk.Open(append([]byte(nil), group...)); err != nil || len(body) != 2 {
		t.Errorf("broadcast deauthentication: %x, %v", body, err)
	}
	if pmf.Check(group, true) != pmf.DropGroupAddressed && group.Protected() {
		t.Error("BIP frames keep the Protected bit clear")
	}
}

// A protected management frame from a station without MFP, and an
// unprotected one from a stranger, change nothing.
func TestPMFProtectedFromNonMFP(t *testing.T) {
	h := newHarness(t, pmfConfig(t, rsn.MFPOptional))
	h.advance(0)
	w := newWPASTA(h, staMAC, rsn.AKMPSKSHA256)
	w.connect()
	h.air(w.mgmtFrame(ieee80211.SubtypeDeauth, []byte{3, 0}, true))
	if h.a.cnt[counter.RxMgmtProtectedUnexpected] != 1 {
		t.Errorf("counters %s", h.a.cnt.String())
	}
	if _, s := h.a.sta.lookup(staMAC); s == nil || s.State != bss.StateAssociated {
		t.Error("the station left")
	}
	// Without MFP its unprotected deauthentication is honoured, as before.
	h.air(w.mgmtFrame(ieee80211.SubtypeDeauth, []byte{3, 0}, false))
	if _, s := h.a.sta.lookup(staMAC); s != nil {
		t.Error("the station stayed")
	}
}

// A group-addressed robust Action frame from an MFP station is counted by
// 802.11w's reason (no station may send one: BIP is the AP's), a
// non-robust one as not for the AP; neither changes anything.
func TestPMFGroupRobustFromStation(t *testing.T) {
	h, w := mfpStation(t, rsn.MFPRequired)
	for _, body := range [][]byte{
		{bss.CategoryBlockAck, bss.ActionADDBAReq, 1, 2, 0x10, 0, 0}, // robust
		{4, 0}, // Public: not robust
	} {
		fr := ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAction, ieee80211.Broadcast, w.addr, bssid, h.nextSeq())
		h.air(append(fr, body...))
	}
	if c := h.a.cnt; c[counter.RxMgmtGroupRobust] != 1 || c[counter.RxNotForUs] != 1 {
		t.Errorf("counters %s", c.String())
	}
	w.stillThere(t)
}

// The operator's SA Query (hostapd's SA_QUERY): one protected Request to
// an MFP station, whose Response changes nothing; a station without MFP
// is refused.
func TestPMFOperatorSAQuery(t *testing.T) {
	h, w := mfpStation(t, rsn.MFPRequired)
	h.take()
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpSAQuery, Addr: staMAC}); r.Err() != nil {
		t.Fatal(r.Err())
	}
	h.collect()
	out, _ := h.take()
	w.answerSAQuery(t, out)
	h.advance(2 * time.Second)
	if len(h.takeEvents()) != 0 {
		t.Error("the station's Response ended something")
	}
	w.stillThere(t)
	if r := h.a.Control(h.now, ctl.Request{Op: ctl.OpSAQuery, Addr: sta2}); r.Errno != ctl.ENOENT {
		t.Errorf("unknown station: %+v", r)
	}
	o := newHarness(t, Config{})
	o.join(staMAC, false)
	if r := o.a.Control(o.now, ctl.Request{Op: ctl.OpSAQuery, Addr: staMAC}); r.Errno != ctl.EINVAL {
		t.Errorf("station without MFP: %+v", r)
	}
}
