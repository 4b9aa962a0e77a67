// Package aql implements Airtime Queue Limits for airq's transmit path: how
// long a frame exchange occupies the medium, how much estimated airtime is
// pending (handed to the radio but not yet completed) per station, per access
// category and in total, and the limits that mac80211 derives from those sums.
//
// Two airtime models live here. Airtime (and Estimator.Airtime) is the exact
// duration of the exchange airq really performs: injected frames are never
// A-MPDU aggregated, so every frame pays channel access (AIFS plus the mean
// backoff), its own preamble, SIFS and an ACK. KernelExpected reproduces
// net/mac80211/airtime.c bit for bit (aggregation guess, +38 bytes, 4 µs
// floor, tx_time_est quantisation) for the trace mode and the seed study.
//
// Tracker holds the pending-airtime state and the limits, and sums each
// station group's (a BSS's, SetGroup) pending airtime for the scheduler's
// GroupShares (GroupPending). It satisfies the
// scheduler's Airtime interface structurally (PHYAllows, StationAllows,
// StationPending). Every method is O(1) and allocation free except Reset and
// the text encoders. The package is pure: no goroutines, no clock, no I/O.
// A Tracker is not safe for concurrent use; the core owns it and calls it
// from its single event loop.
//
// The text forms follow mac80211's debugfs files aql_txq_limit,
// aql_threshold and aql_pending, plus a flag syntax (VO=5000:12000,...).
package aql
