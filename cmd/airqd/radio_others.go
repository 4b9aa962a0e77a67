//go:build !linux

package main

import (
	"context"
	"errors"
	"log/slog"
)

func runRadio(context.Context, options, *slog.Logger) error {
	return errors.New("-radio nl80211 needs Linux (nl80211 and AF_PACKET); use -radio sim")
}
