package ap

import (
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

const authOpenSystem = 0

// handleAuth answers an open-system authentication. The station's entry
// exists from the moment the response is sent, and goes again if the
// response's echo shows it was not acknowledged (hostapd marks a station
// authenticated only on that acknowledgement), after its BSS's AuthTimeout
// without an association, or when a full table needs its slot. The
// response is remembered for lostAckWindow (admit_lostack.go).
func (a *AP) handleAuth(now time.Duration, b *bss.BSS, fr ieee80211.Frame) {
	auth, err := ieee80211.ParseAuth(fr.Body())
	if err != nil {
		a.cnt[counter.RxMalformed]++
		return
	}
	sa := fr.Addr2()
	alg, seq := auth.Algorithm(), auth.Transaction()
	slot, s := a.sta.lookup(sa)
	class := a.replyClassOf(now, b, sa, s)
	switch {
	case alg == authSAE && a.saeOf(b) != nil:
		a.handleSAEAuth(now, b, sa, auth, class)
		return
	case alg != authOpenSystem:
		a.sendAuth(now, b, sa, alg, seq+1, ieee80211.StatusNotSupportedAuthAlg, class, 0)
		return
	case seq != 1:
		a.sendAuth(now, b, sa, alg, seq+1, ieee80211.StatusUnknownAuthTransaction, class, 0)
		return
	}
	if a.aclRefuses(now, b, sa, "authentication") {
		// hostapd's handle_auth: "Station not allowed to authenticate",
		// answered with unspecified failure. A station the lists now
		// refuse loses what it had; what it has with another BSS of the
		// radio is not this BSS's to end (hostapd would not even find it).
		if s != nil && s.bss == b {
			a.disconnect(now, slot, ieee80211.ReasonPrevAuthNotValid, "refused by the access lists", false)
		}
		a.sendAuth(now, b, sa, alg, 2, ieee80211.StatusUnspecified, class, 0)
		return
	}
	if s.keepsAssoc() {
		// Whichever BSS it is sent to: an unprotected frame anyone can
		// forge must not end an MFP station's association, here or in
		// another BSS of the radio (hostapd moves the station at once,
		// ap_sta_remove_in_other_bss, which undoes 802.11w). A station
		// that really moves deauthenticates first under its keys, or its
		// association request here starts its BSS's SA Query
		// (handleAssoc).
		a.authKeepsAssoc(now, b, sa, alg, class)
		return
	}
	slot, s, ok := a.freshEntry(now, b, sa, slot, s)
	if !ok {
		a.sendAuth(now, b, sa, alg, 2, ieee80211.StatusAPUnableToHandleNewSta, class, 0)
		return
	}
	b.Authenticate(now, slot, &s.Station, class == bss.ReplyKnown)
	s.lastRx = now
	if !a.sendAuth(now, b, sa, alg, 2, ieee80211.StatusSuccess, class, slot) {
		a.sta.remove(slot) // never told: it holds nothing
		return
	}
	b.Answered.Add(now, sa)
}

// freshEntry gives sa a new entry in BSS b (s, its old one, nil if none):
// authenticating again resets the station (whatever it had queued belongs
// to a session it has given up); a full table makes room if it can. A
// station that moves from another BSS of the radio is deauthenticated
// there, as hostapd's ap_sta_remove_in_other_bss does, within that BSS's
// reply budget (a frame from the air asked for it) and under its keys,
// sent while the station still has them.
func (a *AP) freshEntry(now time.Duration, b *bss.BSS, sa ieee80211.MAC, slot uint16, s *station) (uint16, *station, bool) {
	switch {
	case s != nil && s.bss != b:
		a.sendStrangerReply(now, s.bss, ieee80211.SubtypeDeauth, sa, ieee80211.ReasonPrevAuthNotValid)
		a.disconnect(now, slot, ieee80211.ReasonPrevAuthNotValid, "authenticated with another BSS", false)
	case s != nil:
		a.disconnect(now, slot, ieee80211.ReasonPrevAuthNotValid, "reauthenticated", false)
	}
	slot, s, ok := a.sta.add(b, sa)
	if !ok && a.makeRoom(now) {
		slot, s, ok = a.sta.add(b, sa)
	}
	if ok {
		s.bssIdx = a.indexOf(b)
	}
	return slot, s, ok
}

// handleAssoc answers a (re)association request. An accepted one reserves
// the AID (the slot) and sends the response; the station is associated
// only once the response's echo shows it acknowledged (admit.go).
func (a *AP) handleAssoc(now time.Duration, b *bss.BSS, fr ieee80211.Frame) {
	reassoc := fr.Subtype() == ieee80211.SubtypeReassocReq
	capab, listen, ies, ok := parseAssocReq(fr)
	if !ok {
		a.cnt[counter.RxMalformed]++
		return
	}
	sa := fr.Addr2()
	slot, s := a.sta.lookup(sa)
	switch {
	case s == nil:
		slot, s, _ = a.readmitAnswered(now, b, sa)
	case s.bss != b:
		// Authenticated with another BSS of the radio: to this one a
		// stranger, refused as one (hostapd's handle_assoc finds no
		// entry in this BSS), and what it has there stays. An MFP
		// station's BSS asks it under its keys whether it is still
		// there, as for a request to itself: one that left without its
		// deauthentication getting through answers nothing, loses that
		// association when the query times out, and can then move.
		if s.keepsAssoc() {
			_, _, step := a.saQuery(s).Assoc(now)
			a.saQueryStep(now, slot, s, step)
		}
		slot, s = 0, nil
	}
	if !a.assocAllowed(now, b, fr, sa, s) {
		return
	}
	class := a.replyClassOf(now, b, sa, s)
	if a.aclRefuses(now, b, sa, "association") {
		// Authenticated before the lists changed: refused, and removed.
		a.disconnect(now, slot, ieee80211.ReasonPrevAuthNotValid, "refused by the access lists", false)
		a.sendAssocResp(now, b, reassoc, sa, ieee80211.StatusUnspecified, 0, false, class)
		return
	}
	status, wmm, rates := a.checkAssocIEs(b, ies)
	var (
		neg   rsn.Negotiated
		rsnxe []byte
	)
	if status == ieee80211.StatusSuccess && a.rsnOf(s) != nil {
		neg, rsnxe, status = a.rsnOf(s).checkRSNE(ies)
	}
	if status == ieee80211.StatusSuccess && a.rsnOf(s) != nil {
		status = a.saeAssoc(now, s, &neg, rsnxe)
	}
	if status == ieee80211.StatusSuccess && s.keepsAssoc() && a.saQueryAssoc(now, slot, s, reassoc, class) {
		return // refused for now: the SA Query asks the station
	}
	if status == ieee80211.StatusSuccess && s.State == bss.StateAuthenticated &&
		b.Associated+b.Pending >= a.radioOf(b).maxStations && !a.makeAIDRoom(now, slot) {
		status = ieee80211.StatusAPUnableToHandleNewSta
	}
	if status != ieee80211.StatusSuccess {
		a.sendAssocResp(now, b, reassoc, sa, status, 0, false, class)
		return
	}
	a.reserveAID(now, slot, s)
	s.Capability, s.ListenInterval = capab, listen
	s.Rates, s.txRate, s.QoS = rates, b.Rates.Best(rates), wmm
	s.NonERP = rates&b.Rates.OFDM == 0
	s.LongPreamble = capab&bss.CapShortPre == 0
	a.learnCaps(s, ies)
	if a.rsnOf(s) != nil {
		a.joinRSN(now, s, neg, rsnxe)
		s.saeSetPMK()
	}
	if !a.sendAssocResp(now, b, reassoc, sa, ieee80211.StatusSuccess, slot, wmm, class) {
		a.cnt[counter.AssocNotSent]++
		a.releasePending(now, slot, "association response not sent")
	}
}

// assocAllowed decides whether a (re)association request from sa (entry
// s, nil if none) is answered at all: a stranger's (not answered within
// lostAckWindow either) gets a deauthentication (reason 6); one sent before the authentication
// response's status is known, and a retransmission of the request just
// answered (hostapd: "Drop repeated association frame"), are ignored.
func (a *AP) assocAllowed(now time.Duration, b *bss.BSS, fr ieee80211.Frame, sa ieee80211.MAC, s *station) bool {
	if s == nil || s.bss != b {
		// One authenticated with another BSS of the radio is a stranger
		// here: each BSS has its own stations and keys (hostapd's
		// separate sta tables).
		a.sendStrangerReply(now, b, ieee80211.SubtypeDeauth, sa, ieee80211.ReasonClass2FromNonAuth)
		return false
	}
	if s.State == bss.StateAuthenticated && !s.AuthOK {
		if now-s.AuthAt < a.cfg.StatusWait {
			// A real station has hardly had the response; an attacker
			// blasting requests gets nothing.
			a.cnt[counter.AssocEarly]++
			return false
		}
		s.AuthOK = true // its status is overdue: the request shows the station has it
	}
	if fr.Retry() && s.AssocSeqOK && s.AssocSeq == fr.SeqCtl() {
		a.cnt[counter.AssocRetries]++
		return false
	}
	s.AssocSeq, s.AssocSeqOK = fr.SeqCtl(), true
	return true
}

// reserveAID makes an accepted station pending: its AID (the slot) is
// reserved until the response's status decides. An associated station
// that asks again starts a new session once the new response is
// acknowledged; until then it is associating.
func (a *AP) reserveAID(now time.Duration, slot uint16, s *station) {
	wasAssociated := s.State == bss.StateAssociated
	if wasAssociated {
		// The radio's width follows at Confirm, not here: a 40 MHz
		// Intolerant station that reassociates keeps it at 20 MHz
		// throughout, as hostapd counts it until it is gone.
		a.flushStation(slot)
		s.bss.Unassociate(&s.Station)
	}
	s.bss.Reserve(now, slot, &s.Station, wasAssociated)
}

// parseAssocReq returns the fixed fields and elements of a (re)association
// request.
func parseAssocReq(fr ieee80211.Frame) (capab, listen uint16, ies ieee80211.Elements, ok bool) {
	if fr.Subtype() == ieee80211.SubtypeReassocReq {
		req, err := ieee80211.ParseReassocReq(fr.Body())
		if err != nil {
			return 0, 0, nil, false
		}
		return req.Capability(), req.ListenInterval(), req.Elements(), true
	}
	req, err := ieee80211.ParseAssocReq(fr.Body())
	if err != nil {
		return 0, 0, nil, false
	}
	return req.Capability(), req.ListenInterval(), req.Elements(), true
}

// checkAssocIEs checks a request's elements, made to BSS b, in hostapd's order
// (check_assoc_ies): an element chain that overruns the frame (its
// ieee802_11_parse_elems fails) and a malformed WMM element are refused
// with status 1, as is another SSID; the basic rates must all be there.
// A second copy of an element allowed once is refused with status 40
// (admit_elems.go) before any element is read.
// It returns the status, whether the station does WMM, and its rates.
func (a *AP) checkAssocIEs(b *bss.BSS, ies ieee80211.Elements) (status uint16, wmm bool, rates uint16) {
	if ies.Validate() != nil {
		a.cnt[counter.AssocMalformed]++
		return ieee80211.StatusUnspecified, false, 0
	}
	if bss.RepeatsOnceElement(ies) {
		a.cnt[counter.AssocRepeatedElem]++
		return ieee80211.StatusInvalidIE, false, 0
	}
	if ssid, ok := ies.Find(ieee80211.ElemSSID); !ok || string(ssid) != b.Profile.SSID {
		return ieee80211.StatusUnspecified, false, 0
	}
	if b.Profile.WMM {
		_, found, err := ies.StationWMM()
		if err != nil {
			a.cnt[counter.AssocMalformed]++
			return ieee80211.StatusUnspecified, false, 0
		}
		wmm = found
	}
	rates = b.Rates.Parse(ies)
	if rates&b.Rates.Basic != b.Rates.Basic {
		return ieee80211.StatusAssocDeniedRates, false, 0
	}
	return ieee80211.StatusSuccess, wmm, rates
}

// handleLeave takes a deauthentication or disassociation from slot, s
// (nil: not a station of the BSS it was sent to, which ignores it).
func (a *AP) handleLeave(now time.Duration, slot uint16, s *station, fr ieee80211.Frame) {
	if s == nil {
		return
	}
	reason := uint16(0)
	if body := fr.Body(); len(body) >= 2 {
		reason = uint16(body[0]) | uint16(body[1])<<8
	}
	if fr.Subtype() == ieee80211.SubtypeDisassoc {
		switch s.State {
		case bss.StateAssociated:
			a.toAuthenticated(now, slot, s, reason, "disassociated by station")
		case bss.StateAssocPending:
			a.releasePending(now, slot, "disassociated by station")
		}
		return
	}
	a.disconnect(now, slot, reason, "deauthenticated by station", false)
}

// toAuthenticated ends an associated station's association: it stays
// authenticated, for another of its BSS's AuthTimeout, without its keys.
func (a *AP) toAuthenticated(now time.Duration, slot uint16, s *station, reason uint16, why string) {
	a.unassociate(now, slot, s)
	s.bss.Deassociate(now, slot, &s.Station)
	a.leaveRSN(now, s)
	s.Authorized = false // an open network's port closes with the association
	if s.Announced {
		s.Announced = false
		a.event(Event{At: now, Kind: EventDisconnected, Addr: s.Addr, AID: slot, Reason: reason, Why: why})
	}
}

// disassociate is the operator's disassociation: the frame goes out under
// the station's keys, then an associated station is only authenticated
// (its session's keys and queues gone), as hostapd's DISASSOCIATE leaves it.
func (a *AP) disassociate(now time.Duration, slot uint16, s *station, reason uint16) {
	a.sendDisassoc(now, s.bss, s.Addr, reason)
	if s.State == bss.StateAssociated {
		a.toAuthenticated(now, slot, s, reason, "disassociated by operator")
		a.txLoop(now)
	}
}

// unassociate takes an associated station out of the BSS's books: its
// queues, its count and its ERP flags. The caller sets its new state.
func (a *AP) unassociate(now time.Duration, slot uint16, s *station) {
	a.flushStation(slot)
	s.bss.Unassociate(&s.Station)
	a.followIntolerant(now)
}

// disconnect removes a station, dropping what it had queued; notify sends it
// a deauthentication first.
func (a *AP) disconnect(now time.Duration, slot uint16, reason uint16, why string, notify bool) {
	s := &a.sta.slots[slot]
	if notify {
		a.sendDeauth(now, s.bss, s.Addr, reason)
	}
	s.bss.Leave(now, &s.Station)
	a.followIntolerant(now)
	if s.Announced {
		s.Announced = false
		a.event(Event{At: now, Kind: EventDisconnected, Addr: s.Addr, AID: slot, Reason: reason, Why: why})
	}
	a.leaveRSN(now, s)
	a.flushStation(slot)
	s.polling = false
	a.sta.remove(slot)
}

// flushStation drops a station's queued frames (counted as flushed) and
// reclaims its pending airtime; completions of its frames still in flight
// then release nothing twice.
func (a *AP) flushStation(slot uint16) {
	if s := &a.sta.slots[slot]; s.Dozing {
		s.bss.Doze(&s.Station, false)
	}
	a.sched.RemoveStation(slot)
	a.airtimeLeave(slot)
	a.air.RemoveStation(slot)
}

// Disable switches the BSS off as hostapd's DISABLE: every station is
// deauthenticated as at shutdown, then no beacon goes out and nothing
// from the air or the wired side is taken until Enable. It reports false
// when the BSS is not running (already disabled, or still choosing its
// channel).
func (a *AP) Disable(now time.Duration) bool {
	if !a.started {
		return false
	}
	a.Shutdown(now)
	a.disabled = true
	return true
}

// Enable switches a disabled BSS on again: beacons resume at once, and a
// WPA2 network gets a new GTK, since the old one was known to stations
// that are gone.
func (a *AP) Enable(now time.Duration) bool {
	if !a.disabled {
		return false
	}
	if a.held { // never started: the start it was held from
		a.held, a.disabled = false, false
		a.Start(now)
		return true
	}
	a.disabled, a.started = false, true
	for _, r := range a.rsns {
		r.auth.RekeyGTK(now)
		a.rsnRun(now, r)
	}
	a.staggerBeacons(now)
	a.Tick(now)
	return true
}

// Shutdown deauthenticates every station (unicast, then broadcast) and
// forgets them; the caller flushes the output and stops.
func (a *AP) Shutdown(now time.Duration) {
	for slot := range a.sta.used() {
		a.disconnect(now, slot, ieee80211.ReasonDeauthLeaving, "AP shutting down", true)
	}
	for _, b := range a.bsses {
		a.sendDeauth(now, b, ieee80211.Broadcast, ieee80211.ReasonDeauthLeaving)
	}
	for _, r := range a.radios {
		r.dtimOnAir = false // no station dozes: nothing waits for a beacon
		if st := r.sae(); st != nil {
			// As hostapd_free_hapd_data: the frames received and the
			// exchanges under way go with the stations, unanswered.
			st.frames.Clear()
			st.auth.ForgetAll()
		}
	}
	a.started = false
}
