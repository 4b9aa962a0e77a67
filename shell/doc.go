// Package shell runs airq's core on real devices: it moves bytes and time
// between the radio, the wired side and the deterministic core (package ap).
//
// Pipeline:
//
//	radio reader  --batches-->  \
//	wired reader  --batches-->   core loop (one goroutine: ap.AP) --> radio writes, wired writes
//	timer / control requests -->/
//
// The readers only copy frames into batches they borrow from the loop and
// hand them over; the loop feeds the core, writes the core's output, returns
// the batches, and sleeps until the next event or the core's deadline.
// Only the loop touches the core, so the core needs no locks.
package shell
