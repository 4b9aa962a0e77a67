package ap

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// A WPA2 station joins: the beacon offers the RSNE with Privacy set, the
// handshake runs over EAPOL data frames, and the port opens only at its
// end, announced as hostapd does; then data goes both ways under CCMP.
func TestWPA2HandshakeOpensThePort(t *testing.T) {
	for _, akm := range []rsn.AKM{rsn.AKMPSK, rsn.AKMPSKSHA256} {
		t.Run(akm.String(), func(t *testing.T) {
			h := newHarness(t, wpaConfig(t, akm))
			h.advance(0)
			out, _ := h.take()
			beacon := findMgmt(t, out, ieee80211.SubtypeBeacon, ieee80211.Broadcast)
			b, _ := ieee80211.ParseBeacon(beacon.Body())
			if b.Capability()&ieee80211.CapPrivacy == 0 {
				t.Error("beacon without the Privacy bit")
			}
			if e, ok := b.Elements().Find(ieee80211.ElemRSN); !ok || !bytes.Equal(rawElement(ieee80211.ElemRSN, e), h.a.radios[0].rsn.ie) {
				t.Errorf("beacon RSNE %x, want %x", e, h.a.radios[0].rsn.ie)
			}
			w := newWPASTA(h, staMAC, akm)
			w.associate(testPassphrase)
			if ev := h.takeEvents(); len(ev) != 0 {
				t.Errorf("events at the association: %v", ev)
			}
			// Before the handshake ends nothing but EAPOL passes.
			h.wire(eth(staMAC, host, 0))
			h.air(h.upIPv4(staMAC, host, 0, true))
			if len(h.wired) != 0 || h.a.cnt[counter.WiredDroppedUnauthorized] != 1 || h.a.cnt[counter.RxUnauthorized] != 1 {
				t.Fatalf("before the handshake: %d wired frames; %v", len(h.wired), h.a.cnt.String())
			}
			w.associateDone(t)
			ev := h.takeEvents()
			if len(ev) != 2 || ev[0].Kind != EventConnected || ev[1].Kind != EventHandshakeCompleted || ev[0].AID != 1 {
				t.Fatalf("events %v, want AP-STA-CONNECTED then EAPOL-4WAY-HS-COMPLETED", ev)
			}
			down := append(eth(staMAC, host, 0), []byte("downlink payload")...)
			h.wire(down)
			w.pump()
			if !w.hasPayload([]byte("downlink payload")) {
				t.Fatal("the downlink MSDU did not arrive decrypted")
			}
			w.send(0x0800, append(ipv4(0), []byte("uplink payload")...), true)
			_, wired := h.take()
			if len(wired) != 1 || !bytes.Contains(wired[0], []byte("uplink payload")) {
				t.Fatalf("uplink: %d wired frames", len(wired))
			}
		})
	}
}

func (w *wpaSTA) associateDone(t *testing.T) {
	t.Helper()
	w.pump()
	if !w.done {
		t.Fatal("4-way handshake did not complete")
	}
}

// Association requests are answered with hostapd's status codes for
// their RSNE.
func TestWPA2AssocStatus(t *testing.T) {
	ccmp, tkip := []rsn.Cipher{rsn.CipherCCMP}, []rsn.Cipher{rsn.CipherTKIP}
	for _, c := range []struct {
		name string
		elem []byte
		want uint16
	}{
		{"no RSNE", nil, ieee80211.StatusInvalidIE},
		{"TKIP group", rsn.Element{Version: 1, Group: rsn.CipherTKIP, Pairwise: ccmp, AKMs: []rsn.AKM{rsn.AKMPSK}, Last: rsn.FieldAKM}.Append(nil), ieee80211.StatusInvalidGroupCipher},
		{"TKIP pairwise", rsn.Element{Version: 1, Group: rsn.CipherCCMP, Pairwise: tkip, AKMs: []rsn.AKM{rsn.AKMPSK}, Last: rsn.FieldAKM}.Append(nil), ieee80211.StatusInvalidPairwiseCipher},
		{"SAE", rsn.Element{Version: 1, Group: rsn.CipherCCMP, Pairwise: ccmp, AKMs: []rsn.AKM{rsn.AKMSAE}, Last: rsn.FieldAKM}.Append(nil), ieee80211.StatusInvalidAKMP},
		{"PSK-SHA256 where only PSK", rsn.Element{Version: 1, Group: rsn.CipherCCMP, Pairwise: ccmp, AKMs: []rsn.AKM{rsn.AKMPSKSHA256}, Last: rsn.FieldAKM}.Append(nil), ieee80211.StatusInvalidAKMP},
	} {
		h := newHarness(t, wpaConfig(t, rsn.AKMPSK))
		h.auth(staMAC, 0, 1)
		b := ieee80211.AppendAssocReq(h.mgmt(ieee80211.SubtypeAssocReq, staMAC), 0x0431, 10)
		b = ieee80211.AppendSSID(b, h.a.cfg.SSID)
		b = append(ieee80211.AppendRates(b, gRates), c.elem...)
		h.air(b)
		out, _ := h.take()
		if ar, _ := h.assocResp(out, staMAC); ar.Status() != c.want {
			t.Errorf("%s: status %d, want %d", c.name, ar.Status(), c.want)
		}
	}
}

