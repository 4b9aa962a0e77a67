//go:build !linux

package shell

import (
	"context"
	"log/slog"

	"github.com/airq/airq/radio"
)

// poller is the polled loop's state; only Linux has one.
type poller struct{}

// newPoller returns nil: Run reads with a goroutine per device.
func newPoller(radio.Device, Wired, *slog.Logger) *poller { return nil }

func (d *driver) runPolled(context.Context, *poller, func()) error {
	panic("shell: no polled loop on this OS")
}
