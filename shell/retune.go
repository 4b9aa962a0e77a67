package shell

import (
	"log/slog"

	"github.com/airq/airq/ap"
)

// Retuner moves the radio to freq MHz for a scan trip; home says freq is
// the operating channel. It returns when the radio is there.
type Retuner func(freq int, home bool) error

// WithRetuner lets Run carry out the retunes the core asks for (scan
// trips). Without one, a retune request is acknowledged at once, which only
// suits tests.
func WithRetuner(t Retuner) Option {
	return func(o *runOptions) { o.tuner = t }
}

// retune carries out one retune request. A failure is logged and counted;
// the core is told it is done all the same, so a trip always ends.
func (o *runOptions) retune(core *ap.AP, freq int, log *slog.Logger, st *Stats) {
	if o.tuner == nil {
		return
	}
	if err := o.tuner(freq, freq == core.HomeFreq()); err != nil {
		st.RetuneErrors++
		log.Warn("retune failed", "freq", freq, "err", err)
	}
}
