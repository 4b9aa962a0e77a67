package txq

import "github.com/airq/airq/internal/ieee80211"

// Production mode's refill wheel: stations in debt wait in the AC's wheel,
// credited one weight per pass of the virtual pass counter without being
// visited (see "Production mode" in doc.go).

// refill is what the kernel's walk does once every queue of the ring has been
// visited: it goes on passing over the queues in debt. While one of them is
// AQL-eligible (found_eligible) it goes on until one has credit: the wheel
// jumps to the earliest pass at which a station turns non-negative and puts
// the stations due then back on the ring. When none is, the kernel makes one
// more pass, refilling each queue in debt once, and gives up: the wheel
// steps one pass. passed records that step, so that a Next makes at most
// one. refill reports whether the walk goes on.
func (s *Scheduler) refill(ac ieee80211.AC, passed *bool) bool {
	W := &s.acs[ac].wheel
	var i int32
	switch {
	case W.n > 0 && s.recheckWaiting(ac):
		i = W.advance(s.airs)
	case *passed || W.n == 0:
		return false
	default:
		*passed = true
		i = W.step(s.airs)
	}
	s.release(ac, i)
	return true
}

// recheckCount bounds how many stations in debt recheckWaiting asks about.
const recheckCount = 8

// recheckWaiting reports whether a station in debt is AQL-eligible now,
// which the kernel's walk would notice (found_eligible). The answer filed
// with each station is checked again, oldest first, for at most
// recheckCount stations: the per-station check also depends on the total
// pending airtime, which others' dequeues raise and completions lower.
// (Each station is asked again anyway at its own completions.)
func (s *Scheduler) recheckWaiting(ac ieee80211.AC) bool {
	W := &s.acs[ac].wheel
	for k := 0; k < recheckCount; k++ {
		ok := W.ok > 0
		i := W.oldest(ok)
		if i < 0 {
			break
		}
		now := s.air.StationAllows(uint16(i/ieee80211.NumACs), ac)
		W.classify(s.airs, i, now)
		if ok && now {
			return true
		}
	}
	return W.ok > 0
}

// file puts a station in debt into the wheel at the pass where the refills
// it is owed (one weight per pass) cover the debt; eff is its effective
// deficit with this pass's refill already added. ok is whether AQL allows it
// now. A station already filed keeps the refills owed so far.
func (s *Scheduler) file(sta uint16, ac ieee80211.AC, a *air, eff int64, ok bool) {
	W := &s.acs[ac].wheel
	if a.wLevel >= 0 {
		s.realize(sta, ac, a)
		W.remove(s.airs, s.airIndex(sta, ac))
	} else {
		a.vt = W.v + 1
	}
	a.t = a.vt
	if w := int64(s.stas[sta].weight); eff < 0 {
		a.t += (-eff + w - 1) / w
	}
	a.wOK = ok
	W.insert(s.airs, s.airIndex(sta, ac))
}

// realize credits a filed station with the refills of the passes since vt,
// so that def is current; it stays filed.
func (s *Scheduler) realize(sta uint16, ac ieee80211.AC, a *air) {
	if v := s.acs[ac].wheel.v; a.wLevel >= 0 && v > a.vt {
		a.def += int64(s.stas[sta].weight) * (v - a.vt)
		a.vt = v
	}
}

// reschedule re-files a filed station after its deficit, weight or pending
// airtime changed, or releases it if it now has credit.
func (s *Scheduler) reschedule(sta uint16, ac ieee80211.AC, a *air) {
	s.realize(sta, ac, a)
	eff := a.def - int64(s.air.StationPending(sta, ac))
	if eff < 0 {
		s.file(sta, ac, a, eff, s.air.StationAllows(sta, ac))
		return
	}
	s.acs[ac].wheel.remove(s.airs, s.airIndex(sta, ac))
	s.wake(sta, ac)
}

// release puts the parked queues of a chain of stations detached from the
// wheel on the ring tail, their refills settled up to the current pass.
func (s *Scheduler) release(ac ieee80211.AC, i int32) {
	for i >= 0 {
		a := &s.airs[i]
		next := a.wNext
		sta := uint16(i / ieee80211.NumACs)
		s.realize(sta, ac, a)
		a.wLevel = -1
		s.wake(sta, ac)
		i = next
	}
}

// wake moves a station's parked queues of one AC to the ring tail.
func (s *Scheduler) wake(sta uint16, ac ieee80211.AC) {
	A := &s.acs[ac]
	for _, tid := range acTIDs[ac] {
		qi := s.queueIndex(sta, tid)
		if q := &s.queues[qi]; q.state == stWait {
			q.state = stListed
			A.list.pushTail(s.queues, qi)
		}
	}
}
