package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// request authenticates from and sends its association request, and
// returns the association response as sent, unechoed.
func (h *harness) request(from ieee80211.MAC) []byte {
	h.t.Helper()
	h.auth(from, 0, 1)
	h.assoc(from, h.a.cfg.SSID, gRates, false)
	out, _ := h.take()
	ar, raw := h.assocResp(out, from)
	if ar.Status() != ieee80211.StatusSuccess {
		h.t.Fatalf("association of %s: status %d", from, ar.Status())
	}
	return raw
}

func (h *harness) state(addr ieee80211.MAC) bss.StationState {
	if _, s := h.a.sta.lookup(addr); s != nil {
		return s.State
	}
	return bss.StateNone
}

func (h *harness) eventCounts() (connected, disconnected int) {
	for _, e := range h.takeEvents() {
		switch e.Kind {
		case EventConnected:
			connected++
		case EventDisconnected:
			disconnected++
		}
	}
	return
}

// reasonTo returns the subtype and reason code of the deauthentication or
// disassociation to addr in out, or 0, 0 if there is none.
func reasonTo(t *testing.T, out [][]byte, addr ieee80211.MAC) (uint8, uint16) {
	t.Helper()
	for _, b := range out {
		_, fr := parsed(t, b)
		if fr.Type() == ieee80211.TypeMgmt && fr.Addr1() == addr &&
			(fr.Subtype() == ieee80211.SubtypeDeauth || fr.Subtype() == ieee80211.SubtypeDisassoc) {
			d, err := ieee80211.ParseDeauth(fr.Body())
			if err != nil {
				t.Fatal(err)
			}
			return fr.Subtype(), d.Reason()
		}
	}
	return 0, 0
}

// TestNoAssociationWithoutAcknowledgedResponse: the AID is reserved when
// the request is accepted, but the station is associated (queues, the
// AP-STA-CONNECTED event) only once the response's echo shows an ACK. While
// it waits, its data is ignored rather than answered with a
// deauthentication; no ACK releases the AID and leaves it authenticated.
func TestNoAssociationWithoutAcknowledgedResponse(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	resp := h.request(staMAC)
	if h.state(staMAC) != bss.StateAssocPending || h.a.Associated() != 0 || h.a.bss.Pending != 1 {
		t.Fatalf("state %v, %d associated, %d pending", h.state(staMAC), h.a.Associated(), h.a.bss.Pending)
	}
	if c, _ := h.eventCounts(); c != 0 {
		t.Error("connected before the response was acknowledged")
	}
	// Class 3 frames while the response is pending: ignored.
	h.air(h.upIPv4(staMAC, host, 0, false))
	h.psPoll(staMAC, 1)
	out, wired := h.take()
	if sub, reason := reasonTo(t, out, staMAC); sub != 0 || len(wired) != 0 || h.a.Counters()[counter.RxWhilePending] != 2 {
		t.Fatalf("data while pending: subtype %d reason %d, %d wired, counters %+v", sub, reason, len(wired), h.a.Counters())
	}
	h.wire(eth(staMAC, host, 0))
	if out, _ := h.take(); len(out) != 0 || h.a.Counters()[counter.WiredDroppedNoStation] != 1 {
		t.Error("downlink to a station not yet associated")
	}
	// No ACK: the AID goes back, the station stays authenticated.
	h.echo(resp, radio.TxStatus{Acked: false, Retries: 6})
	if h.state(staMAC) != bss.StateAuthenticated || h.a.bss.Pending != 0 || h.a.Associated() != 0 || h.a.Counters()[counter.AssocNotAcked] != 1 {
		t.Fatalf("after no ACK: state %v, %d pending, %+v", h.state(staMAC), h.a.bss.Pending, h.a.Counters())
	}
	if c, d := h.eventCounts(); c != 0 || d != 0 {
		t.Errorf("%d connected and %d disconnected events for an association that never was", c, d)
	}
	// Now its data is a class 3 frame from an authenticated station.
	h.air(h.upIPv4(staMAC, host, 0, false))
	out, _ = h.take()
	if sub, reason := reasonTo(t, out, staMAC); sub != ieee80211.SubtypeDisassoc || reason != ieee80211.ReasonClass3FromNonAssoc {
		t.Errorf("data after the released AID: subtype %d reason %d, want a disassociation with reason 7", sub, reason)
	}
	// Associating again, acknowledged this time.
	h.assoc(staMAC, "airq-test", gRates, false)
	if aid := h.acceptAssoc(staMAC); aid != 1 || h.state(staMAC) != bss.StateAssociated || h.a.Associated() != 1 {
		t.Fatalf("AID %d, state %v", aid, h.state(staMAC))
	}
	if c, _ := h.eventCounts(); c != 1 {
		t.Errorf("%d connected events, want 1", c)
	}
	h.air(h.upIPv4(staMAC, host, 0, false))
	if _, wired := h.take(); len(wired) != 1 {
		t.Error("an associated station's data did not reach the wired side")
	}
}

