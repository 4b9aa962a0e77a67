package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/coreos/go-systemd/v22/daemon"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/inject"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/runtime"
	"github.com/airq/airq/tap"
)

// runRadio brings up a real radio: the monitor interface (owned by our
// netlink socket, so the kernel removes it if we die), the channel, the
// injection socket and the TAP; then runs the core until ctx ends, and
// removes what it created in reverse order.
func runRadio(ctx context.Context, o options, log *slog.Logger) error {
	nl, err := nl80211.Dial()
	if err != nil {
		return err
	}
	defer nl.Close()
	phy, err := nl.PHYByName(o.phy)
	if err != nil {
		return err
	}
	if !phy.ActiveMonitor {
		return fmt.Errorf("%s does not support active monitor mode: the hardware would not ACK stations' frames (see README, \"Radios\")", o.phy)
	}
	cfg := o.core
	if cfg.BSSID.IsZero() {
		cfg.BSSID = ieee80211.MAC(phy.PermAddr)
	}
	core, err := ap.New(cfg)
	if err != nil {
		return err
	}
	cfg = core.Config()
	mon, err := nl.NewMonitor(phy.Index, o.ifname, cfg.BSSID,
		nl80211.MonitorActive|nl80211.MonitorControl|nl80211.MonitorOtherBSS)
	if err != nil {
		return err
	}
	defer func() {
		if err := nl.DelInterface(mon.Index); err != nil {
			log.Warn("deleting monitor interface", "ifname", o.ifname, "err", err)
		}
	}()
	dev, err := inject.Open(o.ifname, inject.Options{})
	if err != nil {
		return err
	}
	if err := nl.SetChannel(mon.Index, nl80211.Channel{Freq: cfg.Freq, Width: nl80211.Width20NoHT}); err != nil {
		dev.Close()
		return err
	}
	wired, err := tap.Open(o.tap)
	if err != nil {
		dev.Close()
		return err
	}
	var runOpts []runtime.Option
	if o.control != "" {
		srv, err := runtime.ListenControl(o.control)
		if err != nil {
			wired.Close()
			dev.Close()
			return err
		}
		runOpts = append(runOpts, runtime.WithControl(srv)) // Run closes it
	}
	log.Info("radio up", "phy", o.phy, "ifname", o.ifname, "bssid", cfg.BSSID.String(), "ssid", cfg.SSID,
		"channel", cfg.Channel, "freq", cfg.Freq, "tap", o.tap)
	ready := func() {
		log.Info("ready", "ssid", cfg.SSID, "bssid", cfg.BSSID.String())
		daemon.SdNotify(false, daemon.SdNotifyReady)
	}
	err = runtime.Run(ctx, core, dev, wired, log, ready, runOpts...)
	c := core.Counters()
	log.Info("stopped", "beacons", c.Beacons, "echoes", c.Echoes, "wired_in", c.WiredIn, "wired_sent", c.WiredSent, "rx_to_wired", c.RxToWired)
	return err
}
