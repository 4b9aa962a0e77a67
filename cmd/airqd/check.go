package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/airq/airq/config"
	"github.com/airq/airq/internal/ieee80211"
)

// The checks of the settings the flags and the file give run in one pass
// (parseFlags), at start, on SIGHUP and for -check-config alike, and every
// problem is reported at once: the file's own (config.Load), then what
// only the settings together show, each named by the file's line when the
// value came from the file.

// problems turns a check's error (errors.Join of several, or one) into
// problems, each at the line of the key its message names when the file
// sets that key and no flag overrides it.
func (o *options) problems(err error) config.Problems {
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	var ps config.Problems
	for _, e := range errs {
		var cp config.Problems
		if errors.As(e, &cp) {
			ps = append(ps, cp...)
			continue
		}
		ps = append(ps, o.problem(e.Error()))
	}
	return ps
}

// problem places msg, "key: what", at the key's line in the file.
func (o *options) problem(msg string) config.Problem {
	key, rest, ok := strings.Cut(msg, ": ")
	if !ok || o.conf == nil || o.conf.Line(key) == 0 {
		return config.Problem{Msg: msg}
	}
	if k, known := config.Lookup(key); known && k.OverriddenBy(o.flagSet) != "" {
		return config.Problem{Msg: msg}
	}
	return config.Problem{Path: o.conf.Path(), Line: o.conf.Line(key), Key: key, Msg: rest}
}

// source names where a setting comes from in a message: the file's key
// when the file sets it and the flag was not given, else the flag.
func (o *options) source(flag, key string) string {
	if !o.flagSet[flag] && o.conf != nil && o.conf.Line(key) > 0 {
		return key
	}
	return "-" + flag
}

// checkCore checks the core's configuration as far as it is known before
// the radio is open (the BSSID may be the phy's, the channel ACS's).
func (o *options) checkCore() error {
	c := o.Core
	c.Channel = o.Channel
	if c.Channel == 0 {
		return nil // the channel is chosen at start
	}
	if c.BSSID.IsZero() {
		c.BSSID = ieee80211.MAC{0x02, 0, 0, 0, 0x01, 0}
	}
	_, err := c.Resolve()
	return err
}

// checkConfig prints every problem of -check-config's file and the flags
// with it, and a summary; its exit status is 0 when airqd would start.
func checkConfig(o options, err error, w io.Writer) int {
	var ps config.Problems
	if err != nil && !errors.As(err, &ps) {
		ps = config.Problems{{Msg: err.Error()}}
	}
	all := append(slices.Clone(ps), o.warnings...)
	slices.SortStableFunc(all, func(a, b config.Problem) int { // the file's lines in order, then the flags'
		return cmp.Compare(lineOrLast(a), lineOrLast(b))
	})
	for _, p := range all {
		fmt.Fprintln(w, p)
	}
	if len(ps) > 0 {
		fmt.Fprintf(w, "%s: %s, %s: airqd would not start\n", o.checkPath, count(len(ps), "error"), count(len(o.warnings), "warning"))
		return 2
	}
	fmt.Fprintf(w, "%s: %s: airqd would start\n", o.checkPath, count(len(o.warnings), "warning"))
	return 0
}

func lineOrLast(p config.Problem) int {
	if p.Path == "" {
		return math.MaxInt
	}
	return p.Line
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