// TestAssociationResponseWithoutStatus: no echo ever comes (the status is
// lost), so the reserved AID goes after AssocResponseTimeout; and a lost
// echo followed by a frame from the station is an association the station
// has proved.
func TestAssociationResponseWithoutStatus(t *testing.T) {
	h := newHarness(t, Config{AssocResponseTimeout: 300 * time.Millisecond})
	h.take()
	h.request(staMAC)
	for h.a.nextBeacon < 300*time.Millisecond {
		h.advance(h.a.nextBeacon - h.now)
	}
	if h.state(staMAC) != bss.StateAssocPending {
		t.Fatalf("released after %v", h.now)
	}
	h.advance(h.a.nextBeacon - h.now)
	h.advance(h.a.nextBeacon - h.now)
	if h.state(staMAC) != bss.StateAuthenticated || h.a.Counters()[counter.AssocTimedOut] != 1 || h.a.bss.Pending != 0 {
		t.Fatalf("after %v without status: state %v, %+v", h.now, h.state(staMAC), h.a.Counters())
	}
	h.take()

	// Lost: a later frame's echo on the same queue (a beacon) shows the
	// response's echo will not come; the station's first frame confirms it.
	h.assoc(staMAC, "airq-test", gRates, false)
	h.take()
	h.advance(h.a.nextBeacon - h.now)
	out, _ := h.take()
	h.echo(out[0], radio.TxStatus{Acked: true}) // the beacon
	if _, s := h.a.sta.lookup(staMAC); s == nil || s.State != bss.StateAssocPending || !s.RespLost {
		t.Fatal("the response's lost echo went unnoticed")
	}
	h.air(h.upIPv4(staMAC, host, 0, false))
	_, wired := h.take()
	if h.state(staMAC) != bss.StateAssociated || len(wired) != 1 || h.a.Counters()[counter.AssocByFrame] != 1 {
		t.Errorf("after its first frame: state %v, %d wired", h.state(staMAC), len(wired))
	}
	if c, _ := h.eventCounts(); c != 1 {
		t.Errorf("%d connected events, want 1", c)
	}
}

// TestReassociationWaitsForTheACK: an associated station that asks again
// is associating until the new response is acknowledged; a failed one
// ends its session, announced.
func TestReassociationWaitsForTheACK(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	h.join(staMAC, false)
	h.eventCounts()
	h.assoc(staMAC, "airq-test", gRates, false)
	if aid := h.acceptAssoc(staMAC); aid != 1 || h.state(staMAC) != bss.StateAssociated {
		t.Fatalf("reassociation: AID %d state %v", aid, h.state(staMAC))
	}
	if c, d := h.eventCounts(); c != 0 || d != 0 {
		t.Errorf("an acknowledged reassociation gave %d connected, %d disconnected events", c, d)
	}
	h.assoc(staMAC, "airq-test", gRates, false)
	out, _ := h.take()
	_, raw := h.assocResp(out, staMAC)
	if h.state(staMAC) != bss.StateAssocPending || h.a.Associated() != 0 {
		t.Fatalf("state %v during the reassociation", h.state(staMAC))
	}
	h.echo(raw, radio.TxStatus{Acked: false})
	if c, d := h.eventCounts(); h.state(staMAC) != bss.StateAuthenticated || c != 0 || d != 1 {
		t.Errorf("failed reassociation: state %v, %d connected, %d disconnected", h.state(staMAC), c, d)
	}
}

// TestRepeatedAssociationRequestIgnored: a retransmission (Retry bit, the
// same sequence number) of the request just answered gets no second
// response, as in hostapd.
func TestRepeatedAssociationRequestIgnored(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	h.auth(staMAC, 0, 1)
	b := ieee80211.AppendAssocReq(h.mgmt(ieee80211.SubtypeAssocReq, staMAC), 0x0421, 10)
	b = ieee80211.AppendSSID(b, "airq-test")
	b = ieee80211.AppendRates(b, gRates)
	h.air(b)
	h.take()
	ieee80211.Frame(b).SetRetry(true)
	h.air(b)
	if out, _ := h.take(); len(out) != 0 || h.a.Counters()[counter.AssocRetries] != 1 {
		t.Errorf("%d frames answer a retransmitted request", len(out))
	}
}

