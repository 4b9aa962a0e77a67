package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/pmf"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rsn"
)

// Attacks on 802.11w from the air: frames anyone can forge in an MFP
// station's name, replays, and the SA Query's corners.

// airFrom delivers a frame heard at signal dBm.
func (h *harness) airFrom(frame []byte, signal int8) {
	b := radiotap.AppendRx(nil, radio.RxInfo{Freq: 2412, Signal: signal, HasSignal: true, Rate: radio.LegacyRate(54000)})
	h.a.HandleRadio(h.now, append(b, frame...))
	h.collect()
}

// withPM sets the Power Management bit of a frame.
func withPM(b []byte) []byte {
	ieee80211.Frame(b).SetPwrMgt(true)
	return b
}

// staSnapshot is what a forged frame must leave as it was.
type staSnapshot struct {
	lastRx time.Duration
	signal int8
	dozing bool
	state  bss.StationState
}

func snapshot(t *testing.T, h *harness) staSnapshot {
	t.Helper()
	_, s := h.a.sta.lookup(staMAC)
	if s == nil {
		t.Fatal("no station")
	}
	return staSnapshot{s.lastRx, s.signal, s.Dozing, s.State}
}

// Unprotected frames that are not robust (an Authentication, an
// association request, a Public or vendor Action frame) are the ones an
// attacker can still send in an authorized MFP station's name: they must
// not change its power-save state (the AP would buffer everything for a
// station that is awake), its inactivity clock or its signal. Only the
// station's keys prove a frame is its own.
func TestPMFForgedUnprotectedLeavesStation(t *testing.T) {
	for _, c := range []struct {
		name  string
		frame func(w *wpaSTA) []byte
	}{
		{"authentication", func(w *wpaSTA) []byte {
			return ieee80211.AppendAuth(w.h.mgmt(ieee80211.SubtypeAuth, w.addr), 0, 1, 0)
		}},
		{"association request", func(w *wpaSTA) []byte {
			b := ieee80211.AppendAssocReq(w.h.mgmt(ieee80211.SubtypeAssocReq, w.addr), 0x0431, 10)
			b = ieee80211.AppendSSID(b, w.h.a.cfg.SSID)
			b = ieee80211.AppendRates(b, gRates)
			return append(b, w.rsne()...)
		}},
		{"public action", func(w *wpaSTA) []byte {
			return w.mgmtFrame(ieee80211.SubtypeAction, []byte{ieee80211.CategoryPublic, 10, 1, 2}, false)
		}},
		{"vendor action", func(w *wpaSTA) []byte {
			return w.mgmtFrame(ieee80211.SubtypeAction, []byte{ieee80211.CategoryVendor, 0x00, 0x10, 0x18, 1}, false)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, w := mfpStation(t, rsn.MFPRequired)
			h.take()
			before := snapshot(t, h)
			h.advance(3 * time.Second)
			h.airFrom(withPM(c.frame(w)), -90)
			if after := snapshot(t, h); after != before {
				t.Errorf("forged %s changed the station: %+v, was %+v", c.name, after, before)
			}
			if h.a.bss.Dozing != 0 {
				t.Errorf("%d stations dozing", h.a.bss.Dozing)
			}
			// Its downlink is not held back for a doze it never began.
			h.take()
			h.wire(eth(staMAC, host, 0))
			w.pump()
			if !w.hasPayload(ipv4(0)[:8]) {
				t.Error("the station's downlink frame was buffered")
			}
			w.stillThere(t)
		})
	}
}

// An SA Query Response that is unprotected, carries a wrong transaction
// ID, or answers an earlier procedure does not end the running one; the
// station that never answers is timed out as if nothing had come.
func TestPMFSAQueryResponseForged(t *testing.T) {
	h, w := mfpStation(t, rsn.MFPRequired)
	h.take()
	w.mgmt = nil
	w.assocReq()
	out, _ := h.take()
	q, err := pmf.ParseSAQuery(w.openFromAP(findMgmt(t, out, ieee80211.SubtypeAction, staMAC)))
	if err != nil {
		t.Fatal(err)
	}
	// Unprotected, with the right ID (an attacker cannot read it, but
	// the rule must not rest on that).
	h.air(w.mgmtFrame(ieee80211.SubtypeAction, pmf.AppendSAQuery(nil, pmf.ActionResponse, q.ID), false))
	// Protected, another ID.
	h.air(w.mgmtFrame(ieee80211.SubtypeAction, pmf.AppendSAQuery(nil, pmf.ActionResponse, pmf.TransactionID{q.ID[0] ^ 1, q.ID[1]}), true))
	// A Request in its place (the station's own procedure) is answered,
	// not taken as an answer.
	h.air(w.mgmtFrame(ieee80211.SubtypeAction, pmf.AppendSAQuery(nil, pmf.ActionRequest, q.ID), true))
	if c := h.a.cnt; c[counter.SAQueryKept] != 0 || c[counter.RxMgmtUnprotectedAction] != 1 || c[counter.SAQueryAnswered] != 1 {
		t.Fatalf("counters %s", c.String())
	}
	_, s := h.a.sta.lookup(staMAC)
	if !s.RSN.Query.Active() {
		t.Fatal("the procedure stopped")
	}
	for start := h.now; h.now < start+1100*time.Millisecond; {
		h.advance(h.a.Deadline() - h.now)
		h.take()
	}
	if h.a.cnt[counter.SAQueryTimedOut] != 1 {
		t.Errorf("counters %s", h.a.cnt.String())
	}
}

