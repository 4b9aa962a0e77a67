//go:build !linux

package monitor

import "context"

// Open returns ErrNotSupported.
func Open(context.Context, Options) (*Radio, error) { return nil, ErrNotSupported }

// Qualify returns ErrNotSupported.
func Qualify(context.Context, Options) (Report, error) { return Report{}, ErrNotSupported }
