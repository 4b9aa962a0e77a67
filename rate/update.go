package rate

// Probability bounds of the throughput estimate, as in minstrel_ht_get_tp_avg:
// below 10% a rate is worthless, and above 90% the difference is collision
// noise that must not make a slower rate look better than a faster one.
const (
	probFloor = 0.10
	probCap   = 0.90
	// robustProb is the success probability above which the robust rate
	// is chosen by throughput rather than by probability alone.
	robustProb = 0.75
	// evidence sets how fast an average follows its rate's last interval:
	// the new measurement weighs attempts/(attempts+evidence) when the
	// rate was also measured in the interval before. One attempt (a sample)
	// moves the average by a quarter, minstrel's EWMA level; a rate that
	// carried a hundred attempts is replaced almost entirely by what it just
	// did. A fixed weight would keep a dead best rate on top for several
	// intervals, each costing failed frames.
	evidence = 3.0
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
	s.level = levelBest
}

// maxSkipExp bounds the sampling backoff at 2^3 intervals (400 ms by
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
		}
		e.weight = prior + float64(e.att)
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
	for i := range s.rates[:s.n] {
		e := &s.rates[i]
		switch {
		case best < 0 || better(e, &s.rates[best]):
			best, second = i, best
		case second < 0 || better(e, &s.rates[second]):
			second = i
		}
	}
	low := s.n - 1
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
