package scan

import "time"

// Next is called after each of our beacons has gone out: now is the
// current time and nextTBTT the next target beacon transmission time. busy
// says the caller is under load and would rather not leave; the planner
// postpones a due trip at most Config.MaxDefers times and for less than
// Config.MaxDeferTime, then leaves anyway.
//
// It returns the trip to make, if any; it leaves Config.Drain after now at
// the earliest. The trip is committed: its channels count as visited. Next
// never allocates.
func (p *Planner) Next(now, nextTBTT time.Duration, busy bool) (Trip, bool) {
	var t Trip
	if len(p.active)+len(p.passive) == 0 || !p.due(now) {
		return t, false
	}
	if busy && p.postpone(now) {
		return t, false
	}
	if !p.plan(&t, now+p.cfg.Drain, nextTBTT) {
		p.stats.NoRoom++
		return t, false
	}
	if busy {
		p.stats.Forced++
	}
	p.deferral = deferral{}
	p.commit(&t, nextTBTT)
	return t, true
}

// due reports whether a trip may start now: home long enough, and a sweep in
// progress or allowed to start.
func (p *Planner) due(now time.Duration) bool {
	if p.tripped && now < p.lastBack+p.cfg.MinHome {
		return false
	}
	if p.sw.on {
		return true
	}
	if p.cfg.Mode == Periodic && p.tripped && now < p.sw.nextStart {
		return false
	}
	p.sw = sweepState{on: true, start: now, nextStart: now + p.cfg.Period}
	p.stats.SweepStart = now
	return true
}

// postpone records one deferral and reports whether the bound still allows it.
func (p *Planner) postpone(now time.Duration) bool {
	d := &p.deferral
	if !d.on {
		*d = deferral{on: true, since: now}
	}
	if d.n >= p.cfg.MaxDefers || now-d.since >= p.cfg.MaxDeferTime {
		return false
	}
	d.n++
	p.stats.Deferred++
	return true
}

// plan builds the sweep's next trip, alternating passive and active trips
// while both kinds remain and falling back to the other kind when one does
// not fit in the time left before nextTBTT.
func (p *Planner) plan(t *Trip, now, tbtt time.Duration) bool {
	sw := &p.sw
	hasA, hasP := sw.ai < len(p.active), sw.pi < len(p.passive)
	first := hasP && (sw.wantPassive || !hasA)
	for _, passive := range [2]bool{first, !first} {
		if passive && hasP && p.planPassive(t, now, tbtt) {
			return true
		}
		if !passive && hasA && p.planActive(t, now, tbtt) {
			return true
		}
	}
	return false
}

func (p *Planner) planActive(t *Trip, now, tbtt time.Duration) bool {
	room := min(p.limit, tbtt-p.cfg.Guard-now)
	n := 0
	for _, i := range p.active[p.sw.ai:] {
		if n == MaxVisits {
			break
		}
		p.freqBuf[n] = p.cfg.Channels[i].Freq
		n++
	}
	return p.activeTrip(t, now, room, p.freqBuf[:n])
}

func (p *Planner) planPassive(t *Trip, now, tbtt time.Duration) bool {
	st := &p.ch[p.passive[p.sw.pi]]
	return p.passiveTrip(t, now, tbtt, st.Freq, st.Visits)
}

// commit advances the sweep past the trip's channels and updates coverage
// and statistics.
func (p *Planner) commit(t *Trip, tbtt time.Duration) {
	sw := &p.sw
	t.TBTT, t.Sweep = tbtt, p.stats.Sweeps+1
	for i, v := range t.List() {
		var idx int
		if t.Passive {
			idx = p.passive[sw.pi+i]
		} else {
			idx = p.active[sw.ai+i]
		}
		p.visit(&p.ch[idx], v, tbtt)
	}
	if t.Passive {
		sw.pi++
		p.stats.PassiveVisits++
	} else {
		sw.ai += t.N
		p.stats.ActiveVisits += uint64(t.N)
	}
	if t.MissesBeacon {
		p.stats.MissedBeacons++
	}
	sw.wantPassive = !t.Passive
	p.stats.Trips++
	p.stats.LongestTrip = max(p.stats.LongestTrip, t.Len())
	p.lastBack, p.tripped = t.Return, true
	if sw.ai == len(p.active) && sw.pi == len(p.passive) {
		p.endSweep(t.Return)
	}
}

func (p *Planner) endSweep(end time.Duration) {
	d := end - p.sw.start
	p.stats.Sweeps++
	p.stats.LastSweep = d
	p.stats.LongestSweep = max(p.stats.LongestSweep, d)
	p.sw.on = false
}

// visit records one visit of a channel, including which phases after our
// TBTT it listened to. The TBTT before tbtt is the phase origin.
func (p *Planner) visit(st *ChannelStatus, v Visit, tbtt time.Duration) {
	st.Visits++
	st.LastVisit = v.Start
	st.Dwell += v.Dwell
	st.Phases |= phaseBins(v.Start-(tbtt-p.cfg.BeaconInterval), v.Dwell, p.cfg.BeaconInterval)
}

// phaseBins returns the bins of 32 over one beacon interval bi that lie
// wholly inside [from, from+d), from taken modulo bi.
func phaseBins(from, d, bi time.Duration) uint32 {
	from %= bi
	if from < 0 {
		from += bi
	}
	var bins uint32
	for b := range time.Duration(32) {
		lo := b * bi / 32
		hi := (b + 1) * bi / 32
		for _, shift := range [2]time.Duration{0, bi} { // a window may wrap past the next TBTT
			if lo+shift >= from && hi+shift <= from+d {
				bins |= 1 << b
			}
		}
	}
	return bins
}
