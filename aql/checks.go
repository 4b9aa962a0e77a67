package aql

import (
	"fmt"
	"math"

	"github.com/airq/airq/internal/ieee80211"
)

// PHYAllows is the per-PHY check (mac80211 ieee80211_txq_schedule_airtime_check):
// the AC's pending airtime, multicast included, is below
// (listed-1)*low/2 + high, where listed is the number of queues on the AC's
// active list (checked-out queues do not count). listed <= 0 always allows;
// see Limits.PHYLimit. The scheduler calls it once per round.
func (t *Tracker) PHYAllows(ac ieee80211.AC, listed int) bool {
	limit, ok := t.lim.PHYLimit(ac, listed)
	if !ok {
		return ac < ieee80211.NumACs
	}
	return uint64(t.pending[ac]) < limit
}

// StationAllows is the per-station check (ieee80211_txq_airtime_check):
// pending < low, or total < threshold and pending < high, with the
// station's own limits. Station 0 is always allowed, like mac80211's
// queues without a station.
func (t *Tracker) StationAllows(sta uint16, ac ieee80211.AC) bool {
	if sta == 0 {
		return true
	}
	if sta > MaxStation || ac >= ieee80211.NumACs {
		return false
	}
	low, high := t.stationLimit(&t.sta[sta], ac)
	return stationAllows(t.sta[sta].pending[ac], t.total, low, high, t.lim.Threshold)
}

// StationBelow returns station sta's pending airtime in ac (StationPending)
// and whether it is below the station's low and below its high limit: the
// two halves of StationAllows that do not depend on the total. Station 0 is
// below both.
func (t *Tracker) StationBelow(sta uint16, ac ieee80211.AC) (pending int32, belowLow, belowHigh bool) {
	if sta > MaxStation || ac >= ieee80211.NumACs {
		return 0, false, false
	}
	s := &t.sta[sta]
	p := s.pending[ac]
	pending = int32(min(p, math.MaxInt32))
	if sta == 0 {
		return pending, true, true
	}
	low, high := t.stationLimit(s, ac)
	return pending, p < int64(low), p < int64(high)
}

// TotalBelowThreshold reports whether the total pending airtime is below
// aql_threshold, the other half of StationAllows.
func (t *Tracker) TotalBelowThreshold() bool { return t.total < int64(t.lim.Threshold) }

// CanSend reports whether ac has room under the in-flight frame cap.
func (t *Tracker) CanSend(ac ieee80211.AC) bool {
	return ac < ieee80211.NumACs && t.inFlight[ac] < t.frameCap[ac]
}

func (t *Tracker) stationLimit(s *station, ac ieee80211.AC) (low, high uint32) {
	if s.custom&(1<<ac) != 0 {
		return s.low[ac], s.high[ac]
	}
	return t.lim.Low[ac], t.lim.High[ac]
}

// Limits returns the radio-wide limits.
func (t *Tracker) Limits() Limits { return t.lim }

// SetLimits replaces the radio-wide limits (e.g. from a parsed table).
func (t *Tracker) SetLimits(l Limits) { t.lim = l }

// SetLimit sets the radio-wide low and high limit of ac, like a write to
// aql_txq_limit. Stations without an override follow it at once. mac80211
// instead copies the new values to each station whose limits equal the old
// ones; the difference shows only for a station explicitly set to exactly
// the old radio values, which here keeps its override. Low above high is
// refused, as the parsers refuse it.
func (t *Tracker) SetLimit(ac ieee80211.AC, low, high uint32) error {
	if ac >= ieee80211.NumACs {
		return fmt.Errorf("aql: AC %d: accepted range 0..3", ac)
	}
	if err := checkLowHigh(ac, low, high); err != nil {
		return err
	}
	t.lim.Low[ac], t.lim.High[ac] = low, high
	return nil
}

// SetThreshold sets the total-pending threshold (aql_threshold) in µs.
func (t *Tracker) SetThreshold(us uint32) { t.lim.Threshold = us }

// SetFrameCap sets the in-flight frame cap of ac; 0 restores the default.
func (t *Tracker) SetFrameCap(ac ieee80211.AC, frames uint16) {
	if ac < ieee80211.NumACs {
		t.frameCap[ac] = uint32(frames)
		if frames == 0 {
			t.frameCap[ac] = DefaultFrameCap
		}
	}
}

// SetStationLimit overrides station sta's low and high limit in ac (the
// per-station debugfs "limit <ac> <low> <high>"). RemoveStation drops it.
func (t *Tracker) SetStationLimit(sta uint16, ac ieee80211.AC, low, high uint32) error {
	if sta == 0 || sta > MaxStation {
		return fmt.Errorf("aql: station %d: accepted range 1..%d", sta, MaxStation)
	}
	if ac >= ieee80211.NumACs {
		return fmt.Errorf("aql: AC %d: accepted range 0..3", ac)
	}
	s := &t.sta[sta]
	s.low[ac], s.high[ac] = low, high
	s.custom |= 1 << ac
	return nil
}

// ClearStationLimit makes station sta follow the radio-wide limits of ac again.
func (t *Tracker) ClearStationLimit(sta uint16, ac ieee80211.AC) {
	if sta <= MaxStation && ac < ieee80211.NumACs {
		t.sta[sta].custom &^= 1 << ac
	}
}

// StationLimit returns the limits in force for station sta in ac.
func (t *Tracker) StationLimit(sta uint16, ac ieee80211.AC) (low, high uint32) {
	if sta > MaxStation || ac >= ieee80211.NumACs {
		return 0, 0
	}
	return t.stationLimit(&t.sta[sta], ac)
}
