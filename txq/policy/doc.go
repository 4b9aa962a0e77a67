// Package policy shares a radio's air between its BSSes by setting the
// stations' airtime weights in the txq scheduler, with hostapd's
// airtime_mode and its meaning (src/ap/airtime_policy.c):
//
//   - Static (1): a station weighs its airtime_sta_weight, else its BSS's
//     airtime_bss_weight, else the default (Config.Default); set when it associates.
//   - Dynamic (2): every airtime_update_interval, each BSS's backlogged
//     stations (seen with frames queued within the last 2.5 intervals) are
//     counted, and every station of a BSS gets a weight proportional to
//     the BSS's weight over that count, so that each BSS's share of the air
//     follows its weight whatever its number of stations.
//   - Limit (3): as Dynamic, but only while a BSS with airtime_bss_limit
//     would take more than its weight's share (more of the backlogged
//     stations than its share of the weights); otherwise default weights.
//
// All three are work-conserving: weights only divide the air among those
// who want it. A hard cap that holds when the air is free is the
// scheduler's own (txq.Scheduler.SetCap).
//
// The package is pure: time is the caller's, and the scheduler is reached
// through the Scheduler interface, which *txq.Scheduler satisfies; nothing
// allocates after New. The radio that owns the scheduler wires it so:
//
//	pol, _ := policy.New(policy.Config{Mode: airtime_mode,
//		Interval: airtime_update_interval, MaxStations: n})
//	pol.SetBSS(b, policy.BSS{Weight: airtime_bss_weight, Limit: airtime_bss_limit}, sched)
//	// at association, after sched.AddStation(sta) and sched.SetGroup(sta, b):
//	pol.AddStation(sta, b, airtime_sta_weight_of(addr), sched)
//	// at disassociation, beside sched.RemoveStation(sta):
//	pol.RemoveStation(sta)
//	// on its timer, first at start:
//	due, ok := pol.Update(now, sched) // ok false: Off or Static, no timer
//
// On reload, SetBSS with the new keys; a changed mode or interval is a new
// Policy to which the stations are added again, which sets every weight.
package policy