// A station that leaves during the procedure (its protected
// deauthentication) takes the procedure with it: no timer stays armed,
// nothing fires later against its slot or a newcomer in it.
func TestPMFSAQueryStationLeaves(t *testing.T) {
	h, w := mfpStation(t, rsn.MFPRequired)
	h.take()
	w.assocReq()
	h.take()
	if h.a.radios[0].rsn.saQueries != 1 {
		t.Fatalf("%d procedures", h.a.radios[0].rsn.saQueries)
	}
	h.air(w.mgmtFrame(ieee80211.SubtypeDeauth, []byte{3, 0}, true))
	if _, s := h.a.sta.lookup(staMAC); s != nil {
		t.Fatal("the station stayed")
	}
	if d, ok := h.a.saQueryDeadline(); ok {
		t.Errorf("an SA Query timer is still armed at %v", d)
	}
	// A new station in the slot is not touched by the old procedure.
	w2 := newWPASTA(h, staMAC, rsn.AKMPSKSHA256)
	w2.mfp = true
	w2.connect()
	h.takeEvents()
	h.advance(2 * time.Second)
	if c := h.a.cnt; c[counter.SAQueryTimedOut] != 0 || c[counter.SAQueryRequests] != 1 || len(h.takeEvents()) != 0 {
		t.Errorf("counters %s", c.String())
	}
	w2.stillThere(t)
}

// Association requests in an MFP station's name, however many, run one
// procedure: one Request per retry interval, never one per forged frame,
// and the station's answer ends it.
func TestPMFForgedAssocFlood(t *testing.T) {
	h, w := mfpStation(t, rsn.MFPRequired)
	h.take()
	for range 200 {
		w.assocReq()
		h.take()
	}
	_, s := h.a.sta.lookup(staMAC)
	if n := s.RSN.Query.Requests(); n != 1 || h.a.cnt[counter.SAQueryRequests] != 1 {
		t.Errorf("%d Requests in the procedure, %d sent", n, h.a.cnt[counter.SAQueryRequests])
	}
	w.stillThere(t)
}

// A request that downgrades (no MFPC, on ieee80211w=1) from an
// associated MFP station's MAC is refused for now like any other: the
// SA Query decides, and the association keeps MFP.
func TestPMFDowngradeAssoc(t *testing.T) {
	h, w := mfpStation(t, rsn.MFPOptional)
	h.take()
	w.mfp = false
	w.assocReq()
	out, _ := h.take()
	if ar, _ := h.assocResp(out, staMAC); ar.Status() != ieee80211.StatusAssocRejectedTemp {
		t.Fatalf("status %d, want 30", ar.Status())
	}
	w.mfp = true
	w.stillThere(t)
}

// answerSAQueries answers each SA Query Request the station got, under
// its PTK, as wpa_supplicant does; dozing keeps its Power Management bit set.
func (w *wpaSTA) answerSAQueries(dozing bool) {
	got := w.mgmt
	w.mgmt = nil
	for _, f := range got {
		if f.Subtype() != ieee80211.SubtypeAction || !f.Protected() {
			continue
		}
		if q, err := pmf.ParseSAQuery(w.openFromAP(f)); err == nil && q.Action == pmf.ActionRequest {
			b := w.mgmtFrame(ieee80211.SubtypeAction, pmf.AppendSAQuery(nil, pmf.ActionResponse, q.ID), true)
			ieee80211.Frame(b).SetPwrMgt(dozing) // outside the AAD
			w.h.air(b)
		}
	}
}

