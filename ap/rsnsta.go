package ap

import (
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/rsn/handshake"
)

// A station's life in the RSN, as hostapd's with mac80211: its RSNE is
// validated with the association request (wpa_validate_wpa_ie), its
// handshake machine is created then and started once the association
// response is acknowledged (wpa_auth_sta_associated), and the controlled
// port opens when the 4-way handshake completes: then, and not at the
// association, the station is announced (AP-STA-CONNECTED, then
// EAPOL-4WAY-HS-COMPLETED). A station that fails the handshake is
// deauthenticated and logged once with the likely cause.

// elemRSNX is the RSN Extension element, which message 2 must repeat.
const elemRSNX = bss.ElemRSNX

// checkRSNE validates the RSNE of an association request against the
// BSS's policy with hostapd's status codes; with success it returns what
// was negotiated and the station's RSNXE, if any.
func (r *rsnState) checkRSNE(ies ieee80211.Elements) (rsn.Negotiated, []byte, uint16) {
	var elem, rsnxe []byte
	it := ies.Iter()
	for it.Next() {
		switch it.ID() {
		case ieee80211.ElemRSN:
			if elem == nil {
				elem = rawElement(ieee80211.ElemRSN, it.Body())
			}
		case elemRSNX:
			if rsnxe == nil {
				rsnxe = rawElement(elemRSNX, it.Body())
			}
		}
	}
	n, status := r.policy.Validate(elem)
	return n, rsnxe, status
}

// rawElement rebuilds an element with its header.
func rawElement(id uint8, body []byte) []byte {
	return append([]byte{id, byte(len(body))}, body...)
}

// joinRSN creates the handshake machine of a station whose association
// with its BSS was accepted; a machine it had is replaced.
func (a *AP) joinRSN(now time.Duration, s *station, n rsn.Negotiated, rsnxe []byte) {
	s.RSN = &bss.StationRSN{TX: -1, HS: a.rsnOf(s).auth.Join(now, s.Addr, n, rsnxe), MFP: n.MFP}
	a.rsnRun(now, a.rsnOf(s))
}

// startRSN begins the 4-way handshake of a station now associated.
func (a *AP) startRSN(now time.Duration, s *station) {
	s.Authorized = false
	s.RSN.HS.Start(now)
	a.rsnRun(now, a.rsnOf(s))
}

// leaveRSN forgets a station's handshake and keys: it is no longer
// associated.
func (a *AP) leaveRSN(now time.Duration, s *station) {
	if s.RSN == nil {
		return
	}
	if r := s.RSN; !s.Announced && !r.Failed {
		// It gave up first (wpa_supplicant may): the cause still goes out,
		// worded from the worst of the mismatches.
		if cause := r.HS.MismatchCause(); cause != handshake.CauseNone {
			slot, _ := a.sta.lookup(s.Addr)
			a.event(Event{At: now, Kind: EventHandshakeFailed, Addr: s.Addr, AID: slot,
				Why: "station left during the 4-way handshake after a " + cause.String()})
		}
	}
	a.rsnOf(s).auth.Remove(now, s.RSN.HS)
	s.RSN = nil
	s.Authorized = false
	a.rsnRun(now, a.rsnOf(s))
}

// handshakeDone opens the controlled port after a 4-way handshake; the
// first one announces the station.
func (a *AP) handshakeDone(now time.Duration, slot uint16, s *station) {
	a.cnt[counter.HandshakeCompleted]++
	s.Authorized = true
	if !s.Announced {
		s.Announced = true
		a.event(Event{At: now, Kind: EventConnected, Addr: s.Addr, AID: slot, KeyID: s.RSN.KeyID})
	}
	a.event(Event{At: now, Kind: EventHandshakeCompleted, Addr: s.Addr, AID: slot})
}

// handshakeFailed deauthenticates a station whose handshake failed. One
// never announced gets one event with the cause; one that was announced
// (a failed rekey) its disconnection, with the cause as the reason why.
func (a *AP) handshakeFailed(now time.Duration, slot uint16, s *station, reason uint16, why string) {
	a.cnt[counter.HandshakeFailed]++
	s.RSN.Failed = true
	if why == "" {
		why = "key handshake failed"
	}
	if !s.Announced {
		a.event(Event{At: now, Kind: EventHandshakeFailed, Addr: s.Addr, AID: slot, Reason: reason, Why: why})
	}
	a.disconnect(now, slot, reason, why, true)
}
