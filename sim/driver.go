package sim

import (
	"time"

	"github.com/airq/airq/ap"
)

// driver is the core's ap.Driver in the simulator: radio frames go onto the
// medium, wired frames towards the hosts on their BSS's wired side, a retune to the AP's simulated
// radio, station events into a queue the user drains.
type driver struct {
	s   *Sim
	sae saeRunner // runs the core's SAE jobs in virtual time (sae.go)
}

var _ ap.Driver = (*driver)(nil)

func (d *driver) WriteRadio(frames [][]byte) (int, error) {
	for _, f := range frames {
		d.s.captured(f)
		d.s.fromCore(f)
	}
	return len(frames), nil
}

func (d *driver) WriteWired(bss int, frames [][]byte) (int, error) {
	s := d.s
	for _, f := range frames {
		s.stats.WiredFromCore++
		s.schedule(s.now+s.cfg.WiredLatency, evWiredOut, bss, s.copyPacket(f), nil)
	}
	return len(frames), nil
}

// Retune starts the AP's radio towards freq once it is free; it lands
// RetuneTime later and tells the core then (radio.go).
func (d *driver) Retune(freq int) (time.Duration, bool) {
	d.s.radio.asked = uint16(freq)
	d.s.startAsked()
	return 0, false
}

func (d *driver) Event(e ap.Event) {
	s := d.s
	if len(s.events) == maxEvents {
		copy(s.events, s.events[1:])
		s.events = s.events[:maxEvents-1]
		s.stats.EventsLost++
	}
	s.events = append(s.events, e)
}

// maxEvents bounds the station events waiting for DrainEvents.
const maxEvents = 256

// DrainEvents hands the core's station events since the last call to fn,
// oldest first, and forgets them. Only the last 256 are kept
// (Stats.EventsLost counts the others).
func (s *Sim) DrainEvents(fn func(ap.Event)) {
	for _, e := range s.events {
		fn(e)
	}
	s.events = s.events[:0]
}

// drainCore hands the core's output to the driver: radio frames onto the
// medium, wired frames towards the hosts; then it checks the core's books
// and re-arms the core's timer.
func (s *Sim) drainCore() {
	s.core.Flush(s.now, &s.drv)
	if !s.core.Accounted() {
		s.stats.Unaccounted++
	}
	s.startAsked()
	s.armTick()
}
