package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/airq/airq/ctl"
)

const topUsage = `usage: airqctl [-socket PATH] [-json] [-i IFNAME] top [-b] [-n N] [-d INTERVAL]

A live view of the stations, refreshed every interval: each one's share of
the downlink airtime (SHARE), its TX and RX airtime over the interval (AIR),
throughput each way, TX rate, signal average, AQL pending airtime and queued
frames, from the difference between two snapshots of the daemon's counters
over the daemon's own clock (the simulator's virtual time under -radio sim).
Airtime is as airqd accounts it, each exchange estimated with its channel
access, so the stations' sum can pass 100 % by the estimate's margin.
On a terminal each frame replaces the last (ANSI clear and home); with -b, or
when stdout is not a terminal, frames follow each other as plain text. With
-json each frame is one JSON object on a line. q or Ctrl-C quits.

flags:
`

// topOptions are top's own flags.
type topOptions struct {
	batch    bool
	frames   int
	interval time.Duration
}

// errTopHelp: top -h printed its usage.
var errTopHelp = errors.New("help")

func parseTop(args []string, stderr io.Writer) (topOptions, error) {
	o := topOptions{interval: time.Second}
	fs := flag.NewFlagSet("top", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&o.batch, "b", false, "batch mode: plain frames one after another, no terminal control")
	fs.IntVar(&o.frames, "n", 0, "stop after N frames (0: until interrupted)")
	fs.Func("d", "refresh interval: seconds like top (0.5) or a duration (500ms); default 1", func(s string) error {
		d, err := parseInterval(s)
		o.interval = d
		return err
	})
	err := fs.Parse(args)
	switch {
	case err == flag.ErrHelp:
		fmt.Fprint(stderr, topUsage)
		fs.SetOutput(stderr)
		fs.PrintDefaults()
		return o, errTopHelp
	case err != nil:
	case fs.NArg() > 0:
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	case o.frames < 0:
		err = fmt.Errorf("-n %d: want 0 (until interrupted) or more frames", o.frames)
	}
	return o, err
}

// parseInterval takes top's seconds or a Go duration, 10 ms to 1 h.
func parseInterval(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if f, ferr := strconv.ParseFloat(s, 64); ferr == nil {
		d, err = time.Duration(f*float64(time.Second)), nil
	}
	if err != nil || d < 10*time.Millisecond || d > time.Hour {
		return 0, fmt.Errorf("want seconds (0.5) or a duration (500ms) from 10ms to 1h")
	}
	return d, nil
}

// top prints frames until -n is reached, the daemon fails, the operator
// types q, or the process is interrupted (Ctrl-C, SIGTERM); the terminal is
// restored on each way out. Every frame is computed from two snapshots one
// interval apart; each snapshot is a fresh connection, so no interval is
// too long for the daemon's idle timeout.
func top(args []string, socket string, stdout, stderr io.Writer, ifname string, asJSON bool) int {
	o, err := parseTop(args, stderr)
	switch {
	case err == errTopHelp:
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "airqctl top: %v\n(run airqctl top -h for its flags)\n", err)
		return 2
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(stop)
	return runTop(o, topIO{socket: socket, stdout: stdout, stderr: stderr, ifname: ifname, asJSON: asJSON,
		kb: stdinKeyboard(), stop: stop})
}

// topIO is where top reads and writes: tests give it a reader of keys and
// a channel of signals.
type topIO struct {
	socket         string
	stdout, stderr io.Writer
	ifname         string
	asJSON         bool
	kb             keyboard
	stop           <-chan os.Signal
}

func runTop(o topOptions, t topIO) int {
	defer t.kb.restore()
	quit := make(chan struct{})
	if t.kb.keys != nil {
		go watchKeys(t.kb.keys, quit) // ends with the process: a terminal read cannot be interrupted
	}
	redraw := !o.batch && !t.asJSON && isTerminal(t.stdout)
	prev, err := snapshot(t.socket)
	if err != nil {
		fmt.Fprintf(t.stderr, "airqctl: %v\n", err)
		return 1
	}
	prevAt := time.Now()
	enc := json.NewEncoder(t.stdout)
	tick := time.NewTimer(o.interval)
	defer tick.Stop()
	for n := 1; o.frames == 0 || n <= o.frames; n++ {
		select {
		case <-quit:
			return 0
		case <-t.stop:
			return 0
		case <-tick.C:
		}
		cur, err := snapshot(t.socket)
		if err != nil {
			fmt.Fprintf(t.stderr, "airqctl: %v\n", err)
			return 1
		}
		now := time.Now()
		tick.Reset(o.interval)
		f := newTopFrame(&prev, &cur, now.Sub(prevAt))
		if t.asJSON {
			err = enc.Encode(f)
		} else {
			_, err = t.stdout.Write(f.appendText(frameStart(nil, redraw, n), t.ifname, clock().Wall))
		}
		if err != nil {
			return 1
		}
		prev, prevAt = cur, now
	}
	return 0
}

// frameStart begins frame n: on a terminal the cursor goes home and the
// screen is cleared, so the frame redraws in place; in plain text a blank
// line parts it from the one before.
func frameStart(b []byte, redraw bool, n int) []byte {
	switch {
	case redraw:
		return append(b, "\x1b[H\x1b[2J"...)
	case n > 1:
		return append(b, '\n')
	}
	return b
}

func snapshot(socket string) (ctl.Reply, error) {
	r, err := do(socket, ctl.Request{Op: ctl.OpSnapshot})
	if err == nil && r.Status == nil {
		err = fmt.Errorf("snapshot without a status section")
	}
	return r, err
}

// isTerminal reports whether w is a character device: a terminal, as far
// as clearing the screen is concerned.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
