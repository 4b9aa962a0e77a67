package shell

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/tap"
)

// WiredSide is one BSS's wired side as the configuration names it: the TAP
// the shell opens for the BSS and the bridge it joins (hostapd's bridge=).
type WiredSide struct {
	BSS     string      // the BSS's name, in errors and the log
	TAP     string      // the TAP interface's name
	Bridge  string      // the bridge the TAP joins; "" none
	Offload tap.Offload // what the TAP takes from the host (tap.Options)
}

// bridgePort is an opened wired side: the Wired contract, and a port of a
// bridge.
type bridgePort interface {
	Wired
	JoinBridge(bridge string) error
}

// OpenWired opens every side's TAP, in order, and joins each to its
// bridge. On a failure it closes what it opened and names the BSS whose
// side failed. The TAPs are not persistent: closing one removes it, and
// with it its bridge port.
func OpenWired(sides []WiredSide) ([]*tap.Device, error) {
	return openWired(sides, func(s WiredSide) (*tap.Device, error) {
		return tap.Open(s.TAP, tap.Options{Offload: s.Offload})
	})
}

// openWired is OpenWired with the TAPs opened by open.
func openWired[T bridgePort](sides []WiredSide, open func(WiredSide) (T, error)) ([]T, error) {
	opened := make([]T, 0, len(sides))
	fail := func(s WiredSide, err error) ([]T, error) {
		for _, w := range opened {
			err = errors.Join(err, w.Close())
		}
		return nil, fmt.Errorf("bss %s: %w", s.BSS, err)
	}
	for _, s := range sides {
		w, err := open(s)
		if err != nil {
			return fail(s, err)
		}
		opened = append(opened, w)
		if s.Bridge == "" {
			continue
		}
		if err := w.JoinBridge(s.Bridge); err != nil {
			return fail(s, err)
		}
	}
	return opened, nil
}

// closeWired closes every opened side; Close may be called more than once
// on each (Run closes the one it drives).
func closeWired[T Wired](opened []T) error {
	var err error
	for _, w := range opened {
		err = errors.Join(err, w.Close())
	}
	return err
}

// RunWired opens the wired sides of the radio's BSSes (OpenWired; sides in
// the radio's order, the first BSS's first), hands them to opened, if set,
// before the core starts (for the daemon's books: /metrics, the log), runs
// the core on them, each BSS on its own (RunBSSes), and closes them all
// when it stops.
func RunWired(ctx context.Context, core *ap.AP, dev radio.Device, sides []WiredSide, log *slog.Logger,
	opened func([]*tap.Device), ready func(), opts ...Option) error {
	return runWired(sides, OpenWired, opened, func(w []Wired) error { return RunBSSes(ctx, core, dev, w, log, ready, opts...) })
}

// runWired is RunWired with the sides opened by open and the core run by
// run.
func runWired[T Wired](sides []WiredSide, open func([]WiredSide) ([]T, error), opened func([]T), run func([]Wired) error) error {
	ws, err := open(sides)
	if err != nil {
		return err
	}
	if opened != nil {
		opened(ws)
	}
	wired := make([]Wired, len(ws))
	for i, w := range ws {
		wired[i] = w
	}
	err = run(wired)
	return errors.Join(err, closeWired(ws))
}
