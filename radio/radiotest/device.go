// Package radiotest provides an in-memory radio.Device for tests of code
// that drives a radio: frames written to it are collected, frames queued
// with Inject are returned by ReadBatch.
package radiotest

import (
	"sync"

	"github.com/airq/airq/radio"
)

// Device is an in-memory radio.Device. It also serves as the wired side
// (the same batched contract with 802.3 frames).
type Device struct {
	mu      sync.Mutex
	cond    *sync.Cond
	pending [][]byte
	written [][]byte
	closed  bool
	// Writes is signalled (non-blocking) after every WriteBatch.
	Writes chan struct{}
	// Drops is what KernelDrops reports: frames a kernel queue lost.
	Drops uint64
	// Received and Passed are what FilterCounts reports: frames the
	// interface received and frames its receive filter let through.
	Received, Passed uint64
}

// FilterCounts reports Received and Passed, as inject.Device reports the
// interface's and its receive filter's counts.
func (d *Device) FilterCounts() (received, passed uint64, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.Received, d.Passed, d.Received > 0
}

// KernelDrops reports Drops, as a real device reports its kernel queue's.
func (d *Device) KernelDrops() uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.Drops
}

var _ radio.Device = (*Device)(nil)

// New returns an open Device.
func New() *Device {
	d := &Device{Writes: make(chan struct{}, 1)}
	d.cond = sync.NewCond(&d.mu)
	return d
}

// Inject queues a frame for ReadBatch; the Device keeps a copy.
func (d *Device) Inject(frame []byte) {
	d.mu.Lock()
	d.pending = append(d.pending, append([]byte(nil), frame...))
	d.mu.Unlock()
	d.cond.Broadcast()
}

// ReadBatch blocks until a frame is queued or the Device is closed.
func (d *Device) ReadBatch(bufs [][]byte, sizes []int) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for len(d.pending) == 0 && !d.closed {
		d.cond.Wait()
	}
	if d.closed {
		return 0, radio.ErrClosed
	}
	n := 0
	for n < len(bufs) && len(d.pending) > 0 {
		sizes[n] = copy(bufs[n][:cap(bufs[n])], d.pending[0])
		d.pending = d.pending[1:]
		n++
	}
	return n, nil
}

// WriteBatch records copies of the frames.
func (d *Device) WriteBatch(bufs [][]byte) (int, error) {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return 0, radio.ErrClosed
	}
	for _, b := range bufs {
		d.written = append(d.written, append([]byte(nil), b...))
	}
	d.mu.Unlock()
	select {
	case d.Writes <- struct{}{}:
	default:
	}
	return len(bufs), nil
}

// Pending returns the number of injected frames not read yet.
func (d *Device) Pending() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.pending)
}

// Written returns and forgets the frames written so far.
func (d *Device) Written() [][]byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	w := d.written
	d.written = nil
	return w
}

// Close unblocks ReadBatch; it may be called more than once.
func (d *Device) Close() error {
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	d.cond.Broadcast()
	return nil
}
