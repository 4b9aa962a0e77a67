// Package ap is airq's deterministic core: an 802.11 access point as a state
// machine with time passed in. It makes no system calls and starts no
// goroutines; the shell (real devices and clock) and the simulator (virtual
// medium and clock) drive the same code, from one goroutine each.
//
// An AP is one radio: the scheduler over all its stations, the frames in
// flight, rates, the TSF, retunes, scan trips and ACS. The networks it
// serves are bss.BSS values in its list (up to MaxBSSes: the first made
// from Config, the others from Config.BSSes, each open or secured with an
// RSN of its own), each with its BSSID, what it announces, its AIDs,
// its records of its stations (bss.Station, embedded in the radio's entry
// of each) and its budgets; received frames go to the BSS their BSSID
// names, and its handlers run on that BSS, which reaches the radio through
// bss.Radio (bss_radio.go). Each beacons at its own TBTT with its own TSF,
// spread across the interval (multibss.go).
//
// Inputs, each with the time:
//
//	Start(now)                    begin: beacon, or run the start-up channel scan (ACS) first
//	HandleRadio(now, frame)       a radiotap+802.11 frame from the monitor interface:
//	                              a TX-status echo of a frame we sent, or a frame
//	                              from the air (MLME, PS-Poll, data)
//	HandleWired(now, bss, frame)  an 802.3 frame from the TAP of BSS bss (0 the first)
//	Tick(now)                     timers: beacons, the TX loop, in-flight timeouts,
//	                              power save, inactivity, scan trips; due at Deadline
//	Retuned(now)                  the radio is on the channel the driver was asked for
//	Control(now, req)             an operator request (package ctl); station del sends
//	                              a deauthentication
//	ReportSurvey(freq, report)    the radio's survey figures of a channel (ACS, survey dump)
//	SetACL(acl)                   new access lists; returns the stations they refuse
//	SetDefaultAirtimeWeight(w)    the airtime weight of stations associating from now
//	SetAirtime(now, airtime)      a new airtime policy among the BSSes, live
//	DeviceDrops(KernelCounts)     the kernel's counters of the TAP, the socket and its filter
//	Shutdown(now)                 deauthenticate every station before the radio goes
//
// Actions out: after any of them the owner calls Flush with its Driver,
// which gets the frames to transmit (radiotap TX header included), the
// 802.3 frames for each BSS's wired side, the station events and a retune, in
// that order (driver.go). Deadline says when Tick is next due. Mark and
// Drop are the scheduler's callbacks (txq.Owner); everything else exported
// reads state: counters, station and scan tables, the configuration in
// force.
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
//
// WPA2-Personal (rsn.go, rsnsta.go, crypt.go, eapol.go), with Config.RSN:
// the association request's RSNE is validated with hostapd's status codes,
// the authenticator of rsn/handshake runs per station from the response's
// ACK, EAPOL travels as data, only EAPOL passes the controlled port until
// the 4-way handshake completes (then the station is announced), and CCMP
// protects the data: downlink frames at the TX loop, with a new PN at each
// build, uplink frames verified before anything of the station changes.
// Each BSS has its own (BSSConfig.RSN): authenticator, GTK and IGTK,
// rekey timers, PSKs, SAE and PMKSA cache (ARCHITECTURE.md).
//
// Airtime by policy (airtime_policy.go), with Config.Airtime: each BSS is
// a group of the scheduler (its index), hostapd's airtime_mode sets the
// stations' weights through txq/policy (at association; in modes 2 and 3
// also on a timer folded into Deadline), and a BSS's airtime_bss_cap is
// the group's hard cap. A TX pass that leaves frames queued with nothing
// in flight puts the cap's return within budget into Deadline: no
// completion would run the TX loop again. With several BSSes the scheduler
// holds each, and each station in it, to its share of what is in flight
// (txq's GroupShares: each station's pending airtime counts in its BSS's,
// aql.Tracker.SetGroup, and the TX loop asks InShare before each frame),
// so that the radio's queue, however deep, carries each BSS and station
// its share.
package ap