// stationState is what of a station a frame from the air could change.
type stationState struct {
	lastRx          time.Duration
	dozing, hadData bool
	rxSeq           [ieee80211.NumTIDs + 1]uint16
	rxValid         [ieee80211.NumTIDs + 1]bool
	signal          int8
	counters        StationCounters
}

func (h *harness) stationState(addr ieee80211.MAC) stationState {
	_, s := h.a.sta.lookup(addr)
	return stationState{s.lastRx, s.Dozing, s.HadData, s.rxSeq, s.rxValid, s.signal, s.StationCounters}
}

// Frames that fail the RSN checks are counted by reason and change nothing
// of the station they claim to come from: neither its power save, its
// sequence numbers, its inactivity timer, its signal nor its counters.
func TestWPA2DropsBeforeStationState(t *testing.T) {
	h := newHarness(t, wpaConfig(t, rsn.AKMPSK))
	w := newWPASTA(h, staMAC, rsn.AKMPSK)
	w.connect()
	good := w.frame(0x0800, ipv4(0), true, false)
	h.air(good)
	h.take()
	h.advance(time.Second)
	before := h.stationState(staMAC)

	forged := w.frame(0x0800, ipv4(0), false, true) // plaintext with the PM bit
	ieee80211.Frame(forged).SetRetry(true)
	replayed := append([]byte(nil), good...)
	ieee80211.Frame(replayed).SetSeq(h.nextSeq(), 0)
	tampered := w.frame(0x0800, ipv4(0), true, true)
	tampered[len(tampered)-1] ^= 1
	otherKey := w.frame(0x0800, ipv4(0), true, true)
	otherKey[26+3] = otherKey[26+3]&0x3f | 1<<6 // key ID 1
	unflagged := w.frame(0x0800, ipv4(0), true, true)
	ieee80211.Frame(unflagged).SetProtected(false)
	for _, c := range []struct {
		name  string
		frame []byte
		id    counter.ID
	}{
		{"plaintext", forged, counter.RxUnprotected},
		{"replayed", replayed, counter.RxReplayed},
		{"bad MIC", tampered, counter.RxMICFailure},
		{"unknown key ID", otherKey, counter.RxUndecryptable},
		{"Protected bit cleared", unflagged, counter.RxUnprotected},
	} {
		n := h.a.cnt[c.id]
		h.air(c.frame)
		if h.a.cnt[c.id] != n+1 {
			t.Errorf("%s: %s %d, want %d", c.name, c.id, h.a.cnt[c.id], n+1)
		}
		if _, wired := h.take(); len(wired) != 0 {
			t.Errorf("%s: bridged", c.name)
		}
		if got := h.stationState(staMAC); got != before {
			t.Errorf("%s changed the station:\n%+v\nwant\n%+v", c.name, got, before)
		}
	}
	// The genuine station goes on: a fresh frame passes.
	h.air(w.frame(0x0800, ipv4(0), true, false))
	if _, wired := h.take(); len(wired) != 1 {
		t.Errorf("a genuine frame after the forgeries: %d wired", len(wired))
	}
}

// A station with the wrong passphrase never gets a data frame through and
// is deauthenticated after hostapd's four tries, with the cause in one
// event.
func TestWPA2WrongPassphrase(t *testing.T) {
	h := newHarness(t, wpaConfig(t, rsn.AKMPSK))
	w := newWPASTA(h, staMAC, rsn.AKMPSK)
	w.associate("wrong horse battery")
	var deauth bool
	for i := 0; i < 100 && !deauth; i++ {
		w.pump()
		h.air(h.upIPv4(staMAC, host, 0, true))
		h.advance(100 * time.Millisecond)
		for _, b := range h.radio {
			if _, fr := parsed(t, b); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeDeauth) && fr.Addr1() == staMAC {
				deauth = true
			}
		}
	}
	if !deauth {
		t.Fatal("no deauthentication")
	}
	if h.a.cnt[counter.RxToWired] != 0 || h.a.cnt[counter.PSKMismatch] != 4 || h.a.cnt[counter.HandshakeFailed] != 1 {
		t.Errorf("counters %v", h.a.cnt.String())
	}
	ev := h.takeEvents()
	if len(ev) != 1 || ev[0].Kind != EventHandshakeFailed || ev[0].Why != "MIC mismatch on message 2: wrong passphrase likely" {
		t.Errorf("events %+v", ev)
	}
	if _, s := h.a.sta.lookup(staMAC); s != nil {
		t.Error("the station is still in the table")
	}
}

