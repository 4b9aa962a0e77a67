package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/airq/airq/config"
	"github.com/airq/airq/monitor"
)

// The checks of the settings run in one pass (parseFlags), at start, on
// SIGHUP and for -check-config alike, and every problem is reported at
// once: the file's own (config.Load), then what only the settings together
// show, named by the file's line when the value came from the file
// (config.File.Explain).

func (o *options) problems(err error) config.Problems { return o.conf.Explain(err, o.flagSet) }

// source names a setting in a message: its key if the file gave it, else
// its flag.
func (o *options) source(flag, key string) string { return o.conf.Source(o.flagSet, flag, key) }

// checkCore checks the core's configuration as far as it is known before
// the radio is open (the BSSID may be the phy's, the channel ACS's).
func (o *options) checkCore() error {
	c := o.Core
	c.Channel = o.Channel
	if c.Channel == 0 { // the channel is chosen at start, by the first BSS alone
		if len(c.BSSes) > 0 {
			return fmt.Errorf("channel: 0 (chosen at start) takes one BSS: the start-up channel selection runs before any bss= section's BSS; give a channel")
		}
		return nil
	}
	if c.BSSID.IsZero() {
		c.BSSID = simBSSID // a stand-in for the phy's address
	}
	monitor.DeriveBSSIDs(&c)
	_, err := c.Resolve()
	return err
}

// checkConfig prints the BSSIDs of a file of several BSSes, every problem
// of -check-config's file and the flags with it, and a summary; its exit
// status is 0 when airqd would start.
func checkConfig(o options, err error, w io.Writer) int {
	ps := append(config.AsProblems(err), o.warnings...)
	if o.conf != nil {
		ps = append(ps, o.reportBSSIDs(w, o.checkPath)...)
	}
	if config.Report(w, o.checkPath, ps) {
		return 0
	}
	return 2
}

// startRefused prints why airqd does not start: the problems -check-config
// prints for the same file and flags (warnings included, the file's in
// line order, then the command line's), each after "airqd: ", a count of
// several, and the pointer to -h only when a problem is on the command
// line.
func startRefused(w io.Writer, o options, err error) {
	ps := append(config.AsProblems(err), o.warnings...)
	var b strings.Builder
	config.Report(&b, o.configPath, ps)
	lines := strings.SplitAfter(strings.TrimSuffix(b.String(), "\n"), "\n")
	for _, line := range lines[:len(lines)-1] { // Report's own summary speaks of a check
		fmt.Fprintf(w, "airqd: %s", line)
	}
	if nw := len(ps.Warnings()); len(ps) > 1 { // a lone problem needs no count
		fmt.Fprintf(w, "airqd: not started: %s, %s\n", plural(len(ps)-nw, "error"), plural(nw, "warning"))
	}
	for _, p := range ps {
		if !p.Warning && p.Path == "" {
			fmt.Fprintln(w, "(run airqd -h for the flags)")
			return
		}
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
