//go:build !linux

package nice

import (
	"errors"
	"log/slog"
)

// ErrNotSupported is returned where threads have no nice value of their own.
var ErrNotSupported = errors.New("nice: not supported on this OS")

// Set returns ErrNotSupported.
func Set(int) error { return ErrNotSupported }

// Apply logs that the priority was not set and returns 0, the value the
// threads run at.
func Apply(n int, log *slog.Logger) int {
	log.Warn("datapath priority not set", "nice", n, "err", ErrNotSupported)
	return 0
}
