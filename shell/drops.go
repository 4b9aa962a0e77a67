package shell

import (
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/radio"
)

// kernelDropper is a device whose kernel queue can drop frames before airq
// reads them: a TAP (host frames) or the monitor's receive socket.
type kernelDropper interface {
	KernelDrops() uint64
}

// filterCounter is a radio whose receive filter sheds frames in the
// kernel: it tells what the interface received and what the filter passed
// (inject.Device).
type filterCounter interface {
	FilterCounts() (received, passed uint64, ok bool)
}

// wrapper is a device around another (a capture).
type wrapper interface {
	Unwrap() radio.Device
}

// dropsEvery is how often Run reads the devices' kernel drop counters.
const dropsEvery = time.Second

// readDrops hands the devices' kernel counters to the core: the wired
// sides' summed.
func readDrops(core *ap.AP, dev radio.Device, wired []Wired) {
	var k ap.KernelCounts
	for _, w := range wired {
		if d, ok := w.(kernelDropper); ok {
			k.WiredLost += d.KernelDrops()
		}
	}
	for w, ok := dev.(wrapper); ok; w, ok = dev.(wrapper) {
		dev = w.Unwrap()
	}
	if d, ok := dev.(kernelDropper); ok {
		k.RadioLost = d.KernelDrops()
	}
	if d, ok := dev.(filterCounter); ok {
		if r, p, ok := d.FilterCounts(); ok {
			k.RadioReceived, k.RadioPassed = r, p
		}
	}
	core.DeviceDrops(k)
}
