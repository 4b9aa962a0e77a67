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
