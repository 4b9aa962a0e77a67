// Package kernelmodel is a model of the Linux kernel's transmit path on an
// aggregating Wi-Fi driver, built to study mac80211's closed-round bug (seed
// 000) with airq's scheduler and airtime accounting in the kernel's place.
//
// It is not airq's radio path. airq injects one frame at a time and never
// forms an A-MPDU, and its TCP traffic is forwarded, not generated; the
// throughput this package reports belongs to the modelled kernel, not to
// airq. Package sim models airq's own path.
//
// The model (fixed before any result was looked at, see docs/closed-rounds.md):
//
//   - scheduler: txq in trace mode (bit-compatible with ieee80211_next_txq),
//     with Config.LegacyRoundReset for the legacy arm;
//   - AQL: an aql.Tracker; each frame adds aql.KernelCharge (the aggregated
//     estimate, quantised like tx_time_est) at dequeue and subtracts it at
//     completion; aggregates charge their airtime, split per frame, through
//     txq's Charge as drivers do with ieee80211_sta_register_airtime;
//   - driver: one aggregate in flight on BE and one being queued (up to 64
//     subframes or 4 ms of PPDU); a scheduling round on every completion and
//     on every frame the stack hands down (wake_tx_queue);
//   - medium: one station, no loss; an exchange is AIFS + a drawn backoff +
//     the exact VHT PPDU of the A-MPDU + SIFS + BlockAck, mirroring aql's
//     exact estimator; the station's TCP ACK then takes the medium for one
//     exchange of its own;
//   - TCP: a Reno sender with ACK clocking, Linux's small-queue check and
//     Linux's tail loss probe (timer.go), either on the AP itself (pacing
//     shift 7, its bytes counted until the driver completes them) or on a
//     wired host behind a 1 Gbit/s link.
//
// Run is deterministic: every random draw comes from one PCG generator seeded
// by Config.Seed, and events at the same instant run in scheduling order.
package kernelmodel
