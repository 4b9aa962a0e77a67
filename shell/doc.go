// Package shell runs airq's core on real devices: it moves bytes and time
// between the radio, the wired side and the deterministic core (package ap).
//
// Pipeline:
//
//	radio reader  --batches-->  \
//	wired readers --batches-->   core loop (one goroutine: ap.AP) --Flush--> radio writes, wired writes,
//	timer / control requests -->/                                            retunes, station events
//
// The caller opens the radio (package inject's monitor sockets) and the
// control socket (ListenControl) and hands them to Run with the wired
// side (RunBSSes: each BSS's); RunWired opens the wired sides itself, one
// TAP per BSS (package tap) joined to its bridge, from the configuration's
// list (WiredSide), and removes them when the core stops. Each wired side
// has its reader; their batches, marked with their side, come to the loop
// on one channel, and the core hands each BSS's frames to its own side
// (ap.Driver's WriteWired names the BSS).
// The readers only copy frames into batches they borrow from the loop and
// hand them over; the loop feeds the core, runs ap.AP.Flush with its
// driver (which writes the core's output, retunes through the Retuner, and
// logs and streams station events with ReportEvent), returns the batches,
// and sleeps until the next batch, request or the core's deadline (one
// time.Timer). Only the loop touches the core, so the core needs no locks.
// A batch reaches the core in pieces of about 4 ms of the loop's time each
// (turns.go), with the core's deadline, control calls and the SAE
// worker's results taken between two pieces, so that frames that cost
// much (on a slow CPU) never hold beacons or requests behind a whole
// batch.
//
// ListenHostapd and ListenHostapdGlobal serve hostapd's control interface
// (package ctl/hostapd) on UNIX datagram sockets beside it, through the same
// control path: they never hold the loop.
//
// Qualify checks, before the core starts, what the design relies on in
// the radio's driver (TX-status echoes, rates, retune time).
package shell