// TestAuthenticationNotAcknowledged: an authentication response nobody
// acknowledged leaves no entry (hostapd marks a station authenticated only
// on the ACK, and ignores association requests before), but an
// association request within lostAckWindow shows the station has it; one
// never echoed stays until AuthTimeout.
func TestAuthenticationNotAcknowledged(t *testing.T) {
	h := newHarness(t, Config{AuthTimeout: 500 * time.Millisecond})
	h.take()
	h.authNoAck(staMAC, 0, 1)
	out, _ := h.take()
	// Until the response's status is known, an association request is
	// ignored.
	h.assoc(staMAC, "airq-test", gRates, false)
	if out, _ := h.take(); len(out) != 0 || h.a.Counters()[counter.AssocEarly] != 1 {
		t.Fatalf("%d frames answer an association before the authentication's ACK", len(out))
	}
	for _, b := range out {
		h.echo(b, radio.TxStatus{Acked: false, Retries: 6})
	}
	if h.state(staMAC) != bss.StateNone || h.a.Counters()[counter.AuthNotAcked] != 1 {
		t.Fatalf("state %v after an unacknowledged authentication", h.state(staMAC))
	}
	// Its ACK was lost, not the response: the request is answered.
	h.assoc(staMAC, "airq-test", gRates, false)
	out, _ = h.take()
	if ar, _ := h.assocResp(out, staMAC); ar.Status() != ieee80211.StatusSuccess || h.a.Counters()[counter.AssocAfterLostAck] != 1 {
		t.Fatalf("association after a lost ACK: status %d", ar.Status())
	}
	// Past the window it is a class 2 frame from a stranger.
	late := ieee80211.MAC{2, 0, 0, 0, 0, 0x1a}
	h.authNoAck(late, 0, 1)
	out, _ = h.take()
	for _, b := range out {
		h.echo(b, radio.TxStatus{Acked: false, Retries: 6})
	}
	h.advance(lostAckWindow + time.Millisecond)
	h.take()
	h.assoc(late, "airq-test", gRates, false)
	out, _ = h.take()
	if sub, reason := reasonTo(t, out, late); sub != ieee80211.SubtypeDeauth || reason != ieee80211.ReasonClass2FromNonAuth {
		t.Errorf("association %v after an unacknowledged authentication: subtype %d reason %d", lostAckWindow, sub, reason)
	}
	h.authNoAck(staB, 0, 1)
	h.advance(400 * time.Millisecond)
	if h.state(staB) != bss.StateAuthenticated {
		t.Fatal("forgotten before AuthTimeout")
	}
	h.advance(h.a.nextBeacon - h.now)
	h.advance(h.a.nextBeacon - h.now)
	if h.state(staB) != bss.StateNone {
		t.Errorf("still %v after AuthTimeout", h.state(staB))
	}
}

// smallTable gives the core a station table of n slots, so that tests can
// fill it.
func smallTable(h *harness, n int) {
	h.a.bss.Stations = bss.NewTable(n)
	h.a.sta = newStationTable(n, &h.a.bss.Stations)
}

func macN(i int) ieee80211.MAC { return ieee80211.MAC{0x02, 0xe0, 0, 0, byte(i >> 8), byte(i)} }

