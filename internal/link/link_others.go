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
