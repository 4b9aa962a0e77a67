package txq

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// aqlFake models mac80211's AQL counters with the reference harness rules:
// pending airtime per station and AC, per AC (plus an external amount that
// only the per-PHY check sees) and in total.
type aqlFake struct {
	low, high, threshold int32
	sta                  [64][ieee80211.NumACs]int32
	ac                   [ieee80211.NumACs]int32
	external             [ieee80211.NumACs]int32
	total                int32
	phyCalls             int
	// sched is the scheduler whose groups GroupPending sums.
	sched *Scheduler
}

// StationsPending sums the pending airtime of every station.
func (f *aqlFake) StationsPending(ac ieee80211.AC) int64 {
	var p int64
	for sta := 1; sta < len(f.sta); sta++ {
		p += int64(f.sta[sta][ac])
	}
	return p
}

// GroupPending sums the pending airtime of the scheduler's group g.
func (f *aqlFake) GroupPending(g uint8, ac ieee80211.AC) int64 {
	var p int64
	for sta := range f.sta {
		if sta != 0 && f.sched.Group(uint16(sta)) == g {
			p += int64(f.sta[sta][ac])
		}
	}
	return p
}

// GroupShare is GroupPending and StationsPending.
func (f *aqlFake) GroupShare(g uint8, ac ieee80211.AC) (int64, int64) {
	return f.GroupPending(g, ac), f.StationsPending(ac)
}

func newAQLFake(low, high int32) *aqlFake {
	return &aqlFake{low: low, high: high, threshold: 24000}
}

// PHYAllows is ieee80211_txq_schedule_airtime_check, u32 arithmetic included
// (listed 0 wraps to "unlimited").
func (f *aqlFake) PHYAllows(ac ieee80211.AC, listed int) bool {
	f.phyCalls++
	limit := uint32(listed-1)*uint32(f.low)/2 + uint32(f.high)
	return uint32(f.ac[ac]+f.external[ac]) < limit
}

func (f *aqlFake) StationAllows(sta uint16, ac ieee80211.AC) bool {
	if sta == 0 {
		return true
	}
	p := f.sta[sta][ac]
	return p < f.low || (f.total < f.threshold && p < f.high)
}

func (f *aqlFake) StationPending(sta uint16, ac ieee80211.AC) int32 { return f.sta[sta][ac] }

func (f *aqlFake) StationBelow(sta uint16, ac ieee80211.AC) (int32, bool, bool) {
	p := f.sta[sta][ac]
	if sta == 0 {
		return p, true, true
	}
	return p, p < f.low, p < f.high
}

func (f *aqlFake) TotalBelowThreshold() bool { return f.total < f.threshold }

func (f *aqlFake) add(sta uint16, ac ieee80211.AC, us int32) {
	f.sta[sta][ac] += us
	f.ac[ac] += us
	f.total += us
}

func (f *aqlFake) sub(sta uint16, ac ieee80211.AC, us int32) { f.add(sta, ac, -us) }

// openAirtime lets everything through with nothing pending.
type openAirtime struct{}

func (openAirtime) PHYAllows(ieee80211.AC, int) bool                      { return true }
func (openAirtime) StationAllows(uint16, ieee80211.AC) bool               { return true }
func (openAirtime) StationPending(uint16, ieee80211.AC) int32             { return 0 }
func (openAirtime) StationBelow(uint16, ieee80211.AC) (int32, bool, bool) { return 0, true, true }
func (openAirtime) TotalBelowThreshold() bool                             { return true }
func (openAirtime) GroupPending(uint8, ieee80211.AC) int64                { return 0 }
func (openAirtime) GroupShare(uint8, ieee80211.AC) (int64, int64)         { return 0, 0 }
func (openAirtime) StationsPending(ieee80211.AC) int64                    { return 0 }

// owner records what the scheduler gives back.
type owner struct {
	ecn     bool // frames are ECN-capable
	marked  int
	dropped [NumDropReasons]int
	last    Handle
}

func (o *owner) Mark(h Handle) bool {
	if o.ecn {
		o.marked++
	}
	return o.ecn
}

func (o *owner) Drop(h Handle, r DropReason) { o.dropped[r]++; o.last = h }

func mustNew(tb interface{ Fatal(...any) }, cfg Config) *Scheduler {
	s, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

const ms = time.Millisecond
