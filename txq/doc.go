// Package txq holds airq's transmit queues and schedules them by airtime,
// after mac80211's TXQs: per-station per-TID queues plus one non-station
// (management, multicast) queue per AC, flow-fair with CoDel (fq.go,
// codel.go), and per AC a deficit-round-robin scheduler on airtime with the
// kernel's driver contract:
//
//	s.StartRound(ac, now)              // ieee80211_txq_schedule_start
//	for q, ok := s.Next(ac, now); ok; q, ok = s.Next(ac, now) {
//		for room && aqlAllows {        // the caller's per-frame AQL check
//			f, ok := s.Dequeue(q, now) // FQ-CoDel
//			...
//		}
//		s.Return(q, stillHeld, now)    // ieee80211_return_txq
//	}
//	s.EndRound(ac)
//	// at each completion of a station's frame:
//	s.Charge(sta, ac, airtimeUS, now)  // ieee80211_sta_register_airtime
//	// with a group capped, frames left and nothing in flight:
//	at, ok := s.CapDeadline(now)       // wake up then
//
// The package is pure: no goroutines, no clock (now is the caller's
// monotonic time), no allocation after New. Queues hold opaque handles;
// the bytes stay with the Owner, which marks (ECN) or takes back (drops)
// frames when asked. The Airtime interface is the AQL view; the aql package
// satisfies it but is not imported.
//
// # Rounds
//
// A round has a number and a separate open flag. StartRound sets open from
// Airtime.PHYAllows(ac, listed) and increments the number only when open: a
// closed round never changes it. Next serves nothing while closed and ends
// the round at the first eligible queue already stamped with the round
// number. mac80211 instead writes 0 into the number when closed, so every
// open round after a closed one is number 1 and a queue stamped 1 earlier
// ends it at once (seed 000); Config.LegacyRoundReset reproduces that.
//
// # Trace mode
//
// Trace mode is ieee80211_next_txq and __ieee80211_schedule_txq line by
// line: a u16 round that skips 0 on wrap, s32 deficits, the walk that gives
// each queue in debt one weight of credit per visit and moves it to the
// tail, head insertion of returned station queues that still have frames,
// and the keep-active rule. Its cost per decision grows with the number of
// stations in debt and with charge/weight.
//
// # Production mode
//
// Production mode makes exactly the kernel's decisions (the same queue at
// every Next, the same deficits after every call) without the walk, so one
// decision costs O(log n) in the number of stations and nothing in the size
// of the charges. Three observations make that possible:
//
//   - The kernel's list is a cycle with a cursor (its head). Moving a
//     visited queue to the tail moves the cursor past it and leaves the
//     cyclic order alone; only insertions change it, and they happen at the
//     cursor: at the head (before the next queue to visit) or at the tail
//     (after the last). The list is kept cut at an arbitrary point with
//     labels that increase along it (cycle.go; a crowded spot is relabelled
//     over the smallest window with room), and lap counts the cursor's
//     passes over the cut. How often the walk has passed a queue between
//     two moments is then the difference in laps plus two comparisons of
//     its label with the cursor's. Nothing has to be visited to be refilled.
//   - A station in debt gains one weight per pass over any of its listed
//     queues until its effective deficit is non-negative; the pass after
//     that stops the walk if AQL allows the station. Between changes to its
//     deficit, weight, pending airtime, limits or listed queues (Charge,
//     Return, SetWeight, LimitsChanged, listing) that stop is a fixed lap
//     and queue, computed when the station is filed (prod.go) and realised
//     lazily: the refills are booked at the next change.
//   - The per-station AQL check is (pending < low) or (total < threshold
//     and pending < high). The first two comparisons change only with the
//     station's own pending airtime; the total is one global answer. So
//     stations wait in two heaps ordered by their stop (heap.go): below the
//     low limit, and below the high limit (consulted only while the total
//     is below the threshold); stations above both are in neither.
//
// Next takes the earliest stop at or after the cursor among the two heaps
// and the non-station queue, and moves the cursor there: the walk's passes
// on the way are accounted for by the lap and the labels. If there is none,
// no AQL-eligible queue is listed and the kernel's walk makes one pass,
// refilling every queue in debt, and gives up: lap increases by one. An
// entry the walk has gone past (filed in the below-high heap while the
// total was over the threshold, or a station whose queue is checked out) is
// filed again when it reaches the top. A station whose emptied queue the
// kernel would hand out unused (debt paid, keep-active over) is skipped
// instead; that is the only visible difference (ACStats.IdleSelections),
// together with the round number, which production keeps in 64 bits where
// the kernel wraps a u16.
//
// With a single queue listed (one busy station) that queue is the
// cursor's, so Next reads its station's stop directly, without the heaps
// (nextSolo); TestProductionDecisionsSolo holds that case to trace mode.
//
// TestProductionDecisions drives both modes with the same random operations
// (two TIDs per station, the non-station queue, completions out of order
// and without status, idle time, weights, power save, removal, limits, the
// total threshold) and compares every decision and deficit.
//
// # Groups and caps
//
// Every station belongs to one group, its BSS (SetGroup; 0 by default).
// Groups change nothing in the DRR: a station's deficit grows by its own
// weight per refill whatever its group, and stations spread over uncapped
// groups are scheduled exactly as in one (TestDefaultScheduleUnchanged).
// Sharing the air between BSSes by weight, hostapd's airtime_mode, is done
// by setting the stations' weights (the policy subpackage), as hostapd does
// through mac80211; it stays work-conserving.
//
// A group may also have a hard cap (SetCap), which holds even when the air
// is free: a token bucket of airtime refilled at its share of the caller's
// clock, up to a burst, and charged at every completion of its stations'
// frames with the airtime Charge is given. While the bucket is below zero
// the group's station queues are not eligible: Next treats them as the
// kernel's walk treats a station AQL holds back. They stay listed and count
// among the queues PHYAllows sees, the walk still refills them while they
// are in debt (so DRR state within the group and against other groups is
// kept, and nobody is punished twice for the same airtime), a round's open
// flag and number are untouched, and a walk that finds only held-back
// queues makes its one pass and gives up. The non-station queue
// (management, group-addressed frames) is in no group and never held back. Production mode files a capped
// group's stations in a pair of heaps of their own, consulted only while
// the group is within budget; entries the walk passed meanwhile are filed
// again when reached (as below-high entries are: O(log n) for each station
// the walk passed, once per return within budget), and with no group
// capped Next consults the shared heaps alone, as before. Trace mode checks the
// group beside the per-station AQL check, which makes it the reference
// TestProductionDecisionsGroups holds production to.
//
// # Shares of what is in flight
//
// The DRR decides the order in which stations' frames enter the radio's
// queue, which the air then serves in that order: each group's share of
// the air is its share of what is in flight. AQL holds a station to its
// limit in flight (5 ms, 12 ms below the threshold) whatever its weight,
// so with a queue deeper than that (64 frames of 1,400 bytes is 25 ms) a
// heavy station is held at its limit while the light ones fill the rest:
// two BSSes of 3 and 1 stations under hostapd's airtime_mode 2, which
// weighs the lone station three times, shared the air 0.65/0.35, not
// 0.5/0.5. With Config.GroupShares, while two or more groups have queues
// listed or out, a group is served (Next) only while its pending airtime
// is at most its share, by its competing stations' weights among the
// groups within their caps, of every station's pending airtime, and a
// station sends (InShare, before each frame) only while its own pending
// airtime is at most its share by its weight: as AQL bounds each
// station's, the policy bounds each BSS's and each station's within it. It holds no group back from the
// air: some group is always at or below its share, and one AQL holds back
// keeps frames in flight that end. A group over its share is passed over
// as a capped one over its budget, so production and trace still agree
// (TestProductionDecisionsShares); production keeps each group but 0 in a
// pair of heaps of its own, compares the groups' tops and asks only the
// earliest's group for its share. Each group's competing weight is kept
// where a queue's state changes, O(1); a decision looks at eight groups'
// tops, which costs about 9 % more than one group's
// (BenchmarkScheduleGroups, make bench-groups).
//
// The burst is at least MinCapBurst, two PPDUs of the longest duration: a
// group within budget may wait that long behind others' frames in flight,
// and a bucket that fills up meanwhile loses what it would have banked, so
// a smaller one leaves a busy group under its share (TestCapProperties).
// Since the bucket is charged at completion, a capped group can overshoot
// by what AQL lets its stations have in flight when it runs out; the debt
// is carried, so over any span the group uses at most its share of the time
// plus the burst and that in-flight airtime. CapDeadline says when the first
// group over budget is back within it: with frames left unsent and nothing
// in flight, the caller sleeps until then, since no completion will come to
// wake it.
//
// # Counters
//
// Per AC (ACStats): rounds opened and closed, selections, skipped
// selections and their stale-stamp cause, airtime charged, drops by reason,
// CoDel drops and marks; per station the airtime charged (StationAirtime).
package txq
