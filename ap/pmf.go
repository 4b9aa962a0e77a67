package ap

import (
	"time"

	"github.com/airq/airq/bip"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/ccmp"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/pmf"
)

// Protected management frames (802.11w), as hostapd and mac80211 run them
// on an AP. A station that negotiates MFP (its RSNE's MFPC against
// ieee80211w) gets its robust management frames (deauthentication,
// disassociation, robust Action frames) under its PTK once that is
// installed (protectMgmt, in the one place every management frame goes
// through); group-addressed ones are signed with BIP under the IGTK. On
// receive, pmf.Check decides every management frame from a station
// before it touches the station (checkMgmt): an unprotected
// deauthentication, disassociation or robust Action frame claiming to
// come from an MFP station is counted and dropped; a protected one is
// decrypted with its replay check. An associated MFP station's
// authentication leaves its association alone, and its association
// request starts the SA Query (saquery.go).

// pmfDrops maps the verdicts that drop a frame to their counters.
var pmfDrops = [...]counter.ID{
	pmf.DropUnprotectedDeauth:   counter.RxMgmtUnprotectedDeauth,
	pmf.DropUnprotectedDisassoc: counter.RxMgmtUnprotectedDisassoc,
	pmf.DropUnprotectedAction:   counter.RxMgmtUnprotectedAction,
	pmf.DropGroupAddressed:      counter.RxMgmtGroupRobust,
	pmf.DropProtected:           counter.RxMgmtProtectedUnexpected,
}

// usesMFP reports whether the station negotiated MFP with its current
// association (counted from the association request, as mac80211 does).
func (s *station) usesMFP() bool { return s != nil && s.RSN != nil && s.RSN.MFP }

// keepsAssoc reports whether an authentication or association request
// from the station must leave its association alone: it is associated
// and authorized with MFP, so only its keys can prove the request is its
// own (hostapd's handle_auth, check_sa_query).
func (s *station) keepsAssoc() bool {
	return s.usesMFP() && s.State == bss.StateAssociated && s.Authorized
}

// ownsMgmt reports whether a management frame claiming to come from s
// (nil: not in the table) may change what the AP knows of the station,
// its power-save state, inactivity clock and signal. For a station that
// keepsAssoc only a protected frame can be its own: an unprotected
// Authentication, association request or Public Action frame is anyone's,
// and its Power Management bit would hold the station's downlink back.
// mac80211 takes the bit from any frame; this follows the data path's
// rule instead (verified before anything of the station changes).
func (s *station) ownsMgmt(fr ieee80211.Frame) bool {
	return s != nil && (fr.Protected() || !s.keepsAssoc())
}

// checkMgmt applies 802.11w's receive rules to a management frame from
// station s (nil: not in the table). It returns the frame to go on with:
// fr itself, or the decrypted frame in the core's scratch buffer; false
// when it is dropped, counted, with nothing of the station changed.
func (a *AP) checkMgmt(fr ieee80211.Frame, s *station) (ieee80211.Frame, bool) {
	switch v := pmf.Check(fr, s.usesMFP()); v {
	case pmf.Pass:
		return fr, true
	case pmf.Open:
		return a.openMgmt(fr, s)
	case pmf.DropUnprotectedDeauth, pmf.DropUnprotectedDisassoc:
		if !s.RSN.HasKey() {
			// No key to protect it with yet: the station gives up
			// during the 4-way handshake (mac80211's
			// ieee80211_drop_unencrypted_mgmt lets it through too).
			return fr, true
		}
		fallthrough
	default:
		a.cnt[pmfDrops[v]]++
		return nil, false
	}
}

// openMgmt decrypts a protected unicast management frame from an MFP
// station under the pairwise key its key ID names, its PN checked against
// that key's management replay counter first.
func (a *AP) openMgmt(fr ieee80211.Frame, s *station) (ieee80211.Frame, bool) {
	r := s.RSN
	_, id, err := ccmp.ParseHeader(fr)
	if err != nil || len(fr) > len(a.rsnOf(s).scratch) || int(id) >= len(r.Keys) || r.Keys[id].K == nil {
		a.cnt[counter.RxMgmtUndecryptable]++
		return nil, false
	}
	k := &r.Keys[id]
	buf := a.rsnOf(s).scratch[:len(fr)]
	copy(buf, fr)
	body, err := k.K.OpenMgmt(buf, &k.RX)
	switch {
	case err == ccmp.ErrReplay:
		a.cnt[counter.RxMgmtReplayed]++
		return nil, false
	case err != nil:
		a.cnt[counter.RxMgmtMICFailure]++
		return nil, false
	}
	return ccmp.Plain(buf, body), true
}

// protectMgmt protects a robust management frame BSS from is about to
// send (b: radiotap header of rt bytes, then the frame, in a slab): under
// the PTK of an MFP station that has one, with the key's next PN, or,
// group-addressed, with the MME under the BSS's IGTK. Other frames, and
// frames to a station without MFP or before its PTK, go as they are
// (mac80211 sends them so: the station has no key to expect them under
// either).
func (a *AP) protectMgmt(from *bss.BSS, b []byte, rt int) []byte {
	fr := ieee80211.Frame(b[rt:])
	if !pmf.IsRobust(fr) {
		return b
	}
	if fr.Addr1().IsMulticast() {
		return a.radioOf(from).rsn.signGroupMgmt(b, rt)
	}
	slot, s := a.sta.lookup(fr.Addr1())
	if !s.usesMFP() || s.bss != from {
		return b
	}
	key := a.txKey(a.rsnOf(s), slot)
	if key == nil || cap(b)-len(b) < ccmp.HeaderLen+ccmp.MICLen {
		return b
	}
	hl := fr.HeaderLen()
	n := len(b)
	b = b[:n+ccmp.HeaderLen]
	copy(b[rt+hl+ccmp.HeaderLen:], b[rt+hl:n])
	_, out, err := key.SealMgmt(b[rt:])
	if err != nil {
		panic(err) // a unicast management frame with its gap and room; txKey checked the PNs
	}
	return b[:rt+len(out)]
}

// signGroupMgmt adds the MME to a group-addressed robust frame of BSS r
// under its IGTK, with its next IPN; without an IGTK (an open BSS, or no
// MFP) it goes as it is.
func (r *rsnState) signGroupMgmt(b []byte, rt int) []byte {
	if r == nil {
		return b
	}
	k := r.igtk
	if k == nil || k.LastIPN() >= bip.MaxIPN {
		return b
	}
	_, out, err := k.Sign(b[rt:])
	if err != nil {
		return b // no room for the MME: cannot happen in a slab
	}
	return b[:rt+len(out)]
}

// installIGTK makes an IGTK the one BSS r's group management frames are
// signed with; like the GTK, the authenticator installs it once every
// station of the BSS has it.
func (a *AP) installIGTK(r *rsnState, id int, key []byte) {
	k, err := bip.New(key, uint16(id))
	if err != nil {
		return
	}
	r.igtk = k
	a.cnt[counter.IGTKInstalled]++
}

// authKeepsAssoc answers an authentication from an associated MFP
// station without touching its association or keys, as hostapd does
// (wpa_auth_sm_event keeps the PTK with MFP): an unprotected frame anyone
// can forge must not end the association. A station that really lost its
// keys goes on to associate, and the SA Query decides.
func (a *AP) authKeepsAssoc(now time.Duration, b *bss.BSS, sa ieee80211.MAC, alg uint16, class bss.ReplyClass) {
	a.cnt[counter.AuthKeptAssoc]++
	a.sendAuth(now, b, sa, alg, 2, ieee80211.StatusSuccess, class, 0)
}