// The A-MSDU uplink path is behind the controlled port too.
func TestWPA2AMSDUBeforeKeyDropped(t *testing.T) {
	h := newHarness(t, wpaConfig(t, rsn.AKMPSK))
	w := newWPASTA(h, staMAC, rsn.AKMPSK)
	w.associate(testPassphrase)
	hdr := ieee80211.DataHeader{Flags: ieee80211.FCToDS, Addr1: bssid, Addr2: staMAC, Addr3: bssid, Seq: h.nextSeq(), QoS: true, AMSDU: true}
	b := ieee80211.AppendDataHeader(nil, hdr)
	body := len(b)
	b = ieee80211.AppendAMSDUSubframe(b, body, host, staMAC, 0x0800, ipv4(0))
	h.air(b)
	if _, wired := h.take(); len(wired) != 0 || h.a.cnt[counter.RxUnauthorized] != 1 {
		t.Errorf("A-MSDU before the key: %d wired; %v", len(wired), h.a.cnt.String())
	}
}

// EAPOL from the wired side never reaches a station: the authenticator is
// the only source of EAPOL.
func TestWPA2WiredEAPOLDropped(t *testing.T) {
	h := newHarness(t, wpaConfig(t, rsn.AKMPSK))
	w := newWPASTA(h, staMAC, rsn.AKMPSK)
	w.connect()
	e := ieee80211.AppendEtherHdr(nil, staMAC, host, etherTypeEAPOL)
	h.wire(append(e, 2, 3, 0, 0))
	if out, _ := h.take(); len(out) != 0 || h.a.cnt[counter.WiredDroppedUnauthorized] != 1 {
		t.Errorf("wired EAPOL: %d frames out; %v", len(out), h.a.cnt.String())
	}
}

// A station that gives up on its own after a wrong message 2 still gets
// its cause logged, once.
func TestWPA2WrongPassphraseStationLeaves(t *testing.T) {
	h := newHarness(t, wpaConfig(t, rsn.AKMPSK))
	w := newWPASTA(h, staMAC, rsn.AKMPSK)
	w.associate("wrong horse battery")
	w.pump()
	h.air(ieee80211.AppendDeauth(h.mgmt(ieee80211.SubtypeDeauth, staMAC), ieee80211.ReasonDeauthLeaving))
	ev := h.takeEvents()
	if len(ev) != 1 || ev[0].Kind != EventHandshakeFailed || !strings.Contains(ev[0].Why, "wrong passphrase likely") {
		t.Errorf("events %+v", ev)
	}
}

// wpa_psk_file's candidates: a station's own PSK, and any of several
// wildcards, each tried against message 2's MIC; the keyid of the one that
// matched shows in the station's entry. A station's own line does not
// stop a wildcard from admitting it.
func TestWPA2SeveralPSKs(t *testing.T) {
	other := ieee80211.MAC{0x02, 0, 0, 0, 0x01, 9}
	third := ieee80211.MAC{0x02, 0, 0, 0, 0x01, 8}
	cfg := wpaConfig(t, rsn.AKMPSK)
	cfg.RSN.PSKs = []bss.PSK{
		{Addr: staMAC, Passphrase: bss.NewPassphrase("staMAC's own passphrase"), KeyID: "own"},
		{PMK: ptr(testPMK(t, "first wildcard")), KeyID: "first"},
		{PMK: ptr(testPMK(t, testPassphrase)), KeyID: "second"},
	}
	h := newHarness(t, cfg)
	for _, c := range []struct {
		addr         ieee80211.MAC
		pass, keyID  string
		wantAdmitted bool
	}{
		{staMAC, "staMAC's own passphrase", "own", true},
		{other, testPassphrase, "second", true},
		{third, "first wildcard", "first", true},
	} {
		w := newWPASTA(h, c.addr, rsn.AKMPSK)
		w.associate(c.pass)
		w.pump()
		if w.done != c.wantAdmitted {
			t.Errorf("%s: handshake done %v", c.addr, w.done)
			continue
		}
		if st := h.a.ctlStation(h.now, h.slotOf(c.addr), nil); st.KeyID != c.keyID {
			t.Errorf("%s: keyid %q, want %q", c.addr, st.KeyID, c.keyID)
		}
		// hostapd's AP-STA-CONNECTED carries the keyid too.
		if ev := h.takeEvents(); len(ev) == 0 || ev[0].Kind != EventConnected || ev[0].KeyID != c.keyID {
			t.Errorf("%s: events %+v, want AP-STA-CONNECTED with keyid %q", c.addr, ev, c.keyID)
		}
	}
	if h.a.cnt[counter.PSKMismatch] != 0 {
		t.Errorf("%d mismatches: a station's candidates are tried, not refused", h.a.cnt[counter.PSKMismatch])
	}
}

func (h *harness) slotOf(addr ieee80211.MAC) uint16 {
	slot, _ := h.a.sta.lookup(addr)
	return slot
}
