package shell

import (
	"time"

	"github.com/airq/airq/ap"
)

// kernelDropper is a device whose kernel queue can drop frames before airq
// reads them: a TAP (host frames) or the monitor's receive socket.
type kernelDropper interface {
	KernelDrops() uint64
}

// dropsEvery is how often Run reads the devices' kernel drop counters.
const dropsEvery = time.Second

// readDrops hands the devices' kernel drop counters to the core.
func readDrops(core *ap.AP, dev, wired any) {
	var w, r uint64
	if d, ok := wired.(kernelDropper); ok {
		w = d.KernelDrops()
	}
	if d, ok := dev.(kernelDropper); ok {
		r = d.KernelDrops()
	}
	core.DeviceDrops(w, r)
}
