package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/airq/airq/monitor"
	"github.com/airq/airq/tap"
)

// radioOptions are the flags of the real-radio start-up: regulatory domain,
// coexistence, bridge and hardware qualification.
type radioOptions struct {
	country   string
	takeover  bool
	bridge    string
	qualify   bool // run the qualification alone and exit
	noQualify bool
	// tapOffload is what the TAP's virtio-net header is used for.
	tapOffload tap.Offload
	nice       int // the datapath threads' nice value (priority_linux.go)
}

// defaultNice puts the datapath ahead of the applications it serves.
const defaultNice = -10

func (r *radioOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&r.country, "country", "", "ISO 3166 country the radio operates in (e.g. US, DE); sets the kernel's regulatory domain; needed for 5 GHz")
	fs.BoolVar(&r.takeover, "takeover", false, "bring down the interfaces that block the phy (a managed interface kept up by a network manager) and delete stale airq monitors")
	fs.StringVar(&r.bridge, "bridge", "", "Linux bridge to add the TAP interface to (like hostapd's bridge=)")
	fs.BoolVar(&r.qualify, "qualify", false, "check what the radio can do (active monitor, TX echoes, ACK status, sequence numbers, rate, retune time), print the report and exit")
	fs.BoolVar(&r.noQualify, "no-qualify", false, "skip the hardware qualification at start-up")
	fs.IntVar(&r.nice, "nice", defaultNice, "nice value of airqd's threads, -20 to 19: the datapath must not wait behind the traffic's senders and receivers on the same core (raising it needs CAP_SYS_NICE, or Nice= in the unit)")
	fs.Var(offloadFlag{&r.tapOffload}, "tap-offload", "TAP offloads: gro (merge a station's TCP segments into one write to the host), tso (gro, and take the host's 64 KiB TCP sends and cut them: fewer reads, 3-8% faster down in measurements) or off")
}

func (r *radioOptions) check() error {
	if r.country != "" {
		r.country = strings.ToUpper(r.country)
		if len(r.country) != 2 || r.country[0] < 'A' || r.country[0] > 'Z' || r.country[1] < 'A' || r.country[1] > 'Z' {
			return fmt.Errorf("-country: %q, want a two-letter code such as US or DE", r.country)
		}
	}
	if r.qualify && r.noQualify {
		return fmt.Errorf("-qualify and -no-qualify contradict each other")
	}
	if r.nice < -20 || r.nice > 19 {
		return fmt.Errorf("-nice: %d, want -20 to 19", r.nice)
	}
	if len(r.bridge) > 15 {
		return fmt.Errorf("-bridge: %q, want at most 15 characters", r.bridge)
	}
	return nil
}

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
