// Command airqd is the airq access point daemon: it drives a radio through an
// active monitor interface and bridges its stations to a TAP interface.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	opts, err := parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "airqd: %v\n", err)
		return 2
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: opts.logLevel}))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	switch opts.radio {
	case "sim":
		err = runSim(ctx, opts, log)
	default:
		err = runRadio(ctx, opts, log)
	}
	if err != nil {
		log.Error("exiting", "err", err)
		return 1
	}
	return 0
}
