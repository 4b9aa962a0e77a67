package shell

import (
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/radio"
)

// driver carries out the core's actions on the devices (ap.Driver), on
// Run's loop.
type driver struct {
	core  *ap.AP
	dev   radio.Device
	wired []Wired // each BSS's wired side, by its index
	log   *slog.Logger
	o     *runOptions
	st    *Stats
	now   func() time.Duration
	// stopping: on the way out the wired side is closed and a scan trip
	// is abandoned (the monitor interface goes next).
	stopping bool
	sae      *saeWorker // runs SAE jobs (sae.go); started by the first
	// saeSigns is the core's count of SAE flood signs at the last look
	// (watchSAEFlood).
	saeSigns uint64
	// frames counts the data frames moved through the wired side, read
	// and written: how busy the datapath is, for the SAE worker's budget.
	frames atomic.Uint64
}

var _ ap.Driver = (*driver)(nil)

func (d *driver) WriteRadio(frames [][]byte) (int, error) {
	n, err := d.dev.WriteBatch(frames)
	if err != nil && n < len(frames) {
		d.st.RadioWriteErrors++
	}
	return n, err
}

func (d *driver) WriteWired(bss int, frames [][]byte) (int, error) {
	if d.stopping {
		return len(frames), nil // dropped: the TAP is closed
	}
	n, err := d.wired[bss].WriteBatch(frames)
	if err != nil && n < len(frames) {
		d.st.WiredWriteErrors++
	}
	d.frames.Add(uint64(n))
	return n, err
}

// Retune tunes before it returns: the core goes on at once.
func (d *driver) Retune(freq int) (time.Duration, bool) {
	if d.stopping {
		return 0, false
	}
	d.o.retune(d.core, freq, d.log, d.st)
	at := d.now()
	d.o.survey.retuned(d.core, freq, d.log) // a channel left has its final figures now
	return at, true
}

func (d *driver) Event(e ap.Event) { ReportEvent(d.log, d.o.control, e) }

// ReportEvent logs a station event in the daemon's one format (the kind as
// the message, then addr, aid, reason and why; a refusal gives addr and
// during; then the BSS's name when the core gives one; a BSSID nobody
// ACKs is a warning) and hands it to srv's events subscribers; srv may be
// nil. Both
// the real radio's loop (Run) and the simulator's report this way.
func ReportEvent(log *slog.Logger, srv *ControlServer, e ap.Event) {
	var bss []any // the BSS, when the core names it
	if e.BSS != "" {
		bss = []any{"bss", e.BSS}
	}
	switch e.Kind {
	case ap.EventRefused:
		log.Info(e.Kind.String(), append([]any{"addr", e.Addr.String(), "during", e.Why}, bss...)...)
	case ap.EventWidth:
		// hostapd's words for the same switches.
		msg := "Switching to 40 MHz operation"
		if e.Secondary == 0 {
			msg = "Switching to 20 MHz operation"
		}
		args := []any{"channel", e.Primary, "secondary", e.Secondary, "why", e.Why}
		if !e.Addr.IsZero() {
			args = append(args, "addr", e.Addr.String())
		}
		log.Info(msg, args...)
	case ap.EventNo40MHz:
		log.Warn(fmt.Sprintf("20/40 MHz operation not permitted on channel pri=%d sec=%d based on overlapping BSSes", e.Primary, e.Secondary),
			"bssid", e.Addr.String(), "freq", e.Freq, "why", e.Why, "width", 20)
	case ap.EventUnacked:
		log.Warn(e.Kind.String(), append(bss, "bssid", e.Addr.String(), "unacknowledged", e.Count,
			"hint", "no interface holds the address, or the driver does not ACK it: see airqctl dev")...)
	default:
		log.Info(e.Kind.String(), append([]any{"addr", e.Addr.String(), "aid", e.AID, "reason", e.Reason, "why", e.Why}, bss...)...)
	}
	if srv != nil {
		srv.Publish(e)
	}
}
