package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/airq/airq/internal/pcap"
	"github.com/airq/airq/radio"
)

// openPcap creates (or truncates) -pcap's file, mode 0640, for a capture
// of at most -pcap-max-mb, or the first file of -pcap-rotate's ring. A
// capture that fills up says so once, when it happens.
func openPcap(o *options, log *slog.Logger) (*pcap.Writer, error) {
	create := func(n int) (io.WriteCloser, error) {
		return os.OpenFile(pcap.RingName(o.Pcap, n), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	}
	if o.pcapRotate > 0 {
		w, err := pcap.NewRotating(create, o.pcapMax, o.pcapRotate)
		if err != nil {
			return nil, fmt.Errorf("-pcap: %w", err)
		}
		return w, nil
	}
	f, err := create(0)
	if err != nil {
		return nil, fmt.Errorf("-pcap: %w", err)
	}
	w, err := pcap.NewWriter(f, o.pcapMax)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("-pcap: %w", err)
	}
	w.OnFull(func() {
		log.Warn("pcap full: later frames are not captured; raise -pcap-max-mb, or keep the last files with -pcap-rotate N",
			"file", o.Pcap, "max_mb", o.pcapMB)
	})
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
