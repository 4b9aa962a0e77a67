package main

import (
	"fmt"
	"os"
	"time"

	"github.com/airq/airq/internal/pcap"
	"github.com/airq/airq/radio"
)

// openPcap creates (or truncates) path, mode 0640, for a capture of at
// most limit bytes.
func openPcap(path string, limit int64) (*pcap.Writer, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return nil, fmt.Errorf("-pcap: %w", err)
	}
	w, err := pcap.NewWriter(f, limit)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("-pcap: %w", err)
	}
	return w, nil
}

// capture wraps the real radio when -pcap is on.
func (o *options) capture(dev radio.Device) radio.Device {
	if o.pcapOut == nil {
		return dev
	}
	return pcap.Tap(dev, o.pcapOut, time.Now)
}

// simCapture is the simulated radio's capture when -pcap is on (nil
// otherwise): the same frames a capture of the real radio holds, stamped
// with the virtual time from epoch, which the simulator follows on the
// wall clock.
func (o *options) simCapture(epoch time.Time) func(time.Duration, []byte) {
	w := o.pcapOut
	if w == nil {
		return nil
	}
	return func(at time.Duration, frame []byte) { w.Write(epoch.Add(at), frame) }
}
