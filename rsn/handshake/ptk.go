package handshake

import (
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
			n := len(s.a.candidates(s))
			s.a.clearCandidates()
			if n > 0 {
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
// wrong passphrase, most likely, when each came in answer to the latest
// message 1; with any other among them it may be forged frames as well.
func (s *Station) fail(now time.Duration, reason uint16, cause Cause) {
	if m := s.MismatchCause(); cause == CauseNoMessage2 && m != CauseNone {
		cause = m
	}
	s.disconnectReason, s.cause = reason, cause
	s.enterDisconnect(now)
}

// MismatchCause says what the MIC mismatches on message 2 in this
// handshake point to: CauseWrongPassphrase when each answered the latest
// message 1 in PTKSTART, CauseMICMismatch (a wrong passphrase, or forged
// frames) when any did not, CauseNone without any. The caller words a
// station's departure mid-handshake with it.
func (s *Station) MismatchCause() Cause {
	switch {
	case s.otherMICFailures > 0:
		return CauseMICMismatch
	case s.micFailures > 0:
		return CauseWrongPassphrase
	}
	return CauseNone
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
	s.micFailures, s.otherMICFailures = 0, 0
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
	// Back to message 1, no PTK of this handshake holds: a message 2 must
	// not be checked against an earlier one.
	s.ptkValid, s.updateSNonce = false, false
	s.ptk.Clear()
	s.altPMK.Clear()
	s.timeoutCtr++
	if s.timeoutCtr > s.a.cfg.PairwiseUpdateCount {
		return // the next step disconnects
	}
	s.checksLeft = checksPerMessage1
	// No PMKID KDE for PSK: hostapd leaves it out of message 1, where it
	// would help an offline passphrase search. SAE's PMKID names the
	// exchange's or the cached PMKSA, not the password.
	var kd []byte
	if s.ownPMKSet && s.neg.AKM == rsn.AKMSAE {
		kd = rsn.AppendPMKIDKDE(nil, s.ownPMKID)
	}
	s.sendKey(now, rsn.InfoAck|rsn.InfoPairwise, 0, &s.anonce, kd, false)
}

func (s *Station) enterCalcNegotiating2() {
	s.enter(ptkCalcNegotiating2)
	s.timeoutCtr = 0
}
