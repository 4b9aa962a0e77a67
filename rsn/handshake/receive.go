package handshake

import (
	"time"

	"github.com/airq/airq/rsn"
)

// msgKind is how wpa_receive classifies a frame from the station.
type msgKind uint8

const (
	msgPairwise2 msgKind = iota
	msgPairwise4
	msgGroup2
	msgRequest
)

// Receive takes an EAPOL frame (from the 802.1X header on) from the
// station, with wpa_receive's rules: anything malformed, unexpected,
// replayed, in the wrong state or with a bad MIC is dropped and changes
// nothing; what passes drives the machines.
func (s *Station) Receive(now time.Duration, frame []byte) {
	if s.gone || !s.started {
		return
	}
	c := &s.a.cnt
	k, err := rsn.ParseKeyFrame(frame)
	// Some stations send message 4 with the WPA descriptor type in RSN
	// mode; hostapd accepts it (ParseKeyFrame admits both types).
	if err != nil || k.Info()&rsn.InfoSMK != 0 {
		c.Malformed++
		return
	}
	info := k.Info()
	msg := classify(k, info)
	if k.DescriptorVersion() != s.version {
		c.Version++ // "did not use HMAC-SHA1-AES with CCMP" / "... AES-128-CMAC"
		return
	}
	request := msg == msgRequest
	if request && s.reqReplayUsed && k.Replay() <= s.reqReplay ||
		!request && !valid(&s.keyReplay, k.Replay()) && !s.acceptOldCounter(msg, k) {
		c.Replayed++
		return
	}
	if !s.stateAccepts(msg) || info&rsn.InfoAck != 0 || info&rsn.InfoMIC == 0 {
		c.State++
		return
	}
	s.micOK = false
	if s.ptkValid && !s.updateSNonce {
		if !rsn.VerifyMIC(k, &s.ptk.KCK) && (msg != msgPairwise4 || !s.altSNonceValid || !s.tryAltSNonce(k)) {
			c.MIC++
			return
		}
		s.micOK = true
		s.cancelTimer()
		s.pending1of4 = false
	}
	if request && !s.micOK {
		c.MIC++
		return
	}
	c.Accepted++
	s.accept(now, k, msg, info)
}

// accept is the end of wpa_receive for a frame that passed: a request is
// acted on, the replay counters move, and the machines step.
func (s *Station) accept(now time.Duration, k rsn.KeyFrame, msg msgKind, info uint16) {
	request := msg == msgRequest
	if request {
		s.reqReplayUsed, s.reqReplay = true, k.Replay()
		s.handleRequest(now, k, info)
	} else {
		invalidate(&s.keyReplay, k.Replay(), true)
		if msg == msgPairwise2 {
			// Keep the counters of the messages 1 sent, for a station that
			// answers a retransmission with a new SNonce.
			s.prevReplay = s.keyReplay
		} else {
			s.prevReplay = [maxRetries]replayCounter{}
		}
		invalidate(&s.keyReplay, 0, false)
	}
	s.lastRx = append(s.lastRx[:0], k...)
	s.keyReceived = true
	s.keyPairwise = info&rsn.InfoPairwise != 0
	s.keyRequest = request
	s.snonce = k.Nonce()
	s.step(now)
}

func classify(k rsn.KeyFrame, info uint16) msgKind {
	switch {
	case info&rsn.InfoRequest != 0:
		return msgRequest
	case info&rsn.InfoPairwise == 0:
		return msgGroup2
	case len(k.KeyData()) == 0:
		return msgPairwise4
	}
	return msgPairwise2
}

// acceptOldCounter admits the two answers hostapd takes with a counter it
// no longer expects: message 2 with a new SNonce answering an earlier
// message 1 while message 3 is out, and message 4 answering the message 3
// of the earlier SNonce.
func (s *Station) acceptOldCounter(msg msgKind, k rsn.KeyFrame) bool {
	if s.ptkState != ptkInitNegotiating {
		return false
	}
	if msg == msgPairwise2 && valid(&s.prevReplay, k.Replay()) && k.Nonce() != s.snonce {
		s.updateSNonce = true
		s.altSNonce, s.altSNonceValid = s.snonce, true
		s.altReplay = s.keyReplay[0].n
		return true
	}
	return msg == msgPairwise4 && s.altSNonceValid && k.Replay() == s.altReplay
}

// stateAccepts says whether a message is expected in the current states.
func (s *Station) stateAccepts(msg msgKind) bool {
	switch msg {
	case msgPairwise2:
		return s.ptkState == ptkStart || s.ptkState == ptkCalcNegotiating ||
			s.updateSNonce && s.ptkState == ptkInitNegotiating
	case msgPairwise4:
		return s.ptkState == ptkInitNegotiating && s.ptkValid
	case msgGroup2:
		return s.groupState == staGroupRekeyNegotiating && s.ptkValid
	}
	return true
}

// tryAltSNonce is wpa_try_alt_snonce: message 4 may come from the station
// still on the SNonce of its earlier message 2.
func (s *Station) tryAltSNonce(k rsn.KeyFrame) bool {
	idx, ptk, ok := s.matchPMK(k, &s.altSNonce)
	if !ok {
		return false
	}
	s.altSNonceValid = false
	s.snonce = s.altSNonce
	s.pmkIndex = idx
	s.ptk, s.ptkValid = ptk, true
	return true
}

// handleRequest acts on an EAPOL-Key request whose MIC verified: a MIC
// failure report (meaningful for TKIP only, but it still rekeys) or a
// request for a new 4-way handshake rekeys the PTK, a group request
// rekeys the GTK unless a rekey is under way.
func (s *Station) handleRequest(now time.Duration, k rsn.KeyFrame, info uint16) {
	switch {
	case info&rsn.InfoError != 0, info&rsn.InfoPairwise != 0:
		s.requestNewPTK()
	default:
		if d, err := rsn.ParseKeyData(k.KeyData()); err == nil && d.HasMAC {
			return // SMK/TDLS request: not for an AP
		}
		if !s.a.g.rekeyInProgress() {
			s.a.RekeyGTK(now)
		}
	}
}

// valid is wpa_replay_counter_valid.
func valid(c *[maxRetries]replayCounter, n uint64) bool {
	for i := range c {
		if !c[i].valid {
			break
		}
		if c[i].n == n {
			return true
		}
	}
	return false
}

// invalidate is wpa_replay_counter_mark_invalid: the entries equal to n
// (all of them when !match).
func invalidate(c *[maxRetries]replayCounter, n uint64, match bool) {
	for i := range c {
		if c[i].valid && (!match || c[i].n == n) {
			c[i].valid = false
		}
	}
}
