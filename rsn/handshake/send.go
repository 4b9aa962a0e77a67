package handshake

import (
	"time"

	"github.com/airq/airq/rsn"
)

// sendKey is wpa_send_eapol: it takes the next replay counter, builds an
// EAPOL-Key frame, wraps the key data under the KEK when encrypt is set,
// adds the MIC when info asks for it, emits the frame and arms the
// retransmission timer. As in hostapd the counter advances and the timer
// runs even when the frame cannot be built (a MIC without a valid PTK).
func (s *Station) sendKey(now time.Duration, info uint16, rsc uint64, nonce *rsn.Nonce, kd []byte, encrypt bool) {
	pairwise := info&rsn.InfoPairwise != 0
	for i := maxRetries - 1; i > 0; i-- {
		s.keyReplay[i] = s.keyReplay[i-1]
	}
	s.keyReplay[0].n++
	s.keyReplay[0].valid = true
	if frame, ok := s.buildKey(info, rsc, nonce, kd, encrypt); ok {
		s.emit(Action{At: now, Kind: ActSend, Frame: frame, Protect: s.pairwiseSet})
	}
	s.arm(now + s.timeout(pairwise, info))
}

// buildKey is the frame of __wpa_send_eapol.
func (s *Station) buildKey(info uint16, rsc uint64, nonce *rsn.Nonce, kd []byte, encrypt bool) ([]byte, bool) {
	f := rsn.KeyFields{ProtocolVersion: s.a.cfg.EAPOLVersion, Info: info | s.version, RSC: rsc,
		Replay: s.keyReplay[0].n, Data: kd}
	if info&rsn.InfoPairwise != 0 {
		f.KeyLength = 16 // CCMP; RSN group messages carry 0
	}
	if nonce != nil {
		f.Nonce = *nonce
	}
	if encrypt {
		f.Info |= rsn.InfoEncrypted
		w, err := rsn.WrapKeyData(nil, &s.ptk.KEK, kd)
		if err != nil {
			return nil, false
		}
		f.Data = w
	}
	if info&rsn.InfoMIC != 0 && !s.ptkValid {
		return nil, false // "PTK not valid when sending EAPOL-Key frame"
	}
	frame := rsn.AppendKeyFrame(nil, &f)
	if info&rsn.InfoMIC != 0 && rsn.SetMIC(frame, &s.ptk.KCK) != nil {
		return nil, false
	}
	return frame, true
}

// timeout is the retransmission delay of wpa_send_eapol.
func (s *Station) timeout(pairwise bool, info uint16) time.Duration {
	ctr := s.gTimeoutCtr
	if pairwise {
		ctr = s.timeoutCtr
	}
	d := timeoutSubseq
	if ctr == 1 && s.a.cfg.TXStatus {
		d = timeoutFirstGroup
		if pairwise {
			d = timeoutFirst
		}
	}
	if s.a.cfg.DisableEAPOLKeyRetries && (!pairwise || info&rsn.InfoMIC != 0) {
		d = timeoutNoRetrans
	}
	if pairwise && ctr == 1 && info&rsn.InfoMIC == 0 {
		s.pending1of4 = true
	}
	return d
}
