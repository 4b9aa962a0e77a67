// Package sim runs airq's core (package ap) on a simulated medium, with
// simulated stations and wired hosts, in virtual time and one goroutine.
//
// The simulator is deterministic: everything random draws from one seeded
// PCG generator and events at the same instant run in the order they were
// scheduled, so the same seed and the same calls give the same event log,
// whose running hash (Hash) tests compare.
//
// Pipeline of one simulated downlink frame:
//
//	Host.send -> (wired latency) -> ap.HandleWired(its BSS) -> ap.Output radio frame
//	  -> medium queue of the AP for the frame's AC -> EDCA contention
//	  -> exchange on air (airtime from package aql) -> loss draw per attempt,
//	     retries with a doubled contention window up to the retry limit
//	  -> Station.receive, and (after the echo delay, unless the echo is lost)
//	     a radiotap TX-status echo -> ap.HandleRadio
//
// Uplink frames leave a Station through the same medium and reach the core
// with the radiotap RX header mac80211 writes (signal, rate, channel, TSFT).
// Config.Capture sees every frame crossing the core's radio seam, as
// airqd -pcap does on a real radio.
//
// Channels: every node (the AP, stations, foreign BSSs) is on a frequency,
// with one contention domain per frequency, and a frame on the air is
// heard only by the nodes on its channel. When the core asks for a retune
// (ap.AP.Retune) the AP's radio finishes the frame it has on the air,
// flushes what is still queued (no echo; Stats.RetuneFlushed), is deaf and
// mute for MediumConfig.RetuneTime, lands on the new channel and the core
// is told (ap.AP.Retuned). Station frames sent meanwhile go unacknowledged
// and count in Stats.UplinkLostAway when their retries run out. Foreign
// BSSs (AddForeignBSS) beacon on their own channel and answer probe
// requests heard there; OneTripScan plays mac80211's software scan of a
// beaconing AP (the whole list in one trip, queues stopped, beacons off)
// under a core that does not know. USChannels is a US channel plan for the
// planner.
//
// Links: a station's attempts are lost with its Loss; with
// MediumConfig.SignalLoss also by its signal's margin over each rate's
// sensitivity (signal.go), so rate selection settles on a rate per
// station. The AP's radio keeps nl80211's channel survey (survey.go) and
// reports it to the core; MediumConfig.RetuneJitter varies each retune.
//
// Scenarios: ParseScenario reads a list of stations, one line each
// (signal, loss, power save, reconnection, flows); Play runs one as airqd
// -radio sim does, with a wired host, each station's flows started at its
// first association, and a summary line per second (play.go). The built-in
// scenarios are in scenarios/.
//
// WPA2: with Config.AP.RSN the BSS is WPA2-Personal, and stations given a
// StationConfig.Passphrase (or UseAPKey) join it as wpa_supplicant does:
// the AP's RSNE from its beacon, rsn/handshake's supplicant over EAPOL,
// CCMP both ways, nothing but EAPOL until the port opens. The handshakes'
// nonces and keys draw from a source seeded apart from the medium's.
//
// Real-path mode is the only mode so far: it models what an injection AP
// gets from mac80211 (one rate per frame, no A-MPDU, echoes in the kernel's
// format). Power save on the station side is optional and off by default:
// the core does not buffer for dozing stations yet.
package sim
