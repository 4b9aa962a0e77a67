package txq

import (
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// ACStats are one AC's counters. They are defined by what the caller sees,
// so they mean the same in both modes.
type ACStats struct {
	RoundsOpened uint64 // StartRound found PHYAllows true
	RoundsClosed uint64 // StartRound found PHYAllows false
	Selections   uint64 // Next returned a queue
	// IdleSelections are Selections of an empty queue (trace mode: a
	// keep-active queue whose debt is paid; production never returns one).
	IdleSelections uint64
	// Skipped counts open rounds whose first Next returned nothing while an
	// eligible (AQL allows, deficit non-negative), backlogged queue was
	// listed. SkippedStale counts those ended by a queue stamped with the
	// current round number: a stamp left from an earlier round of the same
	// number, the seed-000 bug.
	Skipped, SkippedStale uint64
	Airtime               uint64 // µs charged by Charge
	Drops                 [NumDropReasons]uint64
	CoDelDrops            uint64
	CoDelMarks            uint64
}

// Stats returns a copy of the AC's counters.
func (s *Scheduler) Stats(ac ieee80211.AC) ACStats { return s.acs[ac&3].stats }

// Round reports the AC's round number and whether the round is open.
func (s *Scheduler) Round(ac ieee80211.AC) (round uint64, open bool) {
	A := &s.acs[ac&3]
	return A.round, A.open
}

// Listed is the number of queues PHYAllows would be told about now.
func (s *Scheduler) Listed(ac ieee80211.AC) int { return s.acs[ac&3].listed }

// ListedACs has bit ac set for each AC with Listed(ac) > 0: a TX loop
// finds the ACs to run rounds on without asking each.
func (s *Scheduler) ListedACs() uint8 { return s.listedACs }

// StationAirtime is the airtime charged to a station on an AC, in µs.
func (s *Scheduler) StationAirtime(sta uint16, ac ieee80211.AC) uint64 {
	if !s.valid(sta) {
		return 0
	}
	return s.airOf(sta, ac&3).txAirtime
}

// Deficit is the station's stored deficit on an AC in µs, including refills
// production mode owes it; pending airtime is not subtracted.
func (s *Scheduler) Deficit(sta uint16, ac ieee80211.AC) int64 {
	if !s.valid(sta) {
		return 0
	}
	ac &= 3
	a := s.airOf(sta, ac)
	return s.effective(sta, ac, a) + int64(s.air.StationPending(sta, ac))
}

// Backlog is the number of frames and bytes queued in total.
func (s *Scheduler) Backlog() (frames, bytes int) { return s.frames, s.bytes }

// Collisions counts frames whose flow hash hit another queue's flow and went
// to their queue's default flow.
func (s *Scheduler) Collisions() uint64 { return s.collisions }

// CoDelNow is the CoDel clock at monotonic time now.
func (s *Scheduler) CoDelNow(now time.Duration) time.Duration { return s.clk.now(now) }
