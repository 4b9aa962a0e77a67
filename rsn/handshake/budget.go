package handshake

import (
	"slices"
	"time"

	"github.com/airq/airq/rsn"
)

// The work a message 2 costs, bounded (doc.go): each is checked under
// every candidate PMK until one verifies, and anyone who heard message 1
// can send them.
const (
	// checksPerMessage1 is how many messages 2 a station may have checked
	// per message 1 it was sent: its answer, and one more (a racing forged
	// frame, or the SNonce update's new answer).
	checksPerMessage1 = 2
	// recentFailures is how many failed messages 2 per station are
	// remembered, so that repeating one costs nothing.
	recentFailures = 4
	// DefaultMessage2Work is Config.Message2Work's default, in PMK tries
	// per second: about 2 % of a core at the 2.7 µs a try costs
	// (rsn.BenchmarkMICChecker), and 32 messages 2 per second under 256
	// wildcard PSKs.
	DefaultMessage2Work = 8192
	// workBurst is the share of a second of work that may be saved up.
	workBurst = 10
)

// failedMessage2 identifies a message 2 that verified under no PMK: the
// same replay counter, SNonce and MIC under the same ANonce fail again.
type failedMessage2 struct {
	replay uint64
	snonce rsn.Nonce
	mic    [rsn.MICLen]byte
	set    bool
}

func failedOf(k rsn.KeyFrame) failedMessage2 {
	f := failedMessage2{replay: k.Replay(), snonce: k.Nonce(), set: true}
	copy(f.mic[:], k.MIC())
	return f
}

// admitMessage2 decides whether message 2 k is checked against the PMKs:
// not an exact repeat of one that failed, within the station's checks for
// this message 1 and within the BSS's work. Each refusal is counted.
func (s *Station) admitMessage2(now time.Duration, k rsn.KeyFrame) bool {
	c := &s.a.cnt
	switch {
	case slices.Contains(s.failed[:], failedOf(k)):
		c.Message2Repeated++
	case s.checksLeft <= 0:
		c.Message2StationBudget++
	case !s.a.takeWork(now, s):
		c.Message2WorkBudget++
	default:
		s.checksLeft--
		return true
	}
	return false
}

// noteFailed remembers a message 2 no PMK verified.
func (s *Station) noteFailed(k rsn.KeyFrame) {
	s.failed[s.failedNext] = failedOf(k)
	s.failedNext = (s.failedNext + 1) % recentFailures
}

// takeWork refills the BSS's work budget for the time passed and says
// whether s may have a message 2 checked now; the tries are charged after
// (chargeWork), so the budget can go into debt by one message's worth.
//
// Not every check may take the budget down to nothing. An extra check,
// one that only the upper half of a burst may pay for, is a station's
// second for the same message 1, or any check of a station one of whose
// messages 2 failed since it associated: forged messages 2 from an
// attacker's own associations so get one check at the full budget per
// association. And a station's first check refused for want of work
// makes it owed: until it gets one, stations that associated after it
// are held to the upper half too, so that under a flood of new
// associations its answer to the next message 1 finds the lower half
// saved for it.
func (a *Authenticator) takeWork(now time.Duration, s *Station) bool {
	rate := float64(a.cfg.Message2Work)
	burst := rate / workBurst
	if !a.workSet {
		a.work, a.workAt, a.workSet = burst, now, true
	}
	if dt := now - a.workAt; dt > 0 {
		a.work = min(a.work+dt.Seconds()*rate, burst)
		a.workAt = now
	}
	extra := s.checksLeft < checksPerMessage1 || s.failed[0].set
	floor := 0.0
	if extra || a.olderOwed(s) {
		floor = burst / 2
	}
	ok := a.work > floor
	switch {
	case ok && s.owed:
		s.setOwed(false)
	case !ok && !extra:
		s.setOwed(true)
	}
	return ok
}

// olderOwed reports whether a station that associated before s is owed a
// check.
func (a *Authenticator) olderOwed(s *Station) bool {
	if a.owed == 0 {
		return false
	}
	for _, o := range a.stas {
		if o.owed && o.joinSeq < s.joinSeq {
			return true
		}
	}
	return false
}

func (s *Station) setOwed(on bool) {
	if s.owed == on {
		return
	}
	s.owed = on
	if on {
		s.a.owed++
	} else {
		s.a.owed--
	}
}

func (a *Authenticator) chargeWork(tries int) { a.work -= float64(tries) }

// candidates returns the PMKs of s in the authenticator's buffer, which
// clearCandidates wipes: the one its SAE exchange or PMKSA gave it, else
// the configured ones.
func (a *Authenticator) candidates(s *Station) []rsn.PMK {
	if s.ownPMKSet {
		a.pmkBuf = append(a.pmkBuf[:0], s.ownPMK)
		return a.pmkBuf
	}
	a.pmkBuf = a.cfg.PMKs(a.pmkBuf[:0], s.spa)
	return a.pmkBuf
}

func (a *Authenticator) clearCandidates() {
	clear(a.pmkBuf)
	a.checker.Clear()
}
