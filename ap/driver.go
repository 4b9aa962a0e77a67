package ap

import "time"

// Driver carries out the core's actions: the shell implements it on real
// devices, the simulator on its medium. Flush calls it, on the goroutine
// that owns the core; a Driver method may read the core and hand it survey
// figures (ReportSurvey, while retuning), but must not call Flush.
type Driver interface {
	// WriteRadio writes frames (each a radiotap TX header and an 802.11
	// frame) to the radio in order, as radio.Device's WriteBatch does: it
	// returns how many it took, and with an error frames[n] was refused.
	// Flush then completes that frame's record as not sent and hands the
	// driver the rest. The frames are valid only during the call.
	WriteRadio(frames [][]byte) (n int, err error)
	// WriteWired is WriteRadio for the 802.3 frames of the wired side of
	// BSS bss (0 the first, i Config.BSSes[i-1]): its TAP. A refused frame
	// is skipped (the driver counts it).
	WriteWired(bss int, frames [][]byte) (n int, err error)
	// Retune moves the radio to freq MHz, after the frames written before
	// it; Flush asks once per retune. A driver that tunes before it
	// returns says so (done) with the time it got there, and Flush goes on
	// as after Retuned. Otherwise it calls Retuned on arrival, then Flush.
	Retune(freq int) (at time.Duration, done bool)
	// Event reports a station event: a connection, a disconnection, or a
	// station the access lists refused.
	Event(e Event)
}

// Flush hands the driver what the core produced since the last Flush, in
// this order: the radio frames, the wired frames, the station events, then
// a retune if the core wants one; after a retune done at once, what the
// core sends on the new channel, and so on. It allocates nothing.
//
// The call sequence: one goroutine owns the core. It calls Start(now),
// then any of the inputs (HandleRadio, HandleWired, Tick, Control,
// Retuned, ...) as things happen, and Flush after each of them or after a
// batch of them, always before sleeping; it calls Tick again at Deadline.
// Shutdown deauthenticates everyone; a last Flush sends those frames.
func (a *AP) Flush(now time.Duration, d Driver) {
	for {
		if len(a.out.radio) > 0 { // most Flushes after a completion have none
			a.writeRadio(now, d)
		}
		if a.saeQueued > 0 {
			a.flushSAE(now, d)
		}
		if len(a.out.wired) > 0 {
			writeWired(d, 0, a.out.wired)
		}
		if len(a.out.others) > 0 {
			a.writeOthers(d)
		}
		a.flushed()
		a.drainEvents(d)
		if a.retuneTo == 0 || a.out.retuneAsked {
			return
		}
		a.out.retuneAsked = true
		at, done := d.Retune(a.retuneTo)
		if !done {
			return
		}
		now = at
		a.Retuned(now)
	}
}

// writeRadio writes the radio frames; a refused one completes at once.
func (a *AP) writeRadio(now time.Duration, d Driver) {
	frames := a.out.radio
	for i := 0; i < len(frames); {
		n, err := d.WriteRadio(frames[i:])
		i += n
		switch {
		case err != nil && i < len(frames):
			a.notSent(now, i)
			i++
		case err == nil && n == 0:
			return // a device that takes nothing and says nothing: do not spin
		}
	}
}

// writeWired writes frames to the wired side of BSS bss; a refused frame
// is skipped.
func writeWired(d Driver, bss uint8, frames [][]byte) {
	for len(frames) > 0 {
		n, err := d.WriteWired(int(bss), frames)
		switch {
		case err != nil && n < len(frames):
			n++ // refused: skipped
		case err == nil && n == 0:
			return
		}
		frames = frames[n:]
	}
}

// writeOthers writes the frames for the wired sides of the BSSes beside
// the first in order, each run of one BSS's to its side.
func (a *AP) writeOthers(d Driver) {
	frames, sides := a.out.others, a.out.otherBSS
	for len(frames) > 0 {
		n := 1
		for n < len(frames) && sides[n] == sides[0] {
			n++
		}
		writeWired(d, sides[0], frames[:n])
		frames, sides = frames[n:], sides[n:]
	}
}
