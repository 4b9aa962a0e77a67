package rate

const (
	// Probability bounds of the throughput estimate, as in
	// minstrel_ht_get_tp_avg: below 10% a rate is worthless, and above 90%
	// the difference is collision noise that must not make a slower rate
	// look better than a faster one.
	probFloor = 0.10
	probCap   = 0.90
	// robustProb is the success probability above which the robust rate
	// is chosen by throughput rather than by probability alone.
	robustProb = 0.75
	// evidence caps, in attempts, the weight of a rate's average against
	// its last interval: a best rate carrying 30 to 150 attempts an interval
	// moves by a third to two thirds, a sample of one attempt by 1/65. Near
	// the bottom of the SNR range the best rates' probabilities are close
	// (MCS1 at 67% against MCS0 at 99% at 6 dB) and one interval of 20
	// frames is off by 0.1 once in a hundred: an average that followed each
	// interval alone dropped the better rate every second or so.
	evidence = 64.0
	// changeZ: a measurement more than changeZ standard deviations (of
	// its attempts, given the average; the variance floored at minVar so
	// that an average of 100% is not infinitely sure) from the average
	// means the channel changed, and the average restarts from it. A dead
	// best rate is thus replaced at the next update, as with a short
	// memory, while noise is averaged out as with a long one.
	changeZ = 4.0
	minVar  = 0.04
	// minWeight is the evidence, in attempts since its average last started
	// afresh, a rate needs before it may carry data: one lucky sample of a
	// 3% rate must not cost an interval of frames at seven retries. A rate
	// that would win on less is sampled first (Station.cand) until it has
	// it. The count does not decay with time: a station sending a few
	// frames an interval samples a rate only every few intervals, and
	// decaying evidence would then never add up (it stayed at 1 Mbit/s).
	minWeight = 3
	// maxBestFails: after a frame lost at the best rate, one frame falls
	// back and the next returns to the best, as minstrel's chain starts
	// every frame at the best rate; after maxBestFails losses in one
	// interval, data stays down the chain until the update. At 67% and
	// five attempts a frame is lost once in 250, so losses at a sound best
	// rate no longer cut its measurement short (which biased it down).
	maxBestFails = 3
)

// update folds each rate's counters into its average, recomputes the
// expected throughputs and rebuilds the fallback chain.
func (s *Station) update() {
	s.epoch++
	bits := float64(8 * s.cfg.FrameLen)
	for i := range s.rates[:s.n] {
		s.rates[i].fold(bits, s.epoch)
	}
	s.rank()
	s.backoff()
	s.level, s.bestFails = levelBest, 0
}

// maxSkipExp bounds the sampling backoff at 2^2 intervals (200 ms by
// default): a rate that just did worse than the best is not retried at
// once, so that a steady channel does not pay for hopeless samples, but a
// channel that improves is still noticed within a bounded time.
const maxSkipExp = 2

// backoff spaces out the samples of rates that lost to the best.
func (s *Station) backoff() {
	bestTP := s.rates[s.chain[levelBest]].tp
	for i := range s.rates[:s.n] {
		e := &s.rates[i]
		if e.lastAtt == 0 || i == s.chain[levelBest] {
			continue
		}
		if e.tp > bestTP {
			e.skipExp = 0
			continue
		}
		e.skipExp = min(e.skipExp+1, maxSkipExp)
		e.skipTill = s.epoch + 1<<e.skipExp
	}
}

// fold closes an interval. bits is the reference frame's size: the
// expected throughput in Mbit/s is bits delivered per µs of exchange.
func (e *entry) fold(bits float64, epoch uint64) {
	e.lastAtt, e.lastSucc = e.att, e.succ
	if e.att > 0 {
		cur := float64(e.succ) / float64(e.att)
		prior := 0.0
		if e.seen {
			// A stale average halves its weight every interval it goes
			// unmeasured: what a rate did a second ago says little now.
			prior = min(e.weight, evidence) / float64(uint64(1)<<min(epoch-e.epoch-1, 62))
			// A measurement the average cannot explain means the channel
			// changed: start again from it.
			d, v := cur-e.prob, max(e.prob*(1-e.prob), minVar)/float64(e.att)
			if d*d > changeZ*changeZ*v {
				prior, e.run = 0, 0
			}
		}
		e.weight = prior + float64(e.att)
		e.run += uint64(e.att)
		e.prob += float64(e.att) / e.weight * (cur - e.prob)
		e.seen, e.epoch = true, epoch
		e.attSum += uint64(e.att)
		e.succSum += uint64(e.succ)
	}
	e.att, e.succ = 0, 0
	e.tp = 0
	if e.prob >= probFloor {
		e.tp = min(e.prob, probCap) * bits / float64(e.airtime)
	}
}

// rank picks the chain: best and second by expected throughput, the
// robust rate among the slower ones (minstrel's max_prob_rate: the best
// throughput among rates above 75%, else the highest probability), a rate
// half way from it to the bottom, and the lowest rate. Each failed frame
// moves data one step down; the next update starts again from the top.
func (s *Station) rank() {
	best, second := -1, -1
	s.cand = -1
	for i := range s.rates[:s.n] {
		e := &s.rates[i]
		if e.run < minWeight && e.tp > 0 {
			if s.cand < 0 || better(e, &s.rates[s.cand]) {
				s.cand = i
			}
			continue
		}
		switch {
		case best < 0 || better(e, &s.rates[best]):
			best, second = i, best
		case second < 0 || better(e, &s.rates[second]):
			second = i
		}
	}
	low := s.n - 1
	if best < 0 {
		// Nothing has evidence enough yet: go with the little there is.
		best, s.cand = max(s.cand, 0), -1
	}
	if s.rates[best].tp == 0 {
		best = low // nothing is known to work: start again from the bottom
	}
	if second < 0 || s.rates[second].tp == 0 {
		second = best
	}
	// The robust rate must be slower than both: after two failures the
	// faster rates have had their chance.
	robust := -1
	for i := max(best, second) + 1; i < s.n; i++ {
		if e := &s.rates[i]; e.seen && (robust < 0 || moreRobust(e, &s.rates[robust])) {
			robust = i
		}
	}
	if robust < 0 {
		robust = min(max(best, second)+1, low)
	}
	s.chain = [levels]int{best, second, robust, (robust + low + 1) / 2, low}
	if s.cand >= 0 && !better(&s.rates[s.cand], &s.rates[best]) {
		s.cand = -1
	}
}

// better orders rates by expected throughput, then by probability, then
// the faster one (lower position) first.
func better(a, b *entry) bool {
	if a.tp != b.tp {
		return a.tp > b.tp
	}
	return a.prob > b.prob
}

func moreRobust(a, b *entry) bool {
	ah, bh := a.prob > robustProb, b.prob > robustProb
	switch {
	case ah && bh:
		return a.tp > b.tp
	case ah != bh:
		return ah
	}
	return a.prob > b.prob
}
