package ap

import (
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rsn"
)

// The data subtypes that say "no data" (CF-Ack, CF-Poll and their QoS
// forms, and the reserved one) carry no MSDU: one with a body, unprotected
// after the key, is a plaintext injection and must not be bridged, nor
// change anything of the station it claims.
func TestWPA2NoDataSubtypesNotBridged(t *testing.T) {
	for _, sub := range []byte{5, 6, 7, 13, 14, 15} {
		h := newHarness(t, wpaConfig(t, rsn.AKMPSK))
		w := newWPASTA(h, staMAC, rsn.AKMPSK)
		w.connect()
		h.take()
		before := h.stationState(staMAC)
		qos := sub&8 != 0
		f := h.upIPv4(staMAC, host, 0, qos)
		f[0] = sub<<4 | 0x08
		n := h.a.cnt[counter.RxUnprotected]
		h.air(f)
		if h.a.cnt[counter.RxUnprotected] != n+1 {
			t.Errorf("subtype %d: not counted as unprotected", sub)
		}
		if _, wired := h.take(); len(wired) != 0 {
			t.Errorf("subtype %d: plaintext MSDU bridged after the key", sub)
		}
		if got := h.stationState(staMAC); got != before {
			t.Errorf("subtype %d changed the station:\n%+v\nwant\n%+v", sub, got, before)
		}
	}
}

