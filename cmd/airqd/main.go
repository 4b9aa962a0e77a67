// Command airqd is the airq access point daemon: it drives a radio through an
// active monitor interface and bridges its stations to a TAP interface.
package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/airq/airq/ctl"
	"github.com/airq/airq/shell"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run starts the daemon's services around the radio: the control path
// (socket or not: SIGHUP, the watchdog and /metrics use it too), the pcap
// file and the metrics listener; then runs the radio or the simulator until
// SIGTERM or SIGINT, and stops everything in reverse order. Exit status: 0
// after a signal, 1 on a failure, 2 on bad flags or configuration.
func run(args []string) int {
	opts, err := parseFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if opts.checkPath != "" {
		return checkConfig(opts, err, os.Stdout)
	}
	if err != nil {
		startRefused(os.Stderr, opts, err)
		return 2
	}
	// A closed pipe on stdout or stderr (airqd | tee, ended by the same
	// Ctrl-C) must not kill airqd before its shutdown: with SIGPIPE
	// notified (not ignored, which programs airqd started would inherit)
	// writes fail with EPIPE instead, and readerGone drops them.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	level := new(slog.LevelVar)
	level.Set(opts.logLevel)
	log := slog.New(slog.NewTextHandler(&readerGone{w: os.Stderr}, &slog.HandlerOptions{Level: level}))
	opts.warnings.Log(log, "")
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	stopping := sync.OnceFunc(func() { notify(daemon.SdNotifyStopping) })
	defer stopping() // on a failure too
	context.AfterFunc(ctx, stopping)
	if err := serve(ctx, opts, level, args, log); err != nil {
		log.Error("exiting", "err", err)
		return 1
	}
	return 0
}

func serve(ctx context.Context, opts options, level *slog.LevelVar, args []string, log *slog.Logger) error {
	srv, err := shell.ListenControl(opts.Control, shell.ControlLog(log))
	if err != nil {
		return err
	}
	defer srv.Close() // Run closes it first on the real radio; twice is fine
	opts.srv = srv
	if opts.Pcap != "" {
		p, err := openPcap(&opts, log)
		if err != nil {
			return err
		}
		defer func() {
			if err := p.Close(); err != nil {
				log.Warn("pcap", "err", err)
			}
			log.Info("pcap closed", "file", opts.Pcap, "frames", p.Written(), "dropped", p.Dropped(), "rotations", p.Rotations())
		}()
		opts.pcapOut = p
	}
	var loopLatency prometheus.Histogram
	if opts.Metrics != "" {
		opts.wired = new(wiredView)
		loopLatency = newLoopLatency()
		m, err := startMetrics(opts.Metrics, srv, opts.wired, loopLatency)
		if err != nil {
			return err
		}
		defer m.Close()
		log.Info("metrics", "url", "http://"+m.Addr()+"/metrics")
	}
	if opts.pprof != "" {
		addr, stop, err := startPprof(opts.pprof)
		if err != nil {
			return err
		}
		defer stop()
		log.Info("pprof", "url", "http://"+addr+"/debug/pprof/")
	}
	// The helpers stop before the services they use close.
	hctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	wg.Go(func() { watchdog(hctx, srv, log) })
	if loopLatency != nil {
		wg.Go(func() { probeLoop(hctx, srv, loopLatency) })
	}
	// An added BSS (-g) or a file's changed bss= sections (SIGHUP) take a
	// new start of the radio, simulated or not.
	radio := &radioRestarts{run: runRadio}
	if opts.Radio == "sim" {
		radio.run = new(simRadio).run
	}
	rl := &reloader{args: args, cur: opts, srv: srv, level: level, log: log, radio: radio}
	wg.Go(func() { reloadOnHUP(hctx, rl) })
	if err := startHostapdAll(&opts, srv, rl, log); err != nil {
		return err
	}
	defer opts.closeHostapd() // first: CTRL-EVENT-TERMINATING while the core still answers

	opts.keepControl = true
	err = rl.radio.loop(ctx, opts, log)
	srv.Close() // as the radio's last loop would: requests from now on fail at once
	return err
}

// reloadOnHUP reloads the configuration on each SIGHUP until ctx ends.
func reloadOnHUP(ctx context.Context, rl *reloader) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			rl.log.Info("SIGHUP: reloading", "config", rl.cur.configPath)
			notifyReloading()
			rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			rl.reloadFile(rctx)
			cancel()
			notify(daemon.SdNotifyReady) // applied or refused, airqd runs on
		}
	}
}

// watchdog pings systemd's watchdog at half its interval, but only after
// the core's loop answered a request: a stuck loop stops the pings and
// systemd restarts the daemon. Without WATCHDOG_USEC it returns at once.
func watchdog(ctx context.Context, srv *shell.ControlServer, log *slog.Logger) {
	interval, err := daemon.SdWatchdogEnabled(false)
	if err != nil || interval <= 0 {
		return
	}
	log.Debug("watchdog", "interval", interval)
	t := time.NewTicker(interval / 2)
	defer t.Stop()
	answered := false // before the loop runs (start-up), silence is expected
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		cctx, cancel := context.WithTimeout(ctx, interval/2)
		_, err := srv.Call(cctx, ctl.Request{Op: ctl.OpStatus})
		cancel()
		if err != nil {
			if answered {
				log.Warn("watchdog: the core's loop did not answer; not pinging", "err", err)
			}
			continue
		}
		answered = true
		notify(daemon.SdNotifyWatchdog)
	}
}
