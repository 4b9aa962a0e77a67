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
// Production mode serves the same shares at O(1) per decision. Per AC there
// is a virtual pass counter V, and three places a listed queue can be:
//
//   - the ring: the kernel's list restricted to queues not known to be in
//     debt or blocked. Next looks only at its head. Insertion follows the
//     kernel (returned station queues with frames at the head, others at the
//     tail). The head is checked when reached: a station whose effective
//     deficit (deficit - pending) is negative is filed in the wheel
//     (below) and its queue parked with it; an empty queue whose debt is
//     paid leaves; a queue Airtime.StationAllows refuses goes to the
//     blocked list; otherwise its stamp is compared with the round number
//     exactly as in the kernel, and it is served or the round ends.
//   - the wheel: stations in debt, filed at the pass T = V + 1 + ceil(-eff/w)
//     at which one weight w of refill per pass repays them. A filed
//     station's deficit is def + w*max(0, V - (Vfiled+1)): it is credited
//     one weight per pass like every indebted queue on the kernel's list,
//     without being visited. The pass of delay is the kernel's: the visit
//     that serves a station earns no refill, and the visit whose refill
//     repays the debt still moves the queue to the tail. When the ring is empty, V jumps to the earliest T and the
//     stations due are credited (exactly the weights the kernel's passes
//     would have added: they turn non-negative with the same remainder)
//     and their queues go to the ring tail. The wheel is a two-level
//     calendar (wheel.go), O(1) per operation. Charge, SetWeight and
//     pending-airtime changes seen at Charge re-file a station.
//   - the blocked list: queues refused by the per-station AQL check. They
//     are taken off the walk until their station's next Charge (its pending
//     airtime fell), and the oldest one is re-checked at every StartRound so
//     none is stranded when others' completions lower the total.
//
// listed (what PHYAllows sees) counts all three, as the kernel counts every
// queue on its list. A station served while V is constant receives no
// refill, as a station with a non-negative deficit receives none in the
// kernel; a station in debt receives w per pass. Over a long run station i
// is served w_i per pass, so airtime shares equal the kernel's. What
// differs is only the order within a pass (indebted stations become eligible
// in order of T rather than of list position) and that queues refused by
// AQL while in debt are credited until their debt is paid rather than one
// weight per walk.
//
// # Counters
//
// Per AC (ACStats): rounds opened and closed, selections, skipped
// selections and their stale-stamp cause, airtime charged, drops by reason,
// CoDel drops and marks; per station the airtime charged (StationAirtime).
package txq
