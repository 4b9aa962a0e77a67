//go:build !linux

package inject

import "github.com/airq/airq/radio"

var _ radio.Device = (*Device)(nil)

// Device is a monitor interface opened for reading and injecting frames. On
// this OS it cannot be opened.
type Device struct{}

// Open returns ErrNotSupported: AF_PACKET exists only on Linux.
func Open(ifname string, opt Options) (*Device, error) { return nil, ErrNotSupported }

// Name returns the interface name.
func (d *Device) Name() string { return "" }

// Index returns the interface index.
func (d *Device) Index() int { return 0 }

// ReadBatch returns ErrNotSupported.
func (d *Device) ReadBatch(bufs [][]byte, sizes []int) (int, error) { return 0, ErrNotSupported }

// WriteBatch returns ErrNotSupported.
func (d *Device) WriteBatch(bufs [][]byte) (int, error) { return 0, ErrNotSupported }

// Close does nothing.
func (d *Device) Close() error { return nil }

// Stats returns zero counters.
func (d *Device) Stats() Stats { return Stats{} }

// FilterCounts reports nothing: ok is false.
func (d *Device) FilterCounts() (received, passed uint64, ok bool) { return 0, 0, false }

// SetScanning returns ErrNotSupported.
func (d *Device) SetScanning(on bool) error { return ErrNotSupported }
