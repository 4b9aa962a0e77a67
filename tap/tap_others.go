//go:build !linux

package tap

// Device is an open TAP interface. On this OS it cannot be opened.
type Device struct{}

// Open returns ErrNotSupported: TAP devices are only supported on Linux.
func Open(name string, o Options) (*Device, error) { return nil, ErrNotSupported }

// Name returns the interface name.
func (d *Device) Name() string { return "" }

// Index returns the interface index.
func (d *Device) Index() int { return 0 }

// ReadBatch returns ErrNotSupported.
func (d *Device) ReadBatch(bufs [][]byte, sizes []int) (int, error) { return 0, ErrNotSupported }

// WriteBatch returns ErrNotSupported.
func (d *Device) WriteBatch(bufs [][]byte) (int, error) { return 0, ErrNotSupported }

// Offloads returns "".
func (d *Device) Offloads() string { return "" }

// Close does nothing.
func (d *Device) Close() error { return nil }

// Stats returns zero counters.
func (d *Device) Stats() Stats { return Stats{} }

// MTU returns ErrNotSupported.
func (d *Device) MTU() (int, error) { return 0, ErrNotSupported }

// JoinBridge returns ErrNotSupported.
func (d *Device) JoinBridge(bridge string) error { return ErrNotSupported }

// LeaveBridge returns ErrNotSupported.
func (d *Device) LeaveBridge() error { return ErrNotSupported }

// SetMTU returns ErrNotSupported.
func (d *Device) SetMTU(mtu int) error { return ErrNotSupported }

// SetCarrier returns ErrNotSupported.
func (d *Device) SetCarrier(up bool) error { return ErrNotSupported }

// Master returns ErrNotSupported.
func (d *Device) Master() (int, error) { return 0, ErrNotSupported }
