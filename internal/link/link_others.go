//go:build !linux

package link

import "errors"

// ErrNotSupported is returned where there are no Linux interface ioctls.
var ErrNotSupported = errors.New("link: not supported on this OS")

// Index returns ErrNotSupported.
func Index(string) (int, error) { return 0, ErrNotSupported }

// Up returns ErrNotSupported.
func Up(string) error { return ErrNotSupported }

// Down returns ErrNotSupported.
func Down(string) error { return ErrNotSupported }

// SetMTU returns ErrNotSupported.
func SetMTU(string, int) error { return ErrNotSupported }

// StatsReader reads nothing where there is no rtnetlink.
type StatsReader struct{}

// OpenStats returns ErrNotSupported.
func OpenStats() (*StatsReader, error) { return nil, ErrNotSupported }

// Read returns ErrNotSupported.
func (*StatsReader) Read(int) (Counters, error) { return Counters{}, ErrNotSupported }

// Close does nothing.
func (*StatsReader) Close() error { return nil }
