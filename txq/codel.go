package txq

import "time"

// CoDel after include/net/codel_impl.h, per flow, on the CoDel clock. The
// parameters are mac80211's (ieee80211_txq_setup_flows and
// sta_update_codel_params); mtu is 0 as in mac80211, so the last frame of a
// flow is never dropped.

type codelParams struct {
	target, interval time.Duration
	ecn              bool
}

var (
	fastCoDel = codelParams{target: 20 * time.Millisecond, interval: 100 * time.Millisecond, ecn: true}
	// slowCoDel gives slow stations a wider target and interval and no ECN,
	// since their frames take long enough on the air to look like a queue.
	slowCoDel = codelParams{target: 50 * time.Millisecond, interval: 300 * time.Millisecond}
)

type codelVars struct {
	count, lastCount             uint32
	dropping                     bool
	recInvSqrt                   uint16
	firstAbove, dropNext, ldelay time.Duration
}

const recInvSqrtShift = 16

// newtonStep refines rec_inv_sqrt ~ 1/sqrt(count) in Q0.16, as the kernel.
func (v *codelVars) newtonStep() {
	invsqrt := uint64(v.recInvSqrt) << recInvSqrtShift
	invsqrt2 := (invsqrt * invsqrt) >> 32
	val := (uint64(3) << 32) - uint64(v.count)*invsqrt2
	val >>= 2
	val = (val * invsqrt) >> (32 - 2 + 1)
	v.recInvSqrt = uint16(val >> recInvSqrtShift)
}

// controlLaw is t + interval/sqrt(count).
func controlLaw(t, interval time.Duration, rec uint16) time.Duration {
	return t + time.Duration((uint64(interval)*(uint64(rec)<<recInvSqrtShift))>>32)
}

func (s *Scheduler) codelParams(q *TXQ) *codelParams {
	if q.sta != 0 && s.stas[q.sta].slow {
		return &slowCoDel
	}
	return &fastCoDel
}

func shouldDrop(it *item, ok bool, f *flow, p *codelParams, now time.Duration) bool {
	v := &f.cv
	if !ok {
		v.firstAbove = 0
		return false
	}
	v.ldelay = now - it.enq
	if v.ldelay < p.target || f.bytes == 0 {
		v.firstAbove = 0
		return false
	}
	if v.firstAbove == 0 {
		v.firstAbove = now + p.interval
		return false
	}
	return now > v.firstAbove
}

// codelDequeue is codel_dequeue over one flow.
func (s *Scheduler) codelDequeue(q *TXQ, f *flow, now time.Duration) (item, bool) {
	p := s.codelParams(q)
	v := &f.cv
	st := &s.acs[q.ac].stats
	it, ok := s.pop(q, f)
	if !ok {
		v.dropping = false
		return it, false
	}
	drop := shouldDrop(&it, ok, f, p, now)
	switch {
	case v.dropping && !drop:
		v.dropping = false
	case v.dropping:
		for v.dropping && now >= v.dropNext {
			v.count++
			v.newtonStep()
			if p.ecn && s.own.Mark(it.h) {
				st.CoDelMarks++
				v.dropNext = controlLaw(v.dropNext, p.interval, v.recInvSqrt)
				return it, true
			}
			s.codelDrop(st, it.h)
			it, ok = s.pop(q, f)
			if !shouldDrop(&it, ok, f, p, now) {
				v.dropping = false
			} else {
				v.dropNext = controlLaw(v.dropNext, p.interval, v.recInvSqrt)
			}
		}
	case drop:
		if p.ecn && s.own.Mark(it.h) {
			st.CoDelMarks++
		} else {
			s.codelDrop(st, it.h)
			it, ok = s.pop(q, f)
			shouldDrop(&it, ok, f, p, now)
		}
		v.dropping = true
		// Re-enter near the drop rate of the last cycle if it ended
		// recently.
		delta := v.count - v.lastCount
		if delta > 1 && now-v.dropNext < 16*p.interval {
			v.count = delta
			v.newtonStep()
		} else {
			v.count = 1
			v.recInvSqrt = ^uint16(0)
		}
		v.lastCount = v.count
		v.dropNext = controlLaw(now, p.interval, v.recInvSqrt)
	}
	return it, ok
}

func (s *Scheduler) codelDrop(st *ACStats, h Handle) {
	st.CoDelDrops++
	st.Drops[DropCoDel]++
	s.own.Drop(h, DropCoDel)
}

// codelClock is the monotonic clock minus the time spent frozen.
type codelClock struct {
	frozen  bool
	at, off time.Duration
}

func (c *codelClock) now(t time.Duration) time.Duration {
	if c.frozen {
		return c.at - c.off
	}
	return t - c.off
}

// Freeze stops CoDel's clock (the radio is off channel: frames cannot leave,
// and their wait must not read as a standing queue). Idempotent.
func (s *Scheduler) Freeze(now time.Duration) {
	if !s.clk.frozen {
		s.clk.frozen, s.clk.at = true, now
	}
}

// Thaw restarts CoDel's clock; the frozen interval never counts toward
// sojourn times. Idempotent.
func (s *Scheduler) Thaw(now time.Duration) {
	if s.clk.frozen {
		s.clk.off += now - s.clk.at
		s.clk.frozen = false
	}
}
