package handshake

import (
	"bytes"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// The states of the WPA_PTK machine that work with keys: message 2 in,
// message 3 out, the TK in.

// enterCalcNegotiating takes the PTK under which Receive verified message
// 2 (hostapd derives it here, under each candidate PMK), then checks
// message 2's RSNE.
func (s *Station) enterCalcNegotiating(now time.Duration) {
	s.enter(ptkCalcNegotiating)
	s.keyReceived, s.updateSNonce = false, false
	ptk, idx, pmk, ok := s.rxPTK, s.rxPMK, s.rxPMKKey, s.rxPTKSet
	s.rxPTK.Clear()
	s.rxPMKKey.Clear()
	s.rxPTKSet = false
	defer ptk.Clear()
	defer pmk.Clear()
	if !ok {
		return // only a verified message 2 leads here
	}
	k := rsn.KeyFrame(s.lastRx)
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
	s.pmkIndex, s.pmk, s.pmkSet = idx, pmk, true
	s.micOK = true
	s.ptk, s.ptkValid = ptk, true
}

// matchPMK tries the candidate PMKs against the MIC of message 2 k, as
// hostapd's loop over wpa_auth_get_psk, charging the tries to the work
// budget; only the one that verifies has its whole PTK derived.
func (s *Station) matchPMK(k rsn.KeyFrame, snonce *rsn.Nonce) (int, rsn.PMK, rsn.PTK, bool) {
	a := s.a
	pmks := a.candidates(s)
	defer a.clearCandidates()
	for i := range pmks {
		if a.checker.Check(s.neg.AKM, &pmks[i], a.cfg.AA, s.spa, &s.anonce, snonce, k) {
			a.chargeWork(i + 1)
			return i, pmks[i], rsn.DerivePTK(s.neg.AKM, &pmks[i], a.cfg.AA, s.spa, &s.anonce, snonce), true
		}
	}
	a.chargeWork(len(pmks))
	return 0, rsn.PMK{}, rsn.PTK{}, false
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
	if g.state == groupSetKeys && !s.gUpdate {
		// A rekey waits for other stations: this one gets the GTK the
		// AP sends with now, then GN by a group handshake, and
		// SETKEYSDONE waits for that too.
		g.keyDone++
		s.gUpdate = true
	}
	if s.extKeyID && s.timeoutCtr == 1 {
		s.emit(Action{At: now, Kind: ActInstallPTK, KeyID: int(s.keyIdx), Key: s.ptk.TK, RXOnly: true})
		s.rxKeyStale = false
	}
	kd := append([]byte(nil), s.a.cfg.IEs...)
	if s.extKeyID {
		kd = rsn.AppendKeyIDKDE(kd, s.keyIdx)
	}
	// The GTK in use and its Key RSC (hostapd sends GN's, which during a
	// rekey is a key the AP does not send with yet).
	rsc := s.a.cfg.GroupTXPN(g.txGN)
	kd = rsn.AppendGTKKDE(kd, uint8(g.txGN), false, &g.gtk[g.txGN-1])
	kd = s.appendIGTK(kd, g.txIGTK)
	if td := s.a.cfg.TransitionDisable; td != 0 {
		kd = rsn.AppendTransitionDisableKDE(kd, td)
	}
	s.sendKey(now, rsn.InfoSecure|rsn.InfoMIC|rsn.InfoAck|rsn.InfoInstall|rsn.InfoPairwise, rsc, &s.anonce, kd, true)
	clear(kd)
}

// appendIGTK adds the IGTK KDE of key ID id for an MFP station
// (ieee80211w_kde_add): its IPN is the AP's if the AP sends with it, else
// 0.
func (s *Station) appendIGTK(kd []byte, id int) []byte {
	g := &s.a.g
	if !s.mfp {
		return kd
	}
	var ipn uint64
	if id == g.txIGTK {
		ipn = s.a.cfg.GroupTXPN(id)
	}
	return rsn.AppendIGTKKDE(kd, uint16(id), ipn, &g.igtk[id-4])
}

// enterInitDone installs the TK (once per handshake) and opens the port.
func (s *Station) enterInitDone(now time.Duration) {
	s.enter(ptkInitDone)
	s.keyReceived = false
	if !s.tkInstalled {
		if s.extKeyID {
			if s.rxKeyStale {
				s.emit(Action{At: now, Kind: ActInstallPTK, KeyID: int(s.keyIdx), Key: s.ptk.TK, RXOnly: true})
				s.rxKeyStale = false
			}
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
