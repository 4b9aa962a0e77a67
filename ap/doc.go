// Package ap is airq's deterministic core: an 802.11 access point as a state
// machine with time passed in. It makes no system calls and starts no
// goroutines; the runtime (real sockets and clock) and the simulator (virtual
// medium and clock) drive the same code.
//
// Events in:
//
//	HandleRadio(now, frame)  a radiotap+802.11 frame from the monitor interface:
//	                         a TX-status echo of a frame we sent, or a frame
//	                         from the air (MLME, PS-Poll, data)
//	HandleWired(now, frame)  an 802.3 frame from the TAP
//	Tick(now)                timers: beacons, the TX loop, in-flight timeouts
//
// Actions out: Output returns the frames to transmit (radiotap TX header
// included) and the 802.3 frames for the wired side, in order; the caller
// writes or copies them and calls Flushed. Deadline says when Tick is next due.
//
// Downlink pipeline: wired frame -> station lookup -> TID from DSCP ->
// per-station queue -> TX loop (per AC, capped in flight) -> 802.11 header with
// a per-TID sequence number, station rate -> in-flight record registered ->
// Output. The echo of each frame completes its record; older unmatched records
// of the same AC complete as "no status"; a timeout is only a backstop.
//
// Admission (mlme.go, admit.go): as hostapd with mac80211, a station is
// authenticated once its authentication response's echo shows an ACK, and
// associated once its association response's does; the AID is reserved
// in between. Replies to others' frames share a budget of airtime in
// classes (replies.go), and a full station table evicts unconfirmed
// entries, then associated stations that never sent data, before it
// refuses anyone.
package ap
