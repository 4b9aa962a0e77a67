package main

import (
	"fmt"
	"io"

	"github.com/airq/airq/monitor"
	"github.com/airq/airq/tap"
)

// printReport writes one line per check, then the verdict.
func printReport(w io.Writer, phy string, r monitor.Report) {
	fmt.Fprintf(w, "airqd: hardware qualification of %s\n", phy)
	for _, c := range r.Checks {
		fmt.Fprintf(w, "  %v\n", c)
	}
	if err := r.Err(); err != nil {
		fmt.Fprintf(w, "airqd: %s cannot run airq: %v\n", phy, err)
		return
	}
	fmt.Fprintf(w, "airqd: %s qualifies\n", phy)
}

// offloadFlag is -tap-offload: gro, tso or off.
type offloadFlag struct{ v *tap.Offload }

func (f offloadFlag) String() string {
	if f.v == nil {
		return tap.OffloadGRO.String()
	}
	return f.v.String()
}

func (f offloadFlag) Set(s string) (err error) {
	*f.v, err = tap.ParseOffload(s)
	return err
}

// tapOffload is the TAP's offload: what -tap-offload or tap_offload= chose,
// else tso when the datapath runs at a raised priority (nice below 0) and
// gro otherwise. TSO saves a read per segment down (s9 of make e2e:
// 190.1 against 210.5 µs of guest CPU per segment, 61.9 against 55.5
// Mbit/s, at nice -10); at nice 0 the host's TCP, deferring its GSO sends,
// once halved downlink TCP (tap/doc.go), so there merged writes stay.
func (o *options) tapOffload(runningNice int) tap.Offload {
	if o.given("tap-offload", "tap_offload") || runningNice >= 0 {
		return o.TapOffload
	}
	return tap.OffloadTSO
}
