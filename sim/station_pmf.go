package sim

import (
	"github.com/airq/airq/bip"
	"github.com/airq/airq/ccmp"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/pmf"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/rsn/handshake"
	"time"
)

// A WPA2 station with management frame protection, as wpa_supplicant
// (ieee80211w=1, its default for an AP that offers it, unless NoMFP) and
// mac80211 run one: it offers MFPC when the AP's RSNE does, installs the
// IGTK of message 3 and the group-key handshake, protects its own robust
// management frames under the PTK, and applies the receive rules: an
// unprotected deauthentication, disassociation or robust Action frame
// from the AP is dropped (and, for the first two, the station asks the AP
// with an SA Query whether it still holds the association, as
// wpa_supplicant does); a protected one is decrypted with the management
// replay check; a group-addressed one must carry a valid MME under the
// IGTK. It answers the AP's SA Query Requests.

// offersMFP reports whether the station puts MFPC in its RSNE: the AP
// offers it and the station is not told not to.
func (st *Station) offersMFP() bool {
	if st.cfg.NoMFP {
		return false
	}
	e, err := rsn.ParseElement(st.apRSNE)
	return err == nil && e.Caps&rsn.CapMFPC != 0
}

// mfp reports whether MFP is on with the AP: both offered it.
func (st *Station) mfp() bool { return st.crypto != nil && st.crypto.mfp }

// installIGTK takes an IGTK the supplicant installs.
func (st *Station) installIGTK(a handshake.Action) {
	k, err := bip.New(a.Key[:], uint16(a.KeyID))
	if err != nil {
		return // the supplicant checked the KDE's length and key ID
	}
	st.crypto.igtk.Install(k, a.RSC)
}

// checkMgmt applies the receive rules to a management frame from the AP
// and returns the frame to handle (decrypted, or without its MME), or
// false when it is dropped.
func (st *Station) checkMgmt(fr ieee80211.Frame) (ieee80211.Frame, bool) {
	if !st.mfp() || fr.Addr2() != st.bssid {
		return fr, true
	}
	switch pmf.Check(fr, true) {
	case pmf.Pass:
		return fr, true
	case pmf.Open:
		return st.openMgmt(fr)
	case pmf.DropGroupAddressed:
		return st.verifyGroupMgmt(fr)
	case pmf.DropUnprotectedDeauth, pmf.DropUnprotectedDisassoc:
		st.stats.RxMgmtUnprotected++
		st.querySA()
		return nil, false
	}
	st.stats.RxMgmtUnprotected++
	return nil, false
}

// openMgmt decrypts a protected unicast management frame under the PTK.
func (st *Station) openMgmt(fr ieee80211.Frame) (ieee80211.Frame, bool) {
	c := st.crypto
	_, id, err := ccmp.ParseHeader(fr)
	if err != nil || c.ptks[id&1] == nil || c.ptks[id&1].ID() != id {
		st.stats.RxMgmtDropped++
		return nil, false
	}
	buf := append(st.rxBuf[:0], fr...)
	body, err := c.ptks[id&1].OpenMgmt(buf, &c.mgmtRx)
	if err != nil {
		st.stats.RxMgmtDropped++
		return nil, false
	}
	return ccmp.Plain(buf, body), true
}

// verifyGroupMgmt checks the MME of a group-addressed robust frame under
// the IGTK and returns the frame without it.
func (st *Station) verifyGroupMgmt(fr ieee80211.Frame) (ieee80211.Frame, bool) {
	buf := append(st.rxBuf[:0], fr...)
	body, err := st.crypto.igtk.Open(buf)
	if err != nil {
		st.stats.RxMgmtDropped++
		return nil, false
	}
	return ieee80211.Frame(buf[:ieee80211.MgmtHeaderLen+len(body)]), true
}

// protectMgmt encrypts a robust management frame the station sends to
// the AP (in p, MAC header then body) under the PTK, with the PN its data
// frames share.
func (st *Station) protectMgmt(p *packet) {
	c := st.crypto
	if c == nil || !c.mfp || c.ptk == nil || !pmf.IsRobust(ieee80211.Frame(p.b)) || ieee80211.Frame(p.b).Addr1().IsMulticast() {
		return
	}
	hl := ieee80211.Frame(p.b).HeaderLen()
	n := len(p.b)
	p.b = append(p.b, make([]byte, ccmp.HeaderLen)...)
	copy(p.b[hl+ccmp.HeaderLen:], p.b[hl:n])
	st.protect(p)
}

// onAction takes an Action frame from the AP (decrypted when robust):
// SA Query Requests are answered; Responses to the station's own query
// are counted.
func (st *Station) onAction(fr ieee80211.Frame) {
	if st.state != staAssociated || fr.Addr2() != st.bssid || !st.mfp() {
		return
	}
	q, err := pmf.ParseSAQuery(fr.Body())
	if err != nil {
		return
	}
	switch q.Action {
	case pmf.ActionRequest:
		st.stats.SAQueryAnswered++
		st.sendMgmt(ieee80211.SubtypeAction, st.bssid, pmf.AppendSAQuery(st.buf[:0], pmf.ActionResponse, q.ID))
	case pmf.ActionResponse:
		if st.crypto.saPending && q.ID == st.crypto.saID {
			st.crypto.saPending = false
			st.stats.SAQueryResponses++
		}
	}
}

// querySA asks the AP, under the PTK, whether the association stands,
// after an unprotected deauthentication or disassociation (one at a
// time).
func (st *Station) querySA() {
	c := st.crypto
	if st.state != staAssociated || c.ptk == nil || c.saPending {
		return
	}
	c.saPending = true
	r := st.sim.keys.Uint64()
	c.saID = pmf.TransactionID{byte(r), byte(r >> 8)}
	st.sendMgmt(ieee80211.SubtypeAction, st.bssid, pmf.AppendSAQuery(st.buf[:0], pmf.ActionRequest, c.saID))
	c.saGen++
	st.sim.schedule(st.sim.now+saQueryTimeout, evTimer, -c.saGen, nil, st) // fire's negative numbers
}

// saQueryTimeout is wpa_supplicant's SA_QUERY_MAX_TIMEOUT: 1000 TU for an
// answer before the association is taken as lost.
const saQueryTimeout = 1000 * 1024 * time.Microsecond

// saQueryExpired ends the association, as wpa_supplicant's
// sme_sa_query_timer does, when query gen is still unanswered: the AP
// no longer knows the station, as the unprotected frame claimed.
func (st *Station) saQueryExpired(gen int) {
	c := st.crypto
	if c == nil || !c.saPending || c.saGen != gen || st.state != staAssociated {
		return
	}
	c.saPending = false
	st.stats.SAQueryTimeouts++
	st.sendMgmt(ieee80211.SubtypeDeauth, st.bssid, ieee80211.AppendDeauth(st.buf[:0], ieee80211.ReasonPrevAuthNotValid))
	st.leave()
	st.afterLeave()
}
