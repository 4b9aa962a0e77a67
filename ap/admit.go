package ap

import (
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// The second half of the authentication and association handshakes, and
// the table's defence against floods. As hostapd does with mac80211, a
// station is authenticated once it acknowledges the authentication
// response (handle_auth_cb): an association request before that is
// ignored, and after an unacknowledged response the entry is gone: its
// request then gets a deauthentication (reason 6) unless it comes within
// lostAckWindow of the response (admit_lostack.go). An
// accepted association only reserves the AID; the station is associated
// (queues, AP-STA-CONNECTED) when the echo of the response shows it
// acknowledged. No ACK releases the AID at once; the station stays
// authenticated. While the status is awaited, class 3 frames from the
// station are ignored, not answered with a deauthentication.
//
// An echo can also be lost (the socket overflowed, a driver without TX
// status): a later echo on the same queue, or the echo timeout, tells.
// Then, or once Config.StatusWait has passed without a status, the
// station's next frame in the handshake proves it received the response:
// an association request after an authentication, a class 3 frame after
// an association. Its BSS's AssocResponseTimeout bounds the whole wait.
//
// Unconfirmed entries are cheap (a slot of the fixed table) and short
// lived, and a full table makes room before it refuses anyone: first the
// oldest station only authenticated, then the oldest waiting for its
// response's status, then the oldest associated station that has sent no
// data frame since it associated (an attacker can acknowledge for forged
// addresses, but its stations never carry traffic).

// Kinds of management frame whose TX status the handshake waits for.
const (
	mlmeNone  = uint8(bss.AwaitNone)
	mlmeAuth  = uint8(bss.AwaitAuth)
	mlmeAssoc = uint8(bss.AwaitAssoc)
)

// mlmeStatus takes the TX status of an authentication or association
// response (st nil: none will come).
func (a *AP) mlmeStatus(now time.Duration, rec *flight, st *radio.TxStatus) {
	s := &a.sta.slots[rec.slot]
	if s.Addr != rec.addr1 {
		return // the station left; its slot may be someone else's
	}
	switch {
	case rec.mlme == mlmeAuth:
		if s.State != bss.StateAuthenticated || s.AuthAt != rec.sent {
			return // a later exchange
		}
		if st != nil && !st.Acked {
			a.cnt[counter.AuthNotAcked]++
			a.sta.remove(rec.slot)
			return
		}
		s.AuthOK = true // acknowledged, or the status lost: an association may follow
	case s.State != bss.StateAssocPending:
	case st != nil && st.Acked:
		a.confirmAssoc(now, rec.slot)
	case rec.seqCtl != s.RespSeq:
		// An earlier response: the latest one decides.
	case st == nil:
		s.RespLost = true
	default:
		a.cnt[counter.AssocNotAcked]++
		a.releasePending(now, rec.slot, "association response not acknowledged")
	}
}

// confirmAssoc makes a pending station associated.
func (a *AP) confirmAssoc(now time.Duration, slot uint16) {
	s := &a.sta.slots[slot]
	s.bss.Confirm(now, slot, &s.Station)
	a.followIntolerant(now)
	a.cnt[counter.AssocAcked]++
	if err := a.sched.AddStation(slot); err != nil {
		panic(err) // slots come from the table, which the scheduler covers
	}
	a.sched.SetWeight(slot, a.cfg.AirtimeWeight)
	a.airtimeJoin(slot)
	s.rxValid = [ieee80211.NumTIDs + 1]bool{}
	if s.RSN != nil {
		if s.Announced {
			// As hostapd: the new handshake closes the port (AP-STA-
			// DISCONNECTED), its completion opens it again.
			s.Announced = false
			a.event(Event{At: now, Kind: EventDisconnected, Addr: s.Addr, AID: slot, Why: "reassociated: new 4-way handshake"})
		}
		a.startRSN(now, s)
		return
	}
	s.Authorized = true // open system: no key handshake to wait for
	if !s.Announced {
		s.Announced = true
		a.event(Event{At: now, Kind: EventConnected, Addr: s.Addr, AID: slot})
	}
}

// releasePending gives a pending station's AID back: it stays
// authenticated, for another of its BSS's AuthTimeout.
func (a *AP) releasePending(now time.Duration, slot uint16, why string) {
	s := &a.sta.slots[slot]
	s.bss.Release(now, slot, &s.Station)
	a.leaveRSN(now, s)
	if s.Announced {
		a.event(Event{At: now, Kind: EventDisconnected, Addr: s.Addr, AID: slot, Why: why})
		s.Announced = false
	}
	s.Reassoc = false
}

// admitClass3 decides a class 3 frame (data, PS-Poll) to BSS b from sa,
// whose entry is slot, s (nil if none; one in another BSS is none): true when the station is associated, or
// this frame confirms an association whose response's status was lost.
// Otherwise the frame is dropped: ignored while the response's status is
// awaited, else answered from b with reason 7 as hostapd does
// (ieee802_11_rx_from_unknown: a disassociation to an authenticated
// station, one that acknowledged its authentication response, and a
// deauthentication to others).
func (a *AP) admitClass3(now time.Duration, b *bss.BSS, sa ieee80211.MAC, slot uint16, s *station) bool {
	if s != nil && s.bss != b {
		// A station of another BSS of the radio is a stranger here: its
		// frames to this BSSID are not its BSS's to take.
		slot, s = 0, nil
	}
	switch {
	case s != nil && s.State == bss.StateAssociated:
		return true
	case s != nil && s.State == bss.StateAssocPending && (s.RespLost || now-s.PendingAt >= a.cfg.StatusWait):
		// The response's status was lost or is long overdue: a station
		// sends class 3 frames only once it has the response.
		a.cnt[counter.AssocByFrame]++
		a.confirmAssoc(now, slot)
		return true
	case s != nil && s.State == bss.StateAssocPending:
		a.cnt[counter.RxWhilePending]++
		return false
	}
	a.cnt[counter.RxFromUnknown]++
	if sa.IsMulticast() || sa.IsZero() || a.bssOf(sa) != nil {
		return false // hostapd ignores these silently
	}
	sub := uint8(ieee80211.SubtypeDeauth)
	if s != nil {
		s.RxDroppedUnauthorize++
		if s.AuthOK {
			sub = ieee80211.SubtypeDisassoc
		}
	}
	a.sendStrangerReply(now, b, sub, sa, ieee80211.ReasonClass3FromNonAssoc)
	return false
}

// makeRoom frees a slot of the full table for a new authentication; false
// when every station carries traffic. Of each kind the radio's oldest goes,
// whichever BSS holds it: a flood at one BSS then pushes out its own
// entries, not a station of another in the middle of joining.
func (a *AP) makeRoom(now time.Duration) bool {
	if slot := a.oldestOn(bss.ListAuth, func(s *station) time.Duration { return s.AuthAt }); slot != 0 {
		a.cnt[counter.AuthEvicted]++
		a.sta.remove(slot)
		return true
	}
	if slot := a.oldestOn(bss.ListPending, func(s *station) time.Duration { return s.PendingAt }); slot != 0 {
		a.cnt[counter.PendingEvicted]++
		a.disconnect(now, slot, ieee80211.ReasonAPFull, "removed to make room while associating", false)
		return true
	}
	if slot := a.oldestOn(bss.ListQuiet, func(s *station) time.Duration { return s.AssocAt }); slot != 0 {
		a.evictQuiet(now, a.sta.slots[slot].bss, 0)
		return true
	}
	return false
}

// oldestOn returns the slot longest on list l among the radio's BSSes,
// by since (when a station joined that list), 0 if every list is empty.
func (a *AP) oldestOn(l bss.List, since func(*station) time.Duration) uint16 {
	var oldest uint16
	for _, b := range a.bsses {
		slot := b.Stations.Oldest(l)
		if slot != 0 && (oldest == 0 || since(&a.sta.slots[slot]) < since(&a.sta.slots[oldest])) {
			oldest = slot
		}
	}
	return oldest
}

// makeAIDRoom frees an AID when Config.MaxStations are associated or
// associating in its BSS and another station asks (slot, which is not
// evicted).
func (a *AP) makeAIDRoom(now time.Duration, slot uint16) bool {
	b := a.sta.slots[slot].bss
	if p := b.Stations.Oldest(bss.ListPending); p != 0 && p != slot {
		a.cnt[counter.PendingEvicted]++
		a.releasePending(now, p, "association released to make room")
		return true
	}
	return a.evictQuiet(now, b, slot)
}

// evictQuiet removes the oldest associated station of b (but keep) that
// has sent no data frame since associating, telling it why within the
// reply budget (it is most likely a forged address).
func (a *AP) evictQuiet(now time.Duration, b *bss.BSS, keep uint16) bool {
	slot := b.Stations.Oldest(bss.ListQuiet)
	if slot == keep {
		slot = b.Stations.Next(slot)
	}
	if slot == 0 {
		return false
	}
	a.cnt[counter.QuietEvicted]++
	addr, from := a.sta.slots[slot].Addr, a.sta.slots[slot].bss
	a.disconnect(now, slot, ieee80211.ReasonAPFull, "removed to make room: no data since association", false)
	a.sendStrangerReply(now, from, ieee80211.SubtypeDeauth, addr, ieee80211.ReasonAPFull)
	return true
}

// sawData marks a station that sent a data frame since it associated: it
// is no longer a candidate for eviction, and stays known for a while.
func (a *AP) sawData(now time.Duration, slot uint16, s *station) {
	if !s.HadData {
		s.HadData = true
		a.sta.enlist(slot, bss.ListNone)
		s.bss.Senders.Heard(now, s.Addr)
	}
}

// expireUnconfirmed forgets stations authenticated for longer than their
// BSS's AuthTimeout, and releases the AIDs of associations whose
// response's status has not come for their BSS's AssocResponseTimeout.
// The lists are in time order: only expired entries are visited.
func (a *AP) expireUnconfirmed(now time.Duration) {
	for _, r := range a.radios {
		t, tm := &r.b.Stations, &r.timers
		for slot := t.Oldest(bss.ListAuth); slot != 0 && now-a.sta.slots[slot].AuthAt > tm.auth; slot = t.Oldest(bss.ListAuth) {
			a.sta.remove(slot)
		}
		for slot := t.Oldest(bss.ListPending); slot != 0 && now-a.sta.slots[slot].PendingAt > tm.assocResp; slot = t.Oldest(bss.ListPending) {
			a.cnt[counter.AssocTimedOut]++
			a.releasePending(now, slot, "no TX status for the association response")
		}
	}
}
