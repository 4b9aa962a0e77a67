package main

import (
	"context"
	"errors"
	"log/slog"
)

func runSim(context.Context, options, *slog.Logger) error {
	return errors.New("-radio sim: the simulated medium is not part of this build yet; run airqd on a radio that supports active monitor mode: airqd -phy phy0 -ssid NAME -channel 1 -tap airq-tap0 (see README)")
}
