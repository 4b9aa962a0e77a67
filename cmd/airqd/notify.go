package main

import (
	"fmt"

	"github.com/coreos/go-systemd/v22/daemon"
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
