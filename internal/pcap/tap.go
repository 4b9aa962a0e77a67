package pcap

import (
	"time"

	"github.com/airq/airq/radio"
)

// Tap returns dev with every frame it reads (received frames and TX-status
// echoes) and every frame the kernel takes from WriteBatch recorded in w,
// stamped by now. The result keeps dev's contract: one goroutine may read
// while another writes.
func Tap(dev radio.Device, w *Writer, now func() time.Time) radio.Device {
	return &tap{Device: dev, w: w, now: now}
}

type tap struct {
	radio.Device
	w   *Writer
	now func() time.Time
	rx  [][]byte // ReadBatch's, which one goroutine calls
}

// Unwrap returns the device the capture records, so that its own counters
// (a kernel's drops) stay within reach.
func (d *tap) Unwrap() radio.Device { return d.Device }

func (d *tap) ReadBatch(bufs [][]byte, sizes []int) (int, error) {
	n, err := d.Device.ReadBatch(bufs, sizes)
	if n > 0 {
		d.rx = d.rx[:0]
		for i := range n {
			d.rx = append(d.rx, bufs[i][:sizes[i]])
		}
		d.w.Write(d.now(), d.rx...)
	}
	return n, err
}

func (d *tap) WriteBatch(bufs [][]byte) (int, error) {
	n, err := d.Device.WriteBatch(bufs)
	d.w.Write(d.now(), bufs[:n]...) // what the kernel took
	return n, err
}
