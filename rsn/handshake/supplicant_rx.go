package handshake

import (
	"bytes"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// Receive takes an EAPOL frame from the AP (wpa_sm_rx_eapol): checks on
// version, replay counter and MIC first, then message 1, 3 or group 1.
func (s *Supplicant) Receive(now time.Duration, frame []byte) {
	if s.gone {
		return
	}
	k, err := rsn.ParseKeyFrame(frame)
	if err != nil || k.Info()&(rsn.InfoSMK|rsn.InfoRequest) != 0 {
		s.cnt.Malformed++
		return
	}
	info := k.Info()
	ver := k.DescriptorVersion()
	// With AKM 2 and CCMP wpa_supplicant also takes version 3 (the
	// "stronger" descriptor some APs use).
	if ver != s.version && !(s.version == rsn.VersionHMACSHA1 && ver == rsn.VersionAESCMAC) {
		s.cnt.Version++
		return
	}
	if s.rxReplaySet && k.Replay() <= s.rxReplay {
		s.cnt.Replayed++ // replay counter did not increase
		return
	}
	if info&rsn.InfoAck == 0 {
		s.cnt.State++
		return
	}
	if info&rsn.InfoMIC != 0 && !s.verifyMIC(k) {
		s.cnt.MIC++
		return
	}
	kd := k.KeyData() // the caller's bytes, unless unwrapped into our own
	if info&rsn.InfoEncrypted != 0 {
		if info&rsn.InfoMIC == 0 || !s.ptkSet {
			s.cnt.State++ // encrypted but unauthenticated, or no key
			return
		}
		if kd, err = rsn.UnwrapKeyData(nil, &s.ptk.KEK, kd); err != nil {
			s.cnt.KeyData++
			return
		}
		defer clear(kd)
	}
	// As wpa_supplicant, these checks come after the MIC moved the replay
	// counter.
	if info&rsn.InfoPairwise == 0 && info&rsn.InfoMIC == 0 || info&rsn.InfoPairwise != 0 && info&rsn.InfoIndexMask != 0 {
		s.cnt.State++
		return
	}
	s.cnt.Accepted++
	switch {
	case info&rsn.InfoPairwise == 0:
		s.group1(now, k, info, kd)
	case info&(rsn.InfoMIC|rsn.InfoEncrypted) != 0:
		s.msg3(now, k, info, kd)
	default:
		s.msg1(now, k)
	}
}

// verifyMIC tries the temporary PTK of the last message 1, then the PTK;
// a verified frame sets the replay counter.
func (s *Supplicant) verifyMIC(k rsn.KeyFrame) bool {
	ok := false
	if s.tptkSet && rsn.VerifyMIC(k, &s.tptk.KCK) {
		ok = true
		s.ptk, s.ptkSet, s.installed = s.tptk, true, false
		s.tptk.Clear()
		s.tptkSet = false
		s.renewSNonce = true
	}
	if !ok && s.ptkSet {
		ok = rsn.VerifyMIC(k, &s.ptk.KCK)
	}
	if ok {
		s.rxReplay, s.rxReplaySet = k.Replay(), true
	}
	return ok
}

// msg1 derives a temporary PTK and answers with message 2.
func (s *Supplicant) msg1(now time.Duration, k rsn.KeyFrame) {
	if s.cfg.DenyPTK0Rekey && !s.useExtKeyID && s.state == suppCompleted {
		s.fail(now, ieee80211.ReasonDeauthLeaving, CausePTK0Rekey)
		return
	}
	s.state = supp4Way
	if s.renewSNonce {
		n, err := rsn.RandomNonce(s.cfg.Rand)
		if err != nil {
			s.fail(now, ieee80211.ReasonUnspecified, CauseRandom)
			return
		}
		s.snonce, s.renewSNonce = n, false
	}
	if d, err := rsn.ParseKeyData(k.KeyData()); err == nil {
		s.m1PMKID, s.m1PMKIDSet = d.PMKID, d.HasPMKID
	}
	an := k.Nonce()
	s.tptk = rsn.DerivePTK(s.akm, &s.cfg.PMK, s.cfg.SPA, s.cfg.AA, &s.snonce, &an)
	s.tptkSet = true
	kd := append(append([]byte(nil), s.cfg.RSNE...), s.cfg.RSNXE...)
	f := rsn.AppendKeyFrame(nil, &rsn.KeyFields{ProtocolVersion: s.cfg.EAPOLVersion,
		Info: s.version | rsn.InfoPairwise | rsn.InfoMIC, Replay: k.Replay(), Nonce: s.snonce, Data: kd})
	rsn.SetMIC(f, &s.tptk.KCK)
	s.emit(Action{At: now, Kind: ActSend, Frame: f, Protect: s.haveTK})
	s.anonce = an
}

// msg3 checks message 3 against the beacon and message 1, answers with
// message 4 and installs the PTK and the group keys, each only once.
func (s *Supplicant) msg3(now time.Duration, k rsn.KeyFrame, info uint16, kd []byte) {
	s.state = supp4Way
	d, err := rsn.ParseKeyData(kd)
	enc := info&rsn.InfoEncrypted != 0
	if err != nil || d.HasGTK && !enc || d.HasIGTK && (!enc || s.mfp && len(d.IGTK) != 16) {
		s.fail(now, ieee80211.ReasonUnspecified, CauseBadMessage3)
		return
	}
	if !bytes.Equal(d.RSNE, s.cfg.APRSNE) {
		s.fail(now, ieee80211.ReasonIEMismatch, CauseAPRSNEMismatch)
		return
	}
	if !bytes.Equal(d.RSNXE, s.cfg.APRSNXE) {
		s.fail(now, ieee80211.ReasonIEMismatch, CauseAPRSNEMismatch)
		return
	}
	if !s.extKeyIDOf(&d) || k.Nonce() != s.anonce || k.KeyLength() != 16 || !d.HasGTK || len(d.GTK) != 16 {
		s.fail(now, ieee80211.ReasonUnspecified, CauseBadMessage3)
		return
	}
	if s.useExtKeyID && !s.installed {
		s.emit(Action{At: now, Kind: ActInstallPTK, KeyID: int(s.keyIdx), Key: s.ptk.TK, RXOnly: true})
	}
	s.transDis = d.TransitionDisable
	s.reply(now, k, info&rsn.InfoSecure|rsn.InfoPairwise)
	s.renewSNonce = true
	if info&rsn.InfoInstall != 0 && !s.installed {
		if s.useExtKeyID {
			s.emit(Action{At: now, Kind: ActActivatePTK, KeyID: int(s.keyIdx)})
		} else {
			s.emit(Action{At: now, Kind: ActInstallPTK, KeyID: 0, Key: s.ptk.TK})
		}
		s.installed, s.haveTK = true, true
	}
	s.installGroupKeys(now, k, &d)
	rekey := s.msg3OK
	s.state, s.msg3OK = suppCompleted, true
	s.emit(Action{At: now, Kind: ActCompleted, Rekey: rekey})
}

// extKeyIDOf is wpa_handle_ext_key_id.
func (s *Supplicant) extKeyIDOf(d *rsn.KeyData) bool {
	if !s.extKeyID {
		s.keyIdx, s.useExtKeyID = 0, false
		return !d.HasKeyID || d.KeyID == 0
	}
	if !d.HasKeyID {
		s.keyIdx = 0
		return !s.useExtKeyID
	}
	if d.KeyID > 1 {
		return false
	}
	s.keyIdx, s.useExtKeyID = d.KeyID, true
	return true
}

// group1 installs the new group keys and answers with group message 2.
func (s *Supplicant) group1(now time.Duration, k rsn.KeyFrame, info uint16, kd []byte) {
	if !s.msg3OK {
		s.fail(now, ieee80211.ReasonUnspecified, CauseBadGroupMsg)
		return
	}
	d, err := rsn.ParseKeyData(kd)
	if err != nil || !d.HasGTK || info&rsn.InfoEncrypted == 0 || len(d.GTK) != 16 {
		s.fail(now, ieee80211.ReasonUnspecified, CauseBadGroupMsg)
		return
	}
	s.state = suppGroup
	s.installGroupKeys(now, k, &d)
	s.reply(now, k, info&rsn.InfoIndexMask|rsn.InfoSecure)
	s.state = suppCompleted
	s.emit(Action{At: now, Kind: ActGroupCompleted})
}

// installGroupKeys installs the GTK and IGTK of d unless they are the ones
// already in use (the key reinstallation check).
func (s *Supplicant) installGroupKeys(now time.Duration, k rsn.KeyFrame, d *rsn.KeyData) {
	gtk := rsn.Key(d.GTK)
	if !s.gtkSet || gtk != s.gtk {
		s.gtk, s.gtkSet = gtk, true
		s.emit(Action{At: now, Kind: ActInstallGTK, KeyID: int(d.GTKKeyID), Key: gtk, RSC: k.RSC() & (1<<48 - 1)})
	}
	if s.mfp && d.HasIGTK && len(d.IGTK) == 16 && d.IGTKKeyID <= 4095 {
		igtk := rsn.Key(d.IGTK)
		if !s.igtkSet || igtk != s.igtk {
			s.igtk, s.igtkSet = igtk, true
			s.emit(Action{At: now, Kind: ActInstallIGTK, KeyID: int(d.IGTKKeyID), Key: igtk, RSC: d.IPN})
		}
	}
}

// reply sends message 4 or group message 2: the request's replay counter,
// no key data, a MIC under the PTK.
func (s *Supplicant) reply(now time.Duration, k rsn.KeyFrame, info uint16) {
	f := rsn.AppendKeyFrame(nil, &rsn.KeyFields{ProtocolVersion: s.cfg.EAPOLVersion,
		Info: info | s.version | rsn.InfoMIC, Replay: k.Replay()})
	rsn.SetMIC(f, &s.ptk.KCK)
	s.emit(Action{At: now, Kind: ActSend, Frame: f, Protect: s.haveTK})
}