// A forged association request in the name of an MFP station that dozes
// (a phone, idle) must not end its association: the SA Query Request is
// a bufferable management frame (802.11-2020 11.2.3; mac80211 buffers
// deauthentications, disassociations and Action frames for a station in
// power save), announced in the TIM, and the station answers once it
// wakes for it, or polls for it. Sent straight onto the air it is lost
// to a sleeping station, the procedure times out and the forger has
// disconnected it.
func TestPMFSAQueryDozingStation(t *testing.T) {
	for _, poll := range []bool{false, true} {
		h, w := mfpStation(t, rsn.MFPRequired)
		h.take()
		aid, _ := h.a.sta.lookup(staMAC)
		h.air(w.frame(0x0800, ipv4(0), true, true))
		h.take()
		w.mgmt = nil
		w.assocReq()
		asleep := func() {
			out, _ := h.take()
			for _, b := range out {
				_, fr := parsed(t, b)
				h.echo(b, radio.TxStatus{Acked: fr.Addr1() != staMAC})
			}
		}
		asleep()
		for start := h.now; h.now < start+2*time.Second; {
			if tim := h.beaconTIM(); !tim.HasAID(aid) {
				asleep()
				continue
			}
			if poll {
				h.psPoll(staMAC, aid)
				w.pump()
				w.answerSAQueries(true)
			} else {
				h.air(w.frame(0x0800, ipv4(0), true, false)) // awake for what waits
				w.pump()
				w.answerSAQueries(false)
				h.air(w.frame(0x0800, ipv4(0), true, true)) // and back to sleep
			}
			w.pump()
		}
		if c := h.a.cnt; c[counter.SAQueryTimedOut] != 0 || c[counter.SAQueryKept] != 1 {
			t.Errorf("PS-Poll %v: counters %s", poll, c.String())
		}
		if ev := h.takeEvents(); len(ev) != 0 {
			t.Errorf("PS-Poll %v: events %v", poll, ev)
		}
		h.air(w.frame(0x0800, ipv4(0), true, false))
		w.pump()
		w.stillThere(t)
	}
}

// A group rekey brings a new IGTK under the other key ID, delivered to
// the MFP station; the broadcast deauthentication at shutdown is signed
// with it and verifies at the station, above the IPN it was given.
func TestPMFIGTKRekey(t *testing.T) {
	c := pmfConfig(t, rsn.MFPRequired)
	c.RSN.GroupRekey = time.Second
	h := newHarness(t, c)
	h.advance(0)
	h.take()
	w := newWPASTA(h, staMAC, rsn.AKMPSKSHA256)
	w.mfp = true
	w.connect()
	first := h.a.radios[0].rsn.igtk
	for end := h.now + 1500*time.Millisecond; h.now < end; {
		h.advance(min(h.a.Deadline(), end) - h.now)
		w.pump()
	}
	k := h.a.radios[0].rsn.igtk
	if k == first || k.ID() == first.ID() || w.igtk.Key(k.ID()) == nil || h.a.cnt[counter.IGTKInstalled] != 2 {
		t.Fatalf("after the rekey: IGTK %v (was %v), station's %v", k, first, w.igtk.Key(k.ID()))
	}
	w.mgmt = nil
	h.a.Shutdown(h.now)
	h.collect()
	w.pump()
	for _, f := range w.mgmt {
		if f.Subtype() == ieee80211.SubtypeDeauth && f.Addr1().IsBroadcast() {
			if _, err := w.igtk.Open(append([]byte(nil), f...)); err != nil {
				t.Fatalf("broadcast deauthentication after the rekey: %v", err)
			}
			return
		}
	}
	t.Fatal("no broadcast deauthentication")
}

// Before its PTK is installed an MFP station has no key to protect a
// deauthentication with: one that gives up during the 4-way handshake
// (a wrong passphrase) is let go at once, as mac80211's
// ieee80211_drop_unencrypted_mgmt permits it, not kept until the
// handshake's retries run out. Once the key is in, the same frame is a
// forgery.
func TestPMFDeauthDuringHandshake(t *testing.T) {
	for _, sub := range []int{ieee80211.SubtypeDeauth, ieee80211.SubtypeDisassoc} {
		h := newHarness(t, pmfConfig(t, rsn.MFPRequired))
		h.advance(0)
		h.take()
		w := newWPASTA(h, staMAC, rsn.AKMPSKSHA256)
		w.mfp = true
		w.associate("not the passphrase")
		h.take()
		if _, s := h.a.sta.lookup(staMAC); s == nil || !s.usesMFP() || s.RSN.HasKey() {
			t.Fatalf("station %+v, want associated with MFP and no key", s)
		}
		h.air(w.mgmtFrame(sub, []byte{15, 0}, false))
		if _, s := h.a.sta.lookup(staMAC); s != nil && s.State == bss.StateAssociated {
			t.Errorf("subtype %d: the station is still associated", sub)
		}
		if c := h.a.cnt; c[counter.RxMgmtUnprotectedDeauth]+c[counter.RxMgmtUnprotectedDisassoc] != 0 {
			t.Errorf("counters %s", c.String())
		}
	}
}