// TestEvictionOrder: a full table makes room before it refuses anyone:
// first the oldest station only authenticated, then the oldest whose
// association response is pending, then the oldest associated station that
// has sent no data frame since it associated. A station that carries
// traffic is never evicted.
func TestEvictionOrder(t *testing.T) {
	h := newHarness(t, Config{AssocResponseTimeout: time.Minute, ReplyAirtime: 1})
	smallTable(h, 8)
	h.take()
	step := func() { h.now += 5 * time.Millisecond } // the reply budget is not the limit
	real, q1, q2 := macN(1), macN(2), macN(3)
	h.join(real, false)
	h.air(h.upIPv4(real, host, 0, false))
	h.join(q1, false)
	step()
	h.join(q2, false)
	step()
	var pend []ieee80211.MAC
	for i := range 2 {
		m := macN(10 + i)
		h.request(m)
		pend = append(pend, m)
		step()
	}
	u1, u2, u3 := macN(20), macN(21), macN(22)
	for _, m := range []ieee80211.MAC{u1, u2, u3} {
		h.auth(m, 0, 1)
		step()
	}
	h.take()
	if h.a.sta.ids.Free() != 0 {
		t.Fatalf("%d free slots", h.a.sta.ids.Free())
	}
	gone := func(m ieee80211.MAC) bool { return h.state(m) == bss.StateNone }

	// Only authenticated: the oldest goes first.
	h.auth(macN(30), 0, 1)
	step()
	if !gone(u1) || gone(u2) || h.a.Counters()[counter.AuthEvicted] != 1 {
		t.Fatalf("first eviction: u1 gone %v, u2 gone %v", gone(u1), gone(u2))
	}
	// Turn every authenticated-only station into a pending one; then the
	// oldest pending goes.
	for _, m := range []ieee80211.MAC{u2, u3, macN(30)} {
		h.request2(m)
		pend = append(pend, m)
		step()
	}
	h.auth(macN(31), 0, 1)
	step()
	if !gone(pend[0]) || gone(pend[1]) || h.a.Counters()[counter.PendingEvicted] != 1 || h.a.bss.Pending != 4 {
		t.Fatalf("second eviction: %v %v, %d pending", gone(pend[0]), gone(pend[1]), h.a.bss.Pending)
	}
	// Every pending one asks again and acknowledges; then the oldest
	// quiet associated station goes, told why.
	for _, m := range append(pend[1:], macN(31)) {
		h.assoc(m, "airq-test", gRates, false)
		h.acceptAssoc(m)
	}
	h.eventCounts()
	h.auth(macN(32), 0, 1)
	out, _ := h.take()
	if !gone(q1) || gone(q2) || gone(real) || h.a.Counters()[counter.QuietEvicted] != 1 {
		t.Fatalf("third eviction: q1 gone %v, q2 gone %v, real gone %v", gone(q1), gone(q2), gone(real))
	}
	if sub, reason := reasonTo(t, out, q1); sub != ieee80211.SubtypeDeauth || reason != ieee80211.ReasonAPFull {
		t.Errorf("evicted station told subtype %d reason %d, want a deauthentication with reason 5", sub, reason)
	}
	if _, d := h.eventCounts(); d != 1 {
		t.Errorf("%d disconnected events for the evicted station", d)
	}
	// Stations that carry traffic are never evicted: with only those, a
	// newcomer is refused.
	for slot := range h.a.sta.used() {
		if m := h.a.sta.slots[slot].Addr; h.state(m) == bss.StateAssociated {
			h.air(h.upIPv4(m, host, 0, false))
		}
	}
	h.assoc(macN(32), "airq-test", gRates, false)
	h.acceptAssoc(macN(32))
	h.air(h.upIPv4(macN(32), host, 0, false))
	h.take()
	h.auth(macN(33), 0, 1)
	out, _ = h.take()
	au, _ := ieee80211.ParseAuth(findMgmt(t, out, ieee80211.SubtypeAuth, macN(33)).Body())
	if au.Status() != ieee80211.StatusAPUnableToHandleNewSta || gone(real) {
		t.Errorf("full of active stations: status %d, real gone %v", au.Status(), gone(real))
	}
}

// request2 sends the association request of an authenticated station and
// returns its (successful) response, unechoed.
func (h *harness) request2(from ieee80211.MAC) []byte {
	h.t.Helper()
	h.assoc(from, h.a.cfg.SSID, gRates, false)
	out, _ := h.take()
	ar, raw := h.assocResp(out, from)
	if ar.Status() != ieee80211.StatusSuccess {
		h.t.Fatalf("association of %s: status %d", from, ar.Status())
	}
	return raw
}

// TestMaxStationsEvictsQuiet: at MaxStations, a new association takes the
// AID of a station that has sent nothing since it associated, never that
// of one carrying traffic.
func TestMaxStationsEvictsQuiet(t *testing.T) {
	h := newHarness(t, Config{MaxStations: 2})
	h.take()
	real, quiet := macN(1), macN(2)
	h.join(real, false)
	h.air(h.upIPv4(real, host, 0, false))
	h.join(quiet, false)
	h.take()
	h.join(staMAC, false)
	if h.state(quiet) != bss.StateNone || h.state(real) != bss.StateAssociated || h.a.Counters()[counter.QuietEvicted] != 1 {
		t.Fatalf("quiet %v real %v", h.state(quiet), h.state(real))
	}
	h.air(h.upIPv4(staMAC, host, 0, false))
	h.auth(staB, 0, 1)
	h.assoc(staB, "airq-test", gRates, false)
	out, _ := h.take()
	if ar, _ := h.assocResp(out, staB); ar.Status() != ieee80211.StatusAPUnableToHandleNewSta {
		t.Errorf("status %d with two active stations, want 17", ar.Status())
	}
}

