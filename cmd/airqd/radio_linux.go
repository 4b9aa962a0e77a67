package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/coreos/go-systemd/v22/daemon"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/nice"
	"github.com/airq/airq/monitor"
	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/shell"
	"github.com/airq/airq/tap"
)

// runRadio brings up the real radio (package monitor) and runs the core on
// it and on the BSSes' wired sides, which the shell opens, until ctx ends.
// With -qualify it runs the hardware checks alone, prints the report and
// returns.
func runRadio(ctx context.Context, o options, log *slog.Logger) error {
	offload := o.tapOffload(nice.Apply(o.Nice, log))
	if o.Phy == "" { // interface= names the radio (checkDaemon)
		var err error
		if o.Phy, err = phyOfInterface(o.Interface); err != nil {
			return err
		}
		log.Info("driving the phy of interface=", "interface", o.Interface, "phy", o.Phy)
	}
	mo := o.monitorOptions(log)
	if o.qualify {
		rep, err := monitor.Qualify(ctx, mo)
		if err != nil {
			return err
		}
		printReport(os.Stdout, o.Phy, rep)
		return rep.Err()
	}
	r, err := monitor.Open(ctx, mo)
	if errors.Is(err, monitor.ErrQualification) {
		return fmt.Errorf("%w (-no-qualify skips the checks)", err)
	}
	if err != nil {
		return err
	}
	defer r.Close()
	cfg := r.Config()
	core, err := ap.New(cfg)
	if err != nil {
		return err
	}
	applyMemoryLimit(o, core, log)
	log.Info("radio up", "phy", o.Phy, "ifname", o.Ifname, "bssid", cfg.BSSID.String(), "ssid", cfg.SSID,
		"channel", cfg.Channel, "freq", cfg.Freq, "tap", o.Tap, "bridge", o.Bridge)
	logBSSes(log, cfg, r.Holders())
	var wired *tap.Device
	opened := func(taps []*tap.Device) {
		wired = taps[0]
		o.wired.set(wired)
	}
	ready := func() {
		log.Info("ready", "ssid", cfg.SSID, "bssid", cfg.BSSID.String(), "tap_offloads", wired.Offloads())
		daemon.SdNotify(false, daemon.SdNotifyReady)
		if o.onReady != nil {
			o.onReady()
		}
	}
	control := shell.WithControl(o.srv) // Run closes the control server
	if o.keepControl {
		control = shell.WithControlOpen(o.srv)
	}
	err = shell.RunWired(ctx, core, o.capture(r.Device()), o.wiredSides(offload), log, opened, ready,
		control, shell.WithRetuner(r.Retuner(core)), shell.WithSurvey(r.Survey))
	c := core.Counters()
	log.Info("stopped", "beacons", c[counter.Beacons], "echoes", c[counter.Echoes], "wired_in", c[counter.WiredIn],
		"wired_sent", c[counter.WiredSent], "rx_to_wired", c[counter.RxToWired])
	return err
}

// phyOfInterface asks the kernel for the wiphy of a wireless interface.
func phyOfInterface(name string) (string, error) {
	c, err := nl80211.Dial()
	if err != nil {
		return "", err
	}
	defer c.Close()
	ifs, err := c.Interfaces()
	if err != nil {
		return "", err
	}
	phys, err := c.PHYs()
	if err != nil {
		return "", err
	}
	return phyNamed(ifs, phys, name)
}
