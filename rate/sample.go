package rate

const (
	// incRates is how many rates just above the best take turns in the
	// climbing half of the samples.
	incRates = 4
	// enoughAttempts: a rate with this many attempts in the current
	// interval already has its measurement; sampling it again is waste.
	enoughAttempts = 4
	jumpTries      = 3
)

// sample decides whether the frame being picked samples, and at which
// table position; -1 means it carries data at the chain's rate.
//
// Only rates faster than the best are sampled: a slower rate can only win
// if the best degrades, and then the best's own failures (and the fallback
// chain, which carries data at slower rates) measure it. The share is a
// hard bound, checked against every frame picked so far, and the PRNG only
// spreads the samples out so they do not fall on a fixed frame pattern.
func (s *Station) sample() int {
	if s.shareNum == 0 || s.level != levelBest {
		return -1
	}
	if (s.samplesAll+1)*shareDen > s.frames*s.shareNum {
		return -1
	}
	// Twice the share in probability: the bound above then paces samples
	// at close to the full share with random spacing.
	if s.next()%shareDen >= 2*s.shareNum {
		return -1
	}
	if s.cand >= 0 && s.eligible(s.cand) {
		return s.cand
	}
	best := s.chain[levelBest]
	if best == 0 {
		return -1
	}
	if s.next()&1 == 0 {
		return s.sampleInc(best)
	}
	return s.sampleJump(best)
}

// sampleInc returns one of the incRates rates just faster than best, in
// turn, so that a better channel is climbed one step per sample.
func (s *Station) sampleInc(best int) int {
	k := min(incRates, best)
	for range k {
		s.inc = (s.inc + 1) % k
		if i := best - 1 - s.inc; s.eligible(i) {
			return i
		}
	}
	return -1
}

// sampleJump returns a random rate faster than best, so that a large
// improvement is found without climbing through every rate between.
func (s *Station) sampleJump(best int) int {
	for range jumpTries {
		if i := int(s.next() % uint64(best)); s.eligible(i) {
			return i
		}
	}
	return -1
}

// eligible: not measured enough in this interval, not in backoff.
func (s *Station) eligible(i int) bool {
	e := &s.rates[i]
	return e.att < enoughAttempts && s.epoch >= e.skipTill
}

// next is splitmix64: tiny state, full period, good enough spreading.
func (s *Station) next() uint64 {
	s.rng += 0x9e3779b97f4a7c15
	z := s.rng
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
