// Package scan plans airq's off-channel trips and keeps what they find: the
// trip planner, the BSS table with a per-channel survey, start-up channel
// selection (ACS) and text in the layouts of `iw dev X scan dump` and
// `iw dev X survey dump`.
//
// The package decides; the core executes. The Planner is asked after each of
// our beacons whether to leave, and answers with a Trip: when to retune away,
// which channels to visit, how long to listen on each, whether to probe, and
// when the radio is back home. A trip fits between two of our beacons: it is
// no longer than min(Budget, BeaconInterval − 2×Retune − Guard), and it ends
// Guard before the next TBTT, so no beacon is missed unless the operator
// allows one missed beacon per passive visit (Config.MissBeacon, counted).
//
// Timing choices, against mac80211's software scan (net/mac80211/scan.c):
// mac80211 waits IEEE80211_PROBE_DELAY (30 ms) after tuning before it
// probes, then listens IEEE80211_CHANNEL_TIME (30 ms): 60 ms per active
// channel, two per 125 ms trip. airq probes 5 ms after tuning (the
// firmware-scan value of ath10k/11k/12k: long enough to hear a frame in
// progress before transmitting) and listens at least 20 ms afterwards,
// enough for a probe response from a userspace or firmware AP (a few ms) and
// its retry. When a trip has time left over, each active dwell is stretched
// evenly up to mac80211's 60 ms so the extra time goes to hearing beacons of
// BSSs that do not answer probes. Passive channels (no-IR, radar) get a trip
// of their own and listen as long as the trip allows, up to mac80211's
// IEEE80211_PASSIVE_CHANNEL_TIME (about 110 ms). Between trips the radio
// stays home at least MinHome (200 ms, mac80211's HZ/5 SUSPEND stay).
//
// Phase rotation: a passive visit listens only between our beacons, so a
// foreign BSS beaconing in our blind window (Guard, two retunes and our
// beacon around each TBTT) is not heard. When the trip limit leaves slack
// before the next TBTT, the n-th visit of a channel starts later by
// slack×frac(n×0.618) (a golden-ratio sequence, so successive visits spread
// evenly over the slack). With MissBeacon on, every odd visit of a passive
// channel is centred on our TBTT instead: it covers the blind window at the
// cost of one beacon, counted in Stats.MissedBeacons. Each channel records
// the phases (relative to our TBTT, in 32 bins) it has listened to.
//
// # Integration with the core
//
// Start-up (channel=0): before beaconing, walk Planner.Startup's visits:
// retune to each, send probe requests (wildcard and configured SSIDs) at
// ProbeAt where Probe is set, pass every Beacon and Probe Response to
// Table.Update, and at each visit's End call Table.Dwelt and Table.Report
// with the radio's survey figures for the visit. Then Select(channels,
// Table.Surveys, Table.All, ACSConfig), log AppendDecision, make the chosen
// frequency Config.Home of the planner made for running (New) and call
// Table.SetInUse.
//
// Running: call Planner.Next(now, nextTBTT, busy) each time one of our
// beacons has gone out, busy being the core's load signal. On a trip:
//   - from Next's return: start no new rounds; in-flight frames have until
//     Leave (Config.Drain) to echo; records still open at Leave take the
//     no-status path, since the retune flushes them;
//   - at Leave: txq.Freeze(now) (CoDel and the in-flight timeout clocks
//     stop), retune to the first visit;
//   - at each visit's Start: listen; at ProbeAt send the probe requests;
//     every Beacon and Probe Response goes to Table.Update (with RxInfo.Freq
//     set to the visit's frequency when radiotap lacks it); at End call
//     Table.Dwelt (and Table.Report if the driver gives figures) and retune
//     onwards, or home after the last visit;
//   - at Return (home and tuned): txq.Thaw(now) and resume rounds at once;
//     if the trip MissesBeacon, skip the beacon at Trip.TBTT and count it.
//
// Measure each retune and pass the worst recent figure to
// Planner.SetRetune. Call Table.Expire now and then (each sweep, say).
// Frames heard on the home channel go to Table.Update too.
//
// Nothing here allocates per call on the hot path (Planner.Next,
// Table.Update for a known BSS). Nothing is safe for concurrent use: the core
// owns a Planner and a Table and calls them from its single event loop. The
// package is pure: no goroutines, no clock, no I/O; time is an argument.
package scan
