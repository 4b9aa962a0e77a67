package aql

import "github.com/airq/airq/internal/ieee80211"

// mac80211's defaults (include/net/cfg80211.h).
const (
	DefaultLimitLow  = 5000  // µs, IEEE80211_DEFAULT_AQL_TXQ_LIMIT_L
	DefaultLimitHigh = 12000 // µs, IEEE80211_DEFAULT_AQL_TXQ_LIMIT_H
	DefaultThreshold = 24000 // µs, IEEE80211_AQL_THRESHOLD
	DefaultFrameCap  = 64    // frames in flight per AC
)

// Limits are the radio-wide AQL limits in µs, as mac80211 keeps them in
// aql_txq_limit_low/high and aql_threshold. The kernel takes any pair;
// airq's parsers and Tracker.SetLimit refuse Low above High (a station
// below Low passes whatever High says), with the rule of airqctl's aql set.
type Limits struct {
	Low       [ieee80211.NumACs]uint32
	High      [ieee80211.NumACs]uint32
	Threshold uint32
}

// DefaultLimits returns mac80211's defaults: 5000/12000 µs for every AC and
// a 24000 µs threshold.
func DefaultLimits() Limits {
	var l Limits
	for ac := range l.Low {
		l.Low[ac], l.High[ac] = DefaultLimitLow, DefaultLimitHigh
	}
	l.Threshold = DefaultThreshold
	return l
}

// PHYLimit returns the per-PHY limit of ac with listed queues on the active
// list: (listed-1)*low/2 + high (ieee80211_txq_schedule_airtime_check), and
// ok=false when listed <= 0. The kernel computes it in u32, where listed == 0
// wraps to about 2.1e9 µs with the default low limit, so an empty list never
// closes a round; airq makes that explicit: no listed queue, no limit. The
// sum is computed in 64 bits, so it cannot wrap for any u32 limits.
func (l *Limits) PHYLimit(ac ieee80211.AC, listed int) (limit uint64, ok bool) {
	if listed <= 0 || ac >= ieee80211.NumACs {
		return 0, false
	}
	return uint64(listed-1)*uint64(l.Low[ac])/2 + uint64(l.High[ac]), true
}
