package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// radioRestarts runs the radio again with a new configuration when a BSS
// added through hostapd's global socket changes what only a start applies
// (its SSID, channel, security: hostapd builds each added interface
// afresh), or a SIGHUP's file adds, removes or reorders bss= sections.
// The control server, hostapd's sockets and their monitors stay;
// the radio's loop, monitor interface and TAP are made again (the
// simulated radio's simulation goes on from where it stopped: simRadio).
type radioRestarts struct {
	run func(context.Context, options, *slog.Logger) error // runRadio

	mu   sync.Mutex
	stop context.CancelFunc // the running radio's; nil before it starts
	next *options           // asked for, taken when the radio has stopped
	done chan error         // the asker's: nil once the new radio is up, or why not
}

// restartTimeout bounds a restart: the old loop's stop, the new radio's
// start; hostap's tests wait 10 s for ENABLE's reply.
const restartTimeout = 8 * time.Second

// loop runs the radio with opts until ctx ends or the radio fails, and
// again with each configuration restart asks for. A configuration that
// fails to start is reported to its asker and the previous one runs again.
func (r *radioRestarts) loop(ctx context.Context, opts options, log *slog.Logger) error {
	var asker chan error // waiting for the radio now starting
	prev := opts
	for {
		rctx, cancel := context.WithCancel(ctx)
		r.mu.Lock()
		r.stop = cancel
		r.mu.Unlock()
		if asker != nil {
			a := asker
			opts.onReady = func() { a <- nil }
		}
		err := r.run(rctx, opts, log)
		cancel()
		r.mu.Lock()
		next, done := r.next, r.done
		r.next, r.done, r.stop = nil, nil, nil
		r.mu.Unlock()
		if asker != nil && err != nil && ctx.Err() == nil {
			asker <- err // buffered: the asker may have given up
			log.Error("radio restart: the new configuration did not start; back to the previous one", "err", err)
			opts, asker = prev, nil
			continue
		}
		asker = nil
		if ctx.Err() != nil || next == nil {
			if done != nil {
				done <- errors.New("airqd is stopping")
			}
			return err
		}
		if err != nil {
			done <- err
			return err
		}
		next.keepOpened(&opts)
		next.keepControl = true
		prev, opts, asker = opts, *next, done
		log.Info("radio restart: a new start of the radio with the new configuration", "ssid", opts.Core.SSID,
			"channel", opts.Channel, "bsses", len(opts.BSSes)+1)
	}
}

// restart stops the running radio and starts it with next; it returns
// when the new radio is ready, or why it is not.
func (r *radioRestarts) restart(ctx context.Context, next options) error {
	done := make(chan error, 2)
	r.mu.Lock()
	if r.stop == nil || r.next != nil {
		r.mu.Unlock()
		return errors.New("the radio is not running, or already restarting")
	}
	r.next, r.done = &next, done
	r.stop()
	r.mu.Unlock()
	t := time.NewTimer(restartTimeout)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return fmt.Errorf("the radio did not restart within %v", restartTimeout)
	}
}