// TestOverdueStatusTakenFromTheStation: with no TX status at all (a radio
// without echoes), the station's next frame after StatusWait proves it
// received the response: an association request after its
// authentication, data after its association. Before that such frames
// are ignored.
func TestOverdueStatusTakenFromTheStation(t *testing.T) {
	h := newHarness(t, Config{StatusWait: 50 * time.Millisecond})
	h.take()
	h.authNoAck(staMAC, 0, 1)
	h.now += 10 * time.Millisecond
	h.assoc(staMAC, "airq-test", gRates, false)
	if out, _ := h.take(); len(out) != 1 || h.a.Counters()[counter.AssocEarly] != 1 { // the authentication response
		t.Fatalf("%d frames after an association request 10 ms into the wait", len(out))
	}
	h.now += 50 * time.Millisecond
	h.assoc(staMAC, "airq-test", gRates, false)
	out, _ := h.take()
	if ar, _ := h.assocResp(out, staMAC); ar.Status() != ieee80211.StatusSuccess || h.state(staMAC) != bss.StateAssocPending {
		t.Fatalf("status %d, state %v", ar.Status(), h.state(staMAC))
	}
	h.now += 10 * time.Millisecond
	h.air(h.upIPv4(staMAC, host, 0, false))
	if _, wired := h.take(); len(wired) != 0 || h.state(staMAC) != bss.StateAssocPending {
		t.Fatal("data 10 ms into the wait was taken")
	}
	h.now += 50 * time.Millisecond
	h.air(h.upIPv4(staMAC, host, 0, false))
	if _, wired := h.take(); len(wired) != 1 || h.state(staMAC) != bss.StateAssociated || h.a.Counters()[counter.AssocByFrame] != 1 {
		t.Errorf("data after the wait: %d wired, state %v", len(wired), h.state(staMAC))
	}
}

// TestPendingShownAsPending: a station whose association response awaits
// its acknowledgement is neither authenticated only nor associated in the
// status (num_pending), and the station dump names its state.
func TestPendingShownAsPending(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	resp := h.request(staMAC)
	state := func() (counter.Set, ctl.Station) {
		t.Helper()
		r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationDump})
		st := h.a.Control(h.now, ctl.Request{Op: ctl.OpStatus}).Status
		if len(r.Stations) != 1 || st == nil {
			t.Fatalf("dump %+v, status %v", r, st)
		}
		return st.Counters, r.Stations[0]
	}
	c, s := state()
	if c[counter.Pending] != 1 || c[counter.Authenticated] != 0 || c[counter.Associated] != 0 || s.State != ctl.StatePending || s.Associated {
		t.Errorf("pending: %s; dump state %q associated %v", c.String(), s.State, s.Associated)
	}
	h.echo(resp, radio.TxStatus{Acked: true})
	if c, s = state(); c[counter.Pending] != 0 || c[counter.Associated] != 1 || s.State != ctl.StateAssociated || !s.Associated {
		t.Errorf("acknowledged: %s; dump state %q", c.String(), s.State)
	}
	h.a.Control(h.now, ctl.Request{Op: ctl.OpStationDel, Addr: staMAC})
	h.take()
	h.auth(staMAC, 0, 1)
	if c, s = state(); c[counter.Authenticated] != 1 || c[counter.Pending] != 0 || s.State != ctl.StateAuthenticated {
		t.Errorf("authenticated: %s; dump state %q", c.String(), s.State)
	}
}

// TestLostAckRecordEndsWithTheStation: a station that deauthenticates
// loses what its answered authentication allowed; its association request
// is then a stranger's.
func TestLostAckRecordEndsWithTheStation(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	h.auth(staMAC, 0, 1)
	h.take()
	h.air(ieee80211.AppendDeauth(h.mgmt(ieee80211.SubtypeDeauth, staMAC), ieee80211.ReasonDeauthLeaving))
	h.take()
	h.assoc(staMAC, "airq-test", gRates, false)
	out, _ := h.take()
	if sub, reason := reasonTo(t, out, staMAC); sub != ieee80211.SubtypeDeauth || reason != ieee80211.ReasonClass2FromNonAuth {
		t.Errorf("association after leaving: subtype %d reason %d", sub, reason)
	}
}
