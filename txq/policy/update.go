package policy

import "time"

// Update is one tick of hostapd's update_airtime_weights, due every
// Interval from the first at start in Dynamic and Limit mode: it counts
// each BSS's backlogged stations (those seen with frames queued within the
// last 2.5 intervals), and if the BSSes' shares are to be enforced and more
// than one BSS is backlogged, gives each station of BSS b a weight
// proportional to b's weight over its backlogged stations, so that every
// BSS gets its share of the air whatever its number of stations. Otherwise
// every station of a BSS with a weight gets the default weight. It returns
// when the next tick is due; ok is false in Off and Static mode, which
// need none.
func (p *Policy) Update(now time.Duration, s Scheduler) (next time.Duration, ok bool) {
	if p.mode != Dynamic && p.mode != Limit {
		return 0, false
	}
	p.count = [MaxBSS]int{}
	expiry := p.interval * backlogIntervals / 2
	for sta := range p.stas {
		st := &p.stas[sta]
		if !st.present || p.bss[st.bss].Weight == 0 {
			continue
		}
		if _, bytes := s.StationBacklog(uint16(sta)); bytes > 0 {
			st.backlogged = now + expiry
		}
		if now < st.backlogged {
			p.count[st.bss]++
		}
	}
	p.weights()
	for sta := range p.stas {
		if st := &p.stas[sta]; st.present && p.bss[st.bss].Weight != 0 {
			p.set(uint16(sta), p.weight[st.bss], s)
		}
	}
	return now + p.interval, true
}

// weights fills p.weight from p.count. A backlogged BSS b's stations get a
// weight proportional to its per-station share r_b = weight_b / count_b,
// scaled as hostapd scales its quantum: the smallest share gets
// quantumMax (256, the default) while the largest stays within
// quantumTarget; past that the largest gets quantumTarget, unless the
// smallest would fall below quantumMin, which then holds (and the largest
// is capped at the weight's u16 range). A BSS without backlogged stations
// gets the smallest weight in use, hostapd's unit weight, until it has
// some. hostapd computes the same ratios with a product of station counts,
// which overflows with many stations; shares here carry 24 fractional bits.
func (p *Policy) weights() {
	apply := p.mode == Dynamic
	var wsum, nsum uint64
	active := 0
	for b := range p.bss {
		if p.bss[b].Weight != 0 && p.count[b] > 0 {
			wsum += uint64(p.bss[b].Weight)
			nsum += uint64(p.count[b])
			active++
		}
	}
	for b := range p.bss {
		// A limited BSS whose stations' share of the backlogged stations
		// is above its weight's share of the weights.
		if p.bss[b].Weight != 0 && p.bss[b].Limit && uint64(p.count[b])*wsum > uint64(p.bss[b].Weight)*nsum {
			apply = true
		}
	}
	if !apply || active < 2 {
		for b := range p.weight {
			p.weight[b] = DefaultWeight
		}
		return
	}
	var share [MaxBSS]uint64
	var lo, hi uint64
	for b := range p.bss {
		if p.bss[b].Weight == 0 || p.count[b] == 0 {
			continue
		}
		share[b] = uint64(p.bss[b].Weight) << 24 / uint64(p.count[b])
		if lo == 0 || share[b] < lo {
			lo = share[b]
		}
		hi = max(hi, share[b])
	}
	scale, by := uint64(quantumMax), lo // the smallest gets 256
	switch {
	case hi > quantumTarget/quantumMax*lo:
		scale, by = quantumTarget, hi // the largest gets 1024
		if hi > quantumTarget/quantumMin*lo {
			scale, by = quantumMin, lo // the smallest gets 8
		}
	}
	unit := scaled(lo, scale, by)
	for b := range p.bss {
		p.weight[b] = unit
		if share[b] != 0 {
			p.weight[b] = scaled(share[b], scale, by)
		}
	}
}

// scaled is r*scale/by rounded, within a weight's range 1..65535.
func scaled(r, scale, by uint64) uint16 {
	return uint16(min(max((r*scale+by/2)/by, 1), 65535))
}
