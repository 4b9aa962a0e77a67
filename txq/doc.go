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
// Production mode serves the same shares at O(1) amortised per decision.
// Per AC there is a virtual pass counter V, and three places a listed queue
// can be:
//
//   - the ring: the part of the kernel's list not yet visited in the
//     current pass, restricted to queues not known to be in debt or
//     blocked. Next looks only at its head. Insertion follows the kernel
//     (returned station queues with frames at the head, others at the
//     tail). The head is checked when reached, as the kernel's visit: a
//     station whose effective deficit (deficit - pending) is negative gets
//     this visit's weight of credit and is filed in the wheel (below) with
//     its queue parked there; an empty queue whose debt is paid leaves; a
//     queue Airtime.StationAllows refuses goes to the blocked list;
//     otherwise its stamp is compared with the round number exactly as in
//     the kernel, and it is served or the round ends.
//   - the wheel: stations in debt, filed at the pass T = V + 1 +
//     ceil(-eff/w) whose visit finds them repaid (eff after this visit's
//     refill): they are credited one weight w per pass, as every queue in
//     debt on the kernel's list is, without being visited, and the visit
//     whose refill repays the debt still moves the queue to the tail. A
//     filed station's deficit is def + w*(V - vt). The wheel is a two-level
//     calendar (wheel.go), O(1) per operation. Charge, SetWeight and
//     pending-airtime changes seen at Charge re-file a station.
//   - the blocked list: queues with credit that the per-station AQL check
//     refuses. As in the kernel they earn nothing while blocked. They go
//     back to the ring at their station's next Charge (its pending airtime
//     fell), and the oldest one is re-checked at every StartRound so none is
//     stranded when others' completions lower the total.
//
// When the ring runs dry, the kernel's walk goes on passing over the queues
// left on its list, refilling each queue in debt once per pass, but only
// while the previous pass found an AQL-eligible queue (found_eligible
// tracks AQL, not deficits):
//
//   - if a station in debt is AQL-eligible, the kernel passes until one has
//     credit. V jumps to the earliest T and the stations due then go to
//     the ring tail, credited exactly the weights the kernel's passes would
//     have added; any of them AQL now refuses goes on to the blocked list
//     and the jump repeats.
//   - if none is, the kernel makes exactly one more pass and returns
//     nothing. V steps by one: every station in debt is credited one weight
//     (stations due at that pass are released), and Next returns nothing.
//
// So a station AQL holds back while in debt accrues credit at the same
// per-pass rate as every other station in debt, and passes happen only as
// often as the kernel's walks make them. Whether a station in debt is
// AQL-eligible is recorded when it is filed and asked again at its
// completions; since the per-station check also depends on the total
// pending airtime (the threshold), which others' dequeues and completions
// move, the oldest few recorded answers (recheckCount) are asked again
// whenever the ring runs dry, so the choice between jumping and stepping
// follows the kernel's without visiting every station.
//
// listed (what PHYAllows sees) counts all three, as the kernel counts every
// queue on its list. Over a long run station i is served w_i per pass, so
// airtime shares follow the kernel's, but not exactly. The kernel's list is
// a cycle with a cursor (its head): a visit moves the cursor past a queue
// without changing the cyclic order, and insertions happen at the cursor.
// Two things production does not reproduce follow from that:
//
//   - passes are relative to the cursor. The walk that gives up goes once
//     round from wherever the cursor stands, so every queue in debt gets
//     exactly one refill, including those already visited (refilled and
//     filed) in the same Next calls; production's step completes the pass
//     from its fixed origin instead, and those queues get none. Likewise a
//     jump that stops at a station leaves the cursor inside the cycle:
//     queues before it have had that pass's refill, queues after it not yet.
//   - AQL-blocked queues go round with the cursor: every pass moves them to
//     the tail again, so their order relative to each other and to stations
//     in debt changes with where the walks stop. Production parks them in
//     the order they were refused and re-inserts them when re-checked.
//
// (A replay of one workload, TXQ_DIVERGE in diverge_test.go, shows both: the
// deficits after the first round differ by one weight for every station
// served in it, and the first different service order is two stations
// unblocked in the opposite order.) Reproducing them needs the cursor's
// position in the cycle: labels for positions between arbitrary neighbours
// (an order-maintenance structure) and, per pass, stations released in label
// order from a cursor inside the pass. Simpler substitutes (cycle stamps
// ordering a pass's releases or the ring's re-insertions, cursor-relative
// refill of the stations just filed) were measured and do not bring the
// worst workloads closer. With completion-driven rounds and closed rounds
// (the per-PHY limit) the small differences lock into different periodic
// patterns of which station is served in which round, and that moves
// shares: over the randomized comparison in prop_test.go (124 workloads:
// 2-8 stations, weights 32-512, frames of 1-5 ms, AQL low 500/2000/5000 µs
// binding and 50000 not) 111 workloads match within 2 share points, the
// mean difference is 0.67 points, and the worst differs by 9.8 points.
//
// # Counters
//
// Per AC (ACStats): rounds opened and closed, selections, skipped
// selections and their stale-stamp cause, airtime charged, drops by reason,
// CoDel drops and marks; per station the airtime charged (StationAirtime).
package txq
