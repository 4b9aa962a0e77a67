package ap

import (
	"time"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rate"
)

const authOpenSystem = 0

func (a *AP) handleAuth(now time.Duration, fr ieee80211.Frame) {
	auth, err := ieee80211.ParseAuth(fr.Body())
	if err != nil {
		a.cnt[counter.RxMalformed]++
		return
	}
	sa := fr.Addr2()
	alg, seq := auth.Algorithm(), auth.Transaction()
	switch {
	case alg != authOpenSystem:
		a.sendAuth(now, sa, alg, seq+1, ieee80211.StatusNotSupportedAuthAlg)
		return
	case seq != 1:
		a.sendAuth(now, sa, alg, seq+1, ieee80211.StatusUnknownAuthTransaction)
		return
	}
	slot, s := a.sta.lookup(sa)
	if a.aclRefuses(now, sa, "authentication") {
		// hostapd's handle_auth: "Station not allowed to authenticate",
		// answered with unspecified failure. A station the lists now
		// refuse loses what it had.
		if s != nil {
			a.disconnect(now, slot, ieee80211.ReasonPrevAuthNotValid, "refused by the access lists", false)
		}
		a.sendAuth(now, sa, alg, 2, ieee80211.StatusUnspecified)
		return
	}
	if s != nil {
		// Authenticating again resets the station: whatever it had queued
		// belongs to a session the station has given up.
		a.disconnect(now, slot, ieee80211.ReasonPrevAuthNotValid, "reauthenticated", false)
	}
	slot, s, ok := a.sta.add(sa)
	if !ok && a.evictUnassociated() {
		slot, s, ok = a.sta.add(sa)
	}
	if !ok {
		a.sendAuth(now, sa, alg, 2, ieee80211.StatusAPUnableToHandleNewSta)
		return
	}
	a.authOrder.push(authEntry{slot: slot, addr: sa, at: now})
	s.state = stateAuthenticated
	s.authAt = now
	s.lastRx = now
	a.sendAuth(now, sa, alg, 2, ieee80211.StatusSuccess)
}

func (a *AP) handleAssoc(now time.Duration, fr ieee80211.Frame) {
	reassoc := fr.Subtype() == ieee80211.SubtypeReassocReq
	var (
		capab, listen uint16
		ies           ieee80211.Elements
	)
	if reassoc {
		req, err := ieee80211.ParseReassocReq(fr.Body())
		if err != nil {
			a.cnt[counter.RxMalformed]++
			return
		}
		capab, listen, ies = req.Capability(), req.ListenInterval(), req.Elements()
	} else {
		req, err := ieee80211.ParseAssocReq(fr.Body())
		if err != nil {
			a.cnt[counter.RxMalformed]++
			return
		}
		capab, listen, ies = req.Capability(), req.ListenInterval(), req.Elements()
	}
	sa := fr.Addr2()
	slot, s := a.sta.lookup(sa)
	if s == nil {
		a.sendStrangerDeauth(now, sa, ieee80211.ReasonClass2FromNonAuth)
		return
	}
	if a.aclRefuses(now, sa, "association") {
		// Authenticated before the lists changed: refused, and removed.
		a.disconnect(now, slot, ieee80211.ReasonPrevAuthNotValid, "refused by the access lists", false)
		a.sendAssocResp(now, reassoc, sa, ieee80211.StatusUnspecified, 0, false)
		return
	}
	if ssid, ok := ies.Find(ieee80211.ElemSSID); !ok || string(ssid) != a.cfg.SSID {
		a.sendAssocResp(now, reassoc, sa, ieee80211.StatusUnspecified, 0, false)
		return
	}
	rates := a.rates.parse(ies)
	if rates&a.rates.basic != a.rates.basic {
		a.sendAssocResp(now, reassoc, sa, ieee80211.StatusAssocDeniedRates, 0, false)
		return
	}
	if s.state == stateAssociated {
		// A station that associates again starts a new session.
		a.flushStation(slot)
	} else if a.assoc >= a.cfg.MaxStations {
		a.sendAssocResp(now, reassoc, sa, ieee80211.StatusAPUnableToHandleNewSta, 0, false)
		return
	}
	_, wmm := ies.WMMQoSInfo()
	wmm = wmm && a.cfg.WMM
	first := s.state != stateAssociated
	if first {
		a.assoc++
	} else {
		a.leaveERP(s)
	}
	s.nonERP = rates&a.rates.ofdm == 0
	s.longPreamble = capab&capShortPre == 0
	a.joinERP(s)
	s.state = stateAssociated
	if err := a.sched.AddStation(slot); err != nil {
		panic(err) // slots come from the table, which the scheduler covers
	}
	a.sched.SetWeight(slot, a.cfg.AirtimeWeight)
	s.capability, s.listenInterval = capab, listen
	s.rates, s.txRate, s.qos = rates, a.rates.best(rates), wmm
	a.startRates(sa, s, ies)
	s.assocAt = now
	s.authorized = true // open system: no key handshake to wait for
	s.rxValid = [ieee80211.NumTIDs + 1]bool{}
	a.sendAssocResp(now, reassoc, sa, ieee80211.StatusSuccess, slot, wmm)
	if first {
		a.event(Event{At: now, Kind: EventConnected, Addr: sa, AID: slot})
	}
}

