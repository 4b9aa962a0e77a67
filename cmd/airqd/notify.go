package main

import (
	"fmt"
	"log/slog"

	"github.com/coreos/go-systemd/v22/daemon"

	"github.com/airq/airq/config"
)

// systemd hears from airqd through NOTIFY_SOCKET (nothing is sent without
// it): READY=1 once the radio beacons and the control socket listens,
// RELOADING=1 with MONOTONIC_USEC when a SIGHUP's reload starts and READY=1
// again when it is done (applied or refused), STOPPING=1 when airqd starts
// to shut down, WATCHDOG=1 from the watchdog.

func notify(state string) { daemon.SdNotify(false, state) }

// notifyReloading says a reload started, stamped with CLOCK_MONOTONIC as
// systemd's Type=notify-reload requires.
func notifyReloading() {
	state := daemon.SdNotifyReloading
	if us, ok := monotonicUsec(); ok {
		state += fmt.Sprintf("\nMONOTONIC_USEC=%d", us)
	}
	notify(state)
}

// logWarnings logs what the configuration accepts with a warning.
func logWarnings(log *slog.Logger, ps config.Problems) {
	for _, p := range ps {
		p.Warning = false // the level says it
		log.Warn(p.String())
	}
}
