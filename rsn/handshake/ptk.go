package handshake

import (
	"bytes"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// ptkState is a state of the WPA_PTK machine (IEEE 802.11 12.7.10.2,
// hostapd's wpa_auth.c); INITPMK, for 802.1X, is not here.
type ptkState uint8

const (
	ptkInitialize ptkState = iota
	ptkDisconnect
	ptkDisconnected
	ptkAuthentication
	ptkAuthentication2
	ptkInitPSK
	ptkStart
	ptkCalcNegotiating
	ptkCalcNegotiating2
	ptkInitNegotiating
	ptkInitDone
)

var ptkStateNames = [...]string{"INITIALIZE", "DISCONNECT", "DISCONNECTED", "AUTHENTICATION", "AUTHENTICATION2",
	"INITPSK", "PTKSTART", "PTKCALCNEGOTIATING", "PTKCALCNEGOTIATING2", "PTKINITNEGOTIATING", "PTKINITDONE"}

func (p ptkState) String() string { return ptkStateNames[p] }

func (s *Station) enter(p ptkState) {
	s.ptkState = p
	s.changed = true
}

// ptkStep is SM_STEP(WPA_PTK).
func (s *Station) ptkStep(now time.Duration) {
	max := s.a.cfg.PairwiseUpdateCount
	switch {
	case s.init:
		s.enterInitialize()
	case s.disconnect:
		s.enterDisconnect(now)
	case s.deauthReq:
		s.enterDisconnected()
	case s.authReq:
		s.enterAuthentication()
	case s.reauthReq:
		s.enterAuthentication2()
	case s.ptkRequest:
		if s.newHandshake() {
			s.enterPTKStart(now)
		}
	default:
		switch s.ptkState {
		case ptkDisconnect:
			s.enterDisconnected()
		case ptkDisconnected:
			s.enterInitialize()
		case ptkAuthentication:
			s.enterAuthentication2()
		case ptkAuthentication2:
			s.enterInitPSK()
		case ptkInitPSK:
			if len(s.a.cfg.PMKs(s.spa)) > 0 {
				s.enterPTKStart(now)
			} else {
				s.cause = CauseNoPSK
				s.enterDisconnect(now)
			}
		case ptkStart:
			switch {
			case s.keyReceived && !s.keyRequest && s.keyPairwise:
				s.enterCalcNegotiating(now)
			case s.timeoutCtr > max:
				s.fail(now, ieee80211.Reason4WayTimeout, CauseNoMessage2)
			case s.timeoutEvt:
				s.enterPTKStart(now)
			}
		case ptkCalcNegotiating:
			switch {
			case s.micOK:
				s.enterCalcNegotiating2()
			case s.keyReceived && !s.keyRequest && s.keyPairwise:
				s.enterCalcNegotiating(now)
			case s.timeoutEvt:
				s.enterPTKStart(now)
			}
		case ptkCalcNegotiating2:
			s.enterInitNegotiating(now)
		case ptkInitNegotiating:
			switch {
			case s.updateSNonce:
				s.enterCalcNegotiating(now)
			case s.keyReceived && !s.keyRequest && s.keyPairwise && s.micOK:
				s.enterInitDone(now)
			case s.timeoutCtr > max || s.a.cfg.DisableEAPOLKeyRetries && s.timeoutCtr > 1:
				s.fail(now, ieee80211.Reason4WayTimeout, CauseNoMessage4)
			case s.timeoutEvt:
				s.enterInitNegotiating(now)
			}
		}
	}
}

// fail ends the handshake with a disconnection (sm->disconnect_reason,
// SM_ENTER DISCONNECT). A timeout after MIC mismatches on message 2 is a
// wrong passphrase, most likely.
func (s *Station) fail(now time.Duration, reason uint16, cause Cause) {
	if cause == CauseNoMessage2 && s.micFailures > 0 {
		cause = CauseWrongPassphrase
	}
	s.disconnectReason, s.cause = reason, cause
	s.enterDisconnect(now)
}

func (s *Station) enterInitialize() {
	s.enter(ptkInitialize)
	if s.init {
		s.changed = false // Init stays set: do not loop
	}
	if s.gUpdate {
		s.a.g.keyDone--
	}
	s.gUpdate = false
	s.authorized = false
	s.removePTK()
	s.timeoutCtr = 0
}

// removePTK is wpa_remove_ptk.
func (s *Station) removePTK() {
	s.ptkValid = false
	s.ptk.Clear()
	s.pairwiseSet = false
	s.ptkRekeySet = false
}

// enterDisconnect deauthenticates the station (wpa_sta_disconnect). The
// machine then stops: the caller removes the station, and DISCONNECTED
// and INITIALIZE would only clear what clearKeys clears.
func (s *Station) enterDisconnect(now time.Duration) {
	s.enter(ptkDisconnect)
	reason := s.disconnectReason
	if reason == 0 {
		reason = ieee80211.ReasonPrevAuthNotValid
	}
	s.disconnect, s.disconnectReason = false, 0
	s.emit(Action{At: now, Kind: ActDeauth, Reason: reason, Cause: s.cause})
	if s.gUpdate {
		s.gUpdate = false
		s.a.g.keyDone--
	}
	s.authorized, s.hasGTK = false, false
	s.removePTK()
	s.gone = true
	s.clearKeys()
}

func (s *Station) enterDisconnected() {
	s.enter(ptkDisconnected)
	s.deauthReq = false
}

func (s *Station) enterAuthentication() {
	s.enter(ptkAuthentication)
	s.ptk.Clear()
	s.ptkValid = false
	s.authReq = false
}

func (s *Station) enterAuthentication2() {
	s.enter(ptkAuthentication2)
	s.reauthReq = false
	if !s.freshANonce() {
		s.disconnect = true
		s.cause = CauseRandom
	}
	s.timeoutCtr = 0
}

// newHandshake is wpa_auth_sm_ptk_update: a PTK rekey draws a new ANonce.
func (s *Station) newHandshake() bool {
	if !s.freshANonce() {
		s.cause = CauseRandom
		s.disconnect = true
		s.enterDisconnected()
		return false
	}
	s.timeoutCtr = 0
	return true
}

// freshANonce draws the ANonce of a new handshake and forgets the
// previous handshake's conditions.
func (s *Station) freshANonce() bool {
	n, err := rsn.RandomNonce(s.a.rand())
	if err != nil {
		return false
	}
	s.anonce = n
	s.tkInstalled = false
	s.micFailures = 0
	return true
}

func (s *Station) enterInitPSK() {
	s.enter(ptkInitPSK)
	s.pmkIndex = 0
	s.reqReplayUsed = false
}

func (s *Station) enterPTKStart(now time.Duration) {
	s.enter(ptkStart)
	s.ptkRequest, s.timeoutEvt, s.altSNonceValid = false, false, false
	s.timeoutCtr++
	if s.timeoutCtr > s.a.cfg.PairwiseUpdateCount {
		return // the next step disconnects
	}
	// No PMKID KDE: for PSK hostapd leaves it out of message 1, where it
	// would help an offline passphrase search.
	s.sendKey(now, rsn.InfoAck|rsn.InfoPairwise, 0, &s.anonce, nil, false)
}

// enterCalcNegotiating derives the PTK from message 2 under each candidate
// PMK until one verifies its MIC, then checks message 2's RSNE.
func (s *Station) enterCalcNegotiating(now time.Duration) {
	s.enter(ptkCalcNegotiating)
	s.keyReceived, s.updateSNonce = false, false
	k := rsn.KeyFrame(s.lastRx)
	idx, ptk, ok := s.matchPMK(k, &s.snonce)
	if !ok {
		s.micFailures++
		s.emit(Action{At: now, Kind: ActPSKMismatch, Cause: CauseWrongPassphrase})
		return
	}
	d, err := rsn.ParseKeyData(k.KeyData())
	if err != nil {
		return // "invalid Key Data contents": wait for another message 2
	}
	if !bytes.Equal(d.RSNE, s.neg.RSNE) {
		s.disconnectReason, s.cause = ieee80211.ReasonPrevAuthNotValid, CauseRSNEMismatch
		s.enterDisconnect(now)
		return
	}
	if !bytes.Equal(d.RSNXE, s.rsnxe) {
		s.disconnectReason, s.cause = ieee80211.ReasonPrevAuthNotValid, CauseRSNXEMismatch
		s.enterDisconnect(now)
		return
	}
	s.pending1of4 = false
	s.cancelTimer()
	s.pmkIndex = idx
	s.micOK = true
	s.ptk, s.ptkValid = ptk, true
}

// matchPMK tries the candidate PMKs against the MIC of message 2 k, as
// hostapd's loop over wpa_auth_get_psk.
func (s *Station) matchPMK(k rsn.KeyFrame, snonce *rsn.Nonce) (int, rsn.PTK, bool) {
	for i, pmk := range s.a.cfg.PMKs(s.spa) {
		ptk := rsn.DerivePTK(s.neg.AKM, &pmk, s.a.cfg.AA, s.spa, &s.anonce, snonce)
		pmk.Clear()
		if rsn.VerifyMIC(k, &ptk.KCK) {
			return i, ptk, true
		}
		ptk.Clear()
	}
	return 0, rsn.PTK{}, false
}

func (s *Station) enterCalcNegotiating2() {
	s.enter(ptkCalcNegotiating2)
	s.timeoutCtr = 0
}

// enterInitNegotiating sends message 3: the beacon's RSNE, the GTK (and
// IGTK), under the KEK; with Extended Key ID the new key is installed for
// receive first.
func (s *Station) enterInitNegotiating(now time.Duration) {
	s.enter(ptkInitNegotiating)
	s.timeoutEvt = false
	s.timeoutCtr++
	if s.a.cfg.DisableEAPOLKeyRetries && s.timeoutCtr > 1 || s.timeoutCtr > s.a.cfg.PairwiseUpdateCount {
		return
	}
	g := &s.a.g
	rsc := s.a.cfg.GroupTXPN(g.gn)
	if s.extKeyID && s.timeoutCtr == 1 {
		s.emit(Action{At: now, Kind: ActInstallPTK, KeyID: int(s.keyIdx), Key: s.ptk.TK, RXOnly: true})
	}
	kd := append([]byte(nil), s.a.cfg.IEs...)
	if s.extKeyID {
		kd = rsn.AppendKeyIDKDE(kd, s.keyIdx)
	}
	kd = rsn.AppendGTKKDE(kd, uint8(g.gn), false, &g.gtk[g.gn-1])
	kd = s.appendIGTK(kd)
	s.sendKey(now, rsn.InfoSecure|rsn.InfoMIC|rsn.InfoAck|rsn.InfoInstall|rsn.InfoPairwise, rsc, &s.anonce, kd, true)
	clear(kd)
}

// appendIGTK adds the IGTK KDE for an MFP station (ieee80211w_kde_add):
// its IPN is the AP's once the group keys are in use, else 0.
func (s *Station) appendIGTK(kd []byte) []byte {
	g := &s.a.g
	if !s.mfp {
		return kd
	}
	var ipn uint64
	if g.state == groupSetKeysDone {
		ipn = s.a.cfg.GroupTXPN(g.gnIGTK)
	}
	return rsn.AppendIGTKKDE(kd, uint16(g.gnIGTK), ipn, &g.igtk[g.gnIGTK-4])
}

// enterInitDone installs the TK (once per handshake) and opens the port.
func (s *Station) enterInitDone(now time.Duration) {
	s.enter(ptkInitDone)
	s.keyReceived = false
	if !s.tkInstalled {
		if s.extKeyID {
			s.emit(Action{At: now, Kind: ActActivatePTK, KeyID: int(s.keyIdx)})
		} else {
			s.emit(Action{At: now, Kind: ActInstallPTK, KeyID: 0, Key: s.ptk.TK})
		}
		s.tkInstalled = true
	}
	s.pairwiseSet = true
	if s.a.cfg.PTKRekey > 0 {
		s.ptkRekeyAt, s.ptkRekeySet = now+s.a.cfg.PTKRekey, true
	}
	rekey := s.authorized
	s.authorized = true
	s.hasGTK = true
	s.emit(Action{At: now, Kind: ActCompleted, Rekey: rekey, PMK: s.pmkIndex})
}