func (a *AP) handleLeave(now time.Duration, fr ieee80211.Frame) {
	slot, s := a.sta.lookup(fr.Addr2())
	if s == nil {
		return
	}
	reason := uint16(0)
	if body := fr.Body(); len(body) >= 2 {
		reason = uint16(body[0]) | uint16(body[1])<<8
	}
	if fr.Subtype() == ieee80211.SubtypeDisassoc && s.state == stateAssociated {
		a.flushStation(slot)
		a.assoc--
		a.leaveERP(s)
		s.state = stateAuthenticated
		s.authAt = now
		a.event(Event{At: now, Kind: EventDisconnected, Addr: s.addr, AID: slot, Reason: reason, Why: "disassociated by station"})
		return
	}
	a.disconnect(now, slot, reason, "deauthenticated by station", false)
}

// disconnect removes a station, dropping what it had queued; notify sends it
// a deauthentication first.
func (a *AP) disconnect(now time.Duration, slot uint16, reason uint16, why string, notify bool) {
	s := &a.sta.slots[slot]
	if notify {
		a.sendDeauth(now, s.addr, reason)
	}
	if s.state == stateAssociated {
		a.assoc--
		a.leaveERP(s)
		a.event(Event{At: now, Kind: EventDisconnected, Addr: s.addr, AID: slot, Reason: reason, Why: why})
	}
	a.flushStation(slot)
	s.polling = false
	a.sta.remove(slot)
}

// startRates sets up rate selection for a newly associated station: HT and
// VHT only with a WMM station that announces them and when the BSS uses
// them (mac80211 stations drop HT without WMM).
func (a *AP) startRates(addr ieee80211.MAC, s *station, ies ieee80211.Elements) {
	caps := rate.CapsFromElements(ies)
	s.ht = a.cfg.PHY.HT && s.qos && caps.HT
	s.vht = a.cfg.PHY.VHT && s.ht && caps.VHT
	s.heAnnounced = caps.HE
	s.maxAMSDU = 0
	if s.ht {
		s.maxAMSDU = stationAMSDU(ies, s.vht)
	}
	if !s.ht {
		caps.HT, caps.VHT = false, false
	} else if !s.vht {
		caps.VHT = false
	}
	var seed uint64
	for _, b := range addr {
		seed = seed<<8 | uint64(b)
	}
	rc, err := rate.New(rate.Config{
		Airtime:  func(r radio.Rate, n int) uint32 { return a.est.Airtime(r, ieee80211.ACBE, n) },
		Width:    a.phy.width,
		Band2GHz: a.cfg.Freq < 3000,
		AP:       a.phy.caps,
		Station:  caps,
		Seed:     seed,
	})
	if err != nil {
		rc = nil // no common rate beyond what the legacy check admitted: best legacy rate
	}
	s.rc = rc
}

// joinERP and leaveERP keep the counts behind the ERP element and the
// capability bits.
func (a *AP) joinERP(s *station) {
	if s.nonERP {
		a.nonERP++
	}
	if s.longPreamble {
		a.longPreamble++
	}
}

func (a *AP) leaveERP(s *station) {
	if s.nonERP {
		a.nonERP--
	}
	if s.longPreamble {
		a.longPreamble--
	}
}

// flushStation drops a station's queued frames (counted as flushed) and
// reclaims its pending airtime; completions of its frames still in flight
// then release nothing twice.
func (a *AP) flushStation(slot uint16) {
	if s := &a.sta.slots[slot]; s.dozing {
		s.dozing = false
		a.dozing--
	}
	a.sched.RemoveStation(slot)
	a.air.RemoveStation(slot)
}

// authEntry remembers an authentication, oldest first, so that a full
// table can make room by dropping the oldest station that never associated:
// a flood of authentications cannot lock real stations out.
type authEntry struct {
	slot uint16
	addr ieee80211.MAC
	at   time.Duration
}

type authRing struct {
	r          []authEntry
	head, size int
}

func (q *authRing) push(e authEntry) {
	if q.size == len(q.r) {
		q.head = (q.head + 1) % len(q.r) // the oldest is stale by now
		q.size--
	}
	q.r[(q.head+q.size)%len(q.r)] = e
	q.size++
}

func (q *authRing) pop() (authEntry, bool) {
	if q.size == 0 {
		return authEntry{}, false
	}
	e := q.r[q.head]
	q.head = (q.head + 1) % len(q.r)
	q.size--
	return e, true
}

// evictUnassociated removes the oldest station still only authenticated.
func (a *AP) evictUnassociated() bool {
	for {
		e, ok := a.authOrder.pop()
		if !ok {
			return false
		}
		s := &a.sta.slots[e.slot]
		if s.state == stateAuthenticated && s.addr == e.addr && s.authAt == e.at {
			a.sta.remove(e.slot)
			a.cnt[counter.AuthEvicted]++
			return true
		}
	}
}

// expireAuth forgets stations that authenticated but did not associate.
func (a *AP) expireAuth(now time.Duration) {
	for slot := range a.sta.used() {
		s := &a.sta.slots[slot]
		if s.state == stateAuthenticated && now-s.authAt > authTimeout {
			a.sta.remove(slot)
		}
	}
}

// Shutdown deauthenticates every station (unicast, then broadcast) and
// forgets them; the caller flushes the output and stops.
func (a *AP) Shutdown(now time.Duration) {
	for slot := range a.sta.used() {
		a.disconnect(now, slot, ieee80211.ReasonDeauthLeaving, "AP shutting down", true)
	}
	a.sendDeauth(now, ieee80211.Broadcast, ieee80211.ReasonDeauthLeaving)
	a.started = false
}
