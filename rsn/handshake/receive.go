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
	update := false // a message 2 with a new SNonce, answering an earlier message 1
	switch {
	case msg == msgRequest:
		if s.reqReplayUsed && k.Replay() <= s.reqReplay {
			c.Replayed++
			return
		}
	case !valid(&s.keyReplay, k.Replay()):
		ok, upd := s.oldCounter(msg, k)
		if !ok {
			c.Replayed++
			return
		}
		update = upd
	}
	// Nothing above or here changes the machine: a frame dropped for its
	// flags or its MIC leaves no trace (hostapd sets the SNonce-update
	// flags before these checks).
	if !(update || s.stateAccepts(msg)) || info&rsn.InfoAck != 0 || info&rsn.InfoMIC == 0 {
		c.State++
		return
	}
	if msg == msgPairwise2 && !s.admitMessage2(now, k) {
		return
	}
	if !s.verify(now, k, msg) {
		c.MIC++
		return
	}
	if update {
		s.updateSNonce = true
		s.altSNonce, s.altSNonceValid = s.snonce, true
		s.altReplay = s.keyReplay[0].n
		s.altPMK, s.altPMKIndex = s.pmk, s.pmkIndex
	}
	c.Accepted++
	s.accept(now, k, msg, info)
}

// verify checks the MIC of a frame the machines would take: message 2
// under each candidate PMK, the others under the PTK (message 4 also under
// the PTK of the earlier SNonce, wpa_try_alt_snonce).
func (s *Station) verify(now time.Duration, k rsn.KeyFrame, msg msgKind) bool {
	s.micOK = false
	switch {
	case msg == msgPairwise2:
		return s.verifyMessage2(now, k)
	case !s.ptkValid:
		return false // a request before any PTK: nothing to check it with
	case !rsn.VerifyMIC(k, &s.ptk.KCK) && (msg != msgPairwise4 || !s.altSNonceValid || !s.tryAltSNonce(k)):
		return false
	}
	s.micOK = true
	s.cancelTimer()
	s.pending1of4 = false
	return true
}

// verifyMessage2 derives the PTK of message 2 under each candidate PMK
// before the frame can change anything; the one that verifies is kept for
// PTKCALCNEGOTIATING. hostapd takes message 2 in first and checks it
// there, so a forged one used up the replay counter of the station's own
// answer. Each message 2 costs one derivation per candidate PMK.
func (s *Station) verifyMessage2(now time.Duration, k rsn.KeyFrame) bool {
	n := k.Nonce()
	idx, pmk, ptk, ok := s.matchPMK(k, &n)
	if !ok {
		s.noteFailed(k)
		s.mismatch(now, k)
		return false
	}
	s.rxPTK, s.rxPMK, s.rxPMKKey, s.rxPTKSet = ptk, idx, pmk, true
	ptk.Clear()
	pmk.Clear()
	return true
}

// mismatch notes a message 2 no PMK verifies. One that answers the latest
// message 1 in PTKSTART is what a station with the wrong passphrase sends;
// any other may as well be forged, and the cause says so. Since such a
// frame uses up no replay counter, only the first for each counter is
// reported (AP-STA-POSSIBLE-PSK-MISMATCH, once per message 1 as in
// hostapd); a flood of forged ones is only counted.
func (s *Station) mismatch(now time.Duration, k rsn.KeyFrame) {
	cause := CauseMICMismatch
	if s.ptkState == ptkStart && s.keyReplay[0].valid && k.Replay() == s.keyReplay[0].n {
		cause = CauseWrongPassphrase
		s.micFailures++
	} else {
		s.otherMICFailures++
	}
	if k.Replay() > s.mismatchReplay {
		s.mismatchReplay = k.Replay()
		s.emit(Action{At: now, Kind: ActPSKMismatch, Cause: cause})
	}
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

// oldCounter admits the two answers hostapd takes with a counter it no
// longer expects: message 2 with a new SNonce answering an earlier
// message 1 while message 3 is out (update: the SNonce-update workaround,
// started by Receive once the MIC verifies), and message 4 answering the
// message 3 of the earlier SNonce. It changes nothing.
func (s *Station) oldCounter(msg msgKind, k rsn.KeyFrame) (ok, update bool) {
	if s.ptkState != ptkInitNegotiating {
		return false, false
	}
	if msg == msgPairwise2 && valid(&s.prevReplay, k.Replay()) && k.Nonce() != s.snonce {
		return true, true
	}
	return msg == msgPairwise4 && s.altSNonceValid && k.Replay() == s.altReplay, false
}

// stateAccepts says whether a message is expected in the current states.
func (s *Station) stateAccepts(msg msgKind) bool {
	switch msg {
	case msgPairwise2:
		return s.ptkState == ptkStart || s.ptkState == ptkCalcNegotiating
	case msgPairwise4:
		return s.ptkState == ptkInitNegotiating && s.ptkValid
	case msgGroup2:
		return s.groupState == staGroupRekeyNegotiating && s.ptkValid
	}
	return true
}

// tryAltSNonce is wpa_try_alt_snonce: message 4 may come from the station
// still on the SNonce of its earlier message 2. hostapd tries every
// candidate PMK; the earlier message 2 verified under one, and only that
// one is tried, so a forged message 4 costs one derivation.
func (s *Station) tryAltSNonce(k rsn.KeyFrame) bool {
	a := s.a
	ok := a.checker.Check(s.neg.AKM, &s.altPMK, a.cfg.AA, s.spa, &s.anonce, &s.altSNonce, k)
	a.checker.Clear()
	if !ok {
		return false
	}
	s.altSNonceValid = false
	s.snonce = s.altSNonce
	s.pmkIndex, s.pmk, s.pmkSet = s.altPMKIndex, s.altPMK, true
	s.ptk, s.ptkValid = rsn.DerivePTK(s.neg.AKM, &s.altPMK, a.cfg.AA, s.spa, &s.anonce, &s.altSNonce), true
	s.altPMK.Clear()
	// With Extended Key ID the key installed for receive is the later
	// message 3's: the earlier PTK's TK goes in before it is activated.
	s.rxKeyStale = s.extKeyID
	return true
}

// handleRequest acts on an EAPOL-Key request whose MIC verified: a
// request for a new 4-way handshake rekeys the PTK, a group request
// rekeys the GTK unless a rekey is under way or a station asked for one
// less than 10 s ago. A Michael MIC failure report (the Error bit) is
// counted and ignored: Michael is TKIP's and a CCMP station has nothing
// to report. hostapd rekeys the PTK on one, which would let a station
// force PTK0 rekeys (a gap in its traffic, or a disconnection under
// wpa_deny_ptk0_rekey).
func (s *Station) handleRequest(now time.Duration, k rsn.KeyFrame, info uint16) {
	a := s.a
	switch {
	case info&rsn.InfoError != 0:
		a.cnt.MICFailureReports++
	case info&rsn.InfoPairwise != 0:
		s.requestNewPTK()
	default:
		if d, err := rsn.ParseKeyData(k.KeyData()); err == nil && d.HasMAC {
			return // SMK/TDLS request: not for an AP
		}
		if a.g.rekeyInProgress() || a.reqRekeySet && now < a.reqRekeyAt+rekeyRequestGap {
			a.cnt.RekeyRequestsIgnored++
			return
		}
		a.reqRekeyAt, a.reqRekeySet = now, true
		a.RekeyGTK(now)
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