// A PSK reload between message 2 and message 4 must not leave the station
// connected under the PMK the reload removed: the PMK its message 2
// matched is what counts, not the reloaded list's entry of the same
// index.
func TestWPA2PSKReloadDuringHandshake(t *testing.T) {
	h := newHarness(t, wpaConfig(t, rsn.AKMPSK))
	h.advance(0)
	h.take()
	w := newWPASTA(h, staMAC, rsn.AKMPSK)
	w.associate(testPassphrase)
	out, _ := h.take() // message 1
	for _, b := range out {
		w.deliver(b)
	}
	msg3, _ := h.take()
	if len(msg3) == 0 {
		t.Fatal("no message 3")
	}
	p, err := DerivePSKs(&RSNConfig{PSKs: []bss.PSK{{PMK: ptr(testPMK(t, "a new passphrase")), KeyID: "new"}}}, "")
	if err != nil {
		t.Fatal(err)
	}
	gone, err := h.a.SetPSKs(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range msg3 {
		w.deliver(b)
	}
	w.pump()
	_, s := h.a.sta.lookup(staMAC)
	if len(gone) == 0 && s != nil && s.Authorized {
		t.Fatalf("authorized under a removed PSK (keyid %q)", s.RSN.KeyID)
	}
}

// A forged reassociation request from a keyed station's MAC drops its
// keys, but opens nothing: plaintext from that MAC is not bridged, while
// the response is pending or after, and nothing goes to it unprotected
// but EAPOL.
func TestWPA2ReassocWhileKeyedOpensNothing(t *testing.T) {
	h := newHarness(t, wpaConfig(t, rsn.AKMPSK))
	w := newWPASTA(h, staMAC, rsn.AKMPSK)
	w.connect()
	h.take()
	b := ieee80211.AppendAssocReq(h.mgmt(ieee80211.SubtypeAssocReq, staMAC), 0x0431, 10)
	b = ieee80211.AppendSSID(b, h.a.cfg.SSID)
	b = ieee80211.AppendRates(b, gRates)
	b = append(b, w.rsne()...)
	b = ieee80211.AppendWMMInfo(b, 0)
	h.air(b)
	for _, wait := range []time.Duration{0, time.Second} {
		h.advance(wait)
		h.air(h.upIPv4(staMAC, host, 0, true))
		h.wire(eth(staMAC, host, 0))
		out, wired := h.take()
		if len(wired) != 0 {
			t.Errorf("after %v: plaintext bridged", wait)
		}
		for _, f := range out {
			_, fr := parsed(t, f)
			if fr.Type() != ieee80211.TypeData || fr.Addr1() != staMAC || fr.IsNullData() || fr.Protected() {
				continue
			}
			if et, _, ok := ieee80211.Decap(fr.Body()); !ok || et != etherTypeEAPOL {
				t.Errorf("after %v: unprotected data (EtherType %#x) to the station", wait, et)
			}
		}
	}
	if h.a.cnt[counter.AssocByFrame] != 1 || h.a.cnt[counter.RxUnauthorized] == 0 {
		t.Errorf("the overdue response was not confirmed by the data frame: %v", h.a.cnt.String())
	}
}

// A station that leaves during the 4-way handshake after a message 2 that
// failed in answer to an older message 1 (a forged frame, as likely as a
// wrong passphrase) is not reported as a wrong passphrase: the event says
// which the mismatches allow.
func TestWPA2LeaveAfterForgedMessage2(t *testing.T) {
	h := newHarness(t, wpaConfig(t, rsn.AKMPSK))
	w := newWPASTA(h, staMAC, rsn.AKMPSK)
	w.associate(testPassphrase)
	var replays []uint64
	for range 2 { // message 1 twice, never answered
		out, _ := h.take()
		for _, b := range out {
			_, fr := parsed(t, b)
			if et, payload, ok := ieee80211.Decap(fr.Body()); fr.Type() == ieee80211.TypeData && ok && et == etherTypeEAPOL {
				k, _ := rsn.ParseKeyFrame(payload)
				replays = append(replays, k.Replay())
			}
			h.echo(b, radio.TxStatus{Acked: true})
		}
		h.advance(1100 * time.Millisecond)
	}
	if len(replays) < 2 {
		t.Fatalf("messages 1 with replay counters %v", replays)
	}
	forged := rsn.AppendKeyFrame(nil, &rsn.KeyFields{ProtocolVersion: 1, Replay: replays[0],
		Info: rsn.VersionHMACSHA1 | rsn.InfoPairwise | rsn.InfoMIC, Nonce: rsn.Nonce{1}, Data: w.rsne()})
	w.send(etherTypeEAPOL, forged, false)
	h.air(ieee80211.AppendDeauth(h.mgmt(ieee80211.SubtypeDeauth, staMAC), ieee80211.ReasonDeauthLeaving))
	ev := h.takeEvents()
	if h.a.cnt[counter.PSKMismatch] != 1 || len(ev) != 1 || ev[0].Kind != EventHandshakeFailed ||
		strings.Contains(ev[0].Why, "wrong passphrase likely") || !strings.Contains(ev[0].Why, "forged") {
		t.Errorf("%d mismatches, events %+v", h.a.cnt[counter.PSKMismatch], ev)
	}
}

// An unprotected QoS Null "from" a station with a key, carrying the
// Sequence Control of its next frame, neither writes the duplicate
// detection cache nor counts as data (mac80211's ieee80211_rx_h_check_dup
// skips nullfunc frames): the station's genuine frame with that sequence
// number passes, as a first transmission and as a retransmission whose
// first transmission the AP missed.
func TestWPA2ForgedNullKeepsDuplicateCache(t *testing.T) {
	for _, retry := range []bool{false, true} {
		h := newHarness(t, wpaConfig(t, rsn.AKMPSK))
		w := newWPASTA(h, staMAC, rsn.AKMPSK)
		w.connect()
		h.take()
		packets := h.a.sta.slots[h.slotOf(staMAC)].RxPackets
		null := ieee80211.AppendDataHeader(nil, ieee80211.DataHeader{Flags: ieee80211.FCToDS | ieee80211.FCRetry,
			Addr1: bssid, Addr2: staMAC, Addr3: bssid, Seq: h.seq + 1, QoS: true, Null: true})
		h.air(null)
		if got := h.a.sta.slots[h.slotOf(staMAC)].RxPackets; got != packets {
			t.Errorf("retry %v: the Null counted as data: %d packets, was %d", retry, got, packets)
		}
		f := ieee80211.Frame(w.frame(0x0800, ipv4(0), true, false))
		f.SetRetry(retry)
		h.air(f)
		if _, wired := h.take(); len(wired) != 1 || h.a.cnt[counter.RxDuplicates] != 0 {
			t.Errorf("retry %v: the genuine frame after a forged Null: %d wired, %d duplicates", retry, len(wired), h.a.cnt[counter.RxDuplicates])
		}
	}
}
