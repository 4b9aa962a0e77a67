package handshake

import (
	"bytes"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// The states of the WPA_PTK machine that work with keys: message 2 in,
// message 3 out, the TK in.

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
