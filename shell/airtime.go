package shell

import (
	"fmt"
	"slices"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/txq/policy"
)

// airtimeRequests are the airtime set requests that take the core's policy
// from cur to next, as airqctl would send them: the radio's keys, then the
// first BSS's. The requests reach one BSS, the only one the daemon runs.
func airtimeRequests(cur, next ap.Airtime) []ctl.Request {
	var rs []ctl.Request
	set := func(key string, v uint32) {
		rs = append(rs, ctl.Request{Op: ctl.OpAirtimeSet, Key: key, Value: v})
	}
	if next.Mode != cur.Mode {
		set("airtime_mode", uint32(next.Mode))
	}
	if interval(next) != interval(cur) {
		set("airtime_update_interval", uint32(interval(next)/time.Millisecond))
	}
	cb, nb := first(cur), first(next)
	if nb.Weight != cb.Weight {
		set("airtime_bss_weight", uint32(nb.Weight))
	}
	if nb.Limit != cb.Limit {
		limit := uint32(0)
		if nb.Limit {
			limit = 1
		}
		set("airtime_bss_limit", limit)
	}
	if capOf(nb) != capOf(cb) {
		set("airtime_bss_cap", uint32(capOf(nb)))
	}
	macs := make([]ieee80211.MAC, 0, len(cb.StaWeights)+len(nb.StaWeights))
	for m := range cb.StaWeights {
		macs = append(macs, m)
	}
	for m := range nb.StaWeights {
		if _, ok := cb.StaWeights[m]; !ok {
			macs = append(macs, m)
		}
	}
	slices.SortFunc(macs, func(a, b ieee80211.MAC) int { return slices.Compare(a[:], b[:]) })
	for _, m := range macs {
		if w := nb.StaWeights[m]; w != cb.StaWeights[m] {
			rs = append(rs, ctl.Request{Op: ctl.OpAirtimeSet, Key: "airtime_sta_weight", Addr: m, Value: uint32(w)})
		}
	}
	return rs
}

func interval(a ap.Airtime) time.Duration {
	if a.Interval == 0 {
		return policy.DefaultInterval
	}
	return a.Interval
}

func first(a ap.Airtime) ap.BSSAirtime {
	if len(a.BSS) == 0 {
		return ap.BSSAirtime{}
	}
	return a.BSS[0]
}

// capOf is the cap in percent, 100 for none.
func capOf(b ap.BSSAirtime) int {
	if b.CapPercent <= 0 || b.CapPercent >= 100 {
		return 100
	}
	return b.CapPercent
}

// applyAirtime sends the requests on the loop, stopping at the first
// refused.
func applyAirtime(cur, next ap.Airtime, control func(ctl.Request) ctl.Reply) error {
	for _, req := range airtimeRequests(cur, next) {
		if rep := control(req); rep.Err() != nil {
			return fmt.Errorf("%s: %w", req, rep.Err())
		}
	}
	return nil
}
