package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/coreos/go-systemd/v22/daemon"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/inject"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/shell"
	"github.com/airq/airq/tap"
)

// runRadio brings up a real radio, in this order: find the phy; check that
// no other interface blocks it (or take it over with -takeover); apply the
// country; validate the channel under the domain the kernel applied; create
// the monitor interface (owned by our netlink socket, so the kernel removes
// it if we die) and tune it; qualify the hardware; open the injection
// sockets and the TAP (joining -bridge); then run the core until ctx ends.
// Every failure returns one error naming what failed; the deferred calls
// remove what was created, in reverse order.
func runRadio(ctx context.Context, o options, log *slog.Logger) error {
	applyNice(o.radioOpt.nice, log)
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
		return fmt.Errorf("%s does not support active monitor mode: the hardware would not ACK stations' frames (see README, \"Running on a real radio\")", o.phy)
	}
	cfg := o.core
	if cfg.BSSID.IsZero() {
		cfg.BSSID = ieee80211.MAC(phy.PermAddr)
	}
	if err := checkAddrMask(phy, cfg.BSSID); err != nil {
		return err
	}
	if err := coexist(nl, phy, cfg.BSSID, o, log); err != nil {
		return err
	}
	dom, err := applyCountry(ctx, nl, o.radioOpt.country, log)
	if err != nil {
		return err
	}
	if phy, err = nl.PHYByName(o.phy); err != nil { // channel flags follow the domain
		return err
	}
	var ch nl80211.Channel
	if o.channel == 0 {
		// ACS (acs_linux.go): the channel is chosen from a scan at start.
		if ch, err = acsSetup(&cfg, o, phy, dom); err != nil {
			return err
		}
	} else {
		if cfg, err = cfg.Resolve(); err != nil {
			return err
		}
		ch, err = nl80211.NewChannel(cfg.Freq, nlWidth(cfg.PHY), cfg.PHY.Secondary > 0)
		if err == nil {
			err = phy.ValidateOperating(ch)
		}
		if err != nil {
			return fmt.Errorf("%s cannot operate on channel %d: %w", o.phy, cfg.Channel, err)
		}
	}
	fitted, note, err := fitPHY(phy, cfg.Freq, cfg.PHY)
	if err != nil {
		return err
	}
	if note != "" {
		log.Info(note)
	}
	cfg.PHY = fitted
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
	if err := linkUp(o.ifname); err != nil {
		return err
	}
	if err := nl.SetChannel(mon.Index, ch); err != nil {
		return err
	}
	var retune time.Duration // measured by the qualification
	if o.radioOpt.qualify || !o.radioOpt.noQualify {
		rep, err := qualifyRadio(ctx, nl, phy, mon, cfg.BSSID, ch, o.ifname, cfg.AMSDU)
		if err != nil {
			return err
		}
		if o.radioOpt.qualify {
			printReport(os.Stdout, o.phy, rep)
			return rep.Err()
		}
		for _, c := range rep.Checks {
			log.Info("qualification", "check", c.Name, "ok", c.OK, "detail", c.Detail)
		}
		if err := rep.Err(); err != nil {
			return fmt.Errorf("%w (-no-qualify skips the checks)", err)
		}
		retune = rep.Retune
	}
	cfg.Country = countryElement(dom, phy, cfg.Freq)
	cfg.Scan = o.phyOpt.scanConfig(scanChannels(phy, cfg.Freq), retune)
	core, err := ap.New(cfg)
	if err != nil {
		return err
	}
	// a capture records echoes whole; otherwise the filter cuts them to
	// their headers, which are the TX status
	dev, err := inject.Open(o.ifname, inject.Options{Address: cfg.BSSID, MTU: amsduMTU(cfg.AMSDU), FullEchoes: o.pcap != ""})
	if err != nil {
		return err
	}
	wired, err := tap.Open(o.tap, tap.Options{Offload: o.radioOpt.tapOffload})
	if err != nil {
		dev.Close()
		return err
	}
	o.wired.set(wired)
	if o.radioOpt.bridge != "" {
		if err := wired.JoinBridge(o.radioOpt.bridge); err != nil {
			wired.Close()
			dev.Close()
			return err
		}
	}
	runOpts := []shell.Option{shell.WithControl(o.srv), // Run closes it
		shell.WithSurvey(func() ([]nl80211.SurveyInfo, error) { return nl.Survey(mon.Index) })}
	if cfg.Scan != nil || cfg.ACS != nil {
		runOpts = append(runOpts, shell.WithRetuner(newRetuner(nl, phy, mon, dev, core, log))) // acs_linux.go
	}
	log.Info("radio up", "phy", o.phy, "ifname", o.ifname, "bssid", cfg.BSSID.String(), "ssid", cfg.SSID,
		"channel", cfg.Channel, "freq", cfg.Freq, "tap", o.tap, "bridge", o.radioOpt.bridge)
	ready := func() {
		log.Info("ready", "ssid", cfg.SSID, "bssid", cfg.BSSID.String(), "tap_offloads", wired.Offloads())
		daemon.SdNotify(false, daemon.SdNotifyReady)
	}
	err = shell.Run(ctx, core, o.capture(dev), wired, log, ready, runOpts...)
	c := core.Counters()
	log.Info("stopped", "beacons", c[counter.Beacons], "echoes", c[counter.Echoes], "wired_in", c[counter.WiredIn],
		"wired_sent", c[counter.WiredSent], "rx_to_wired", c[counter.RxToWired])
	return err
}

// checkAddrMask refuses a BSSID the driver cannot take: with an address mask,
// the interface addresses of a wiphy may differ only in the mask's bits.
func checkAddrMask(phy nl80211.PHY, bssid ieee80211.MAC) error {
	if phy.AddrMask == ([6]byte{}) {
		return nil
	}
	for i := range bssid {
		if (bssid[i]^phy.PermAddr[i])&^phy.AddrMask[i] != 0 {
			return fmt.Errorf("-bssid %v: %s accepts only addresses that differ from %v in the bits of %v",
				bssid, phy.Name, ieee80211.MAC(phy.PermAddr), ieee80211.MAC(phy.AddrMask))
		}
	}
	return nil
}

// coexist refuses to start while another interface blocks the phy, naming
// each, or takes the phy over with -takeover.
func coexist(nl *nl80211.Conn, phy nl80211.PHY, bssid ieee80211.MAC, o options, log *slog.Logger) error {
	ifs, err := nl.InterfacesOf(phy.Index)
	if err != nil {
		return err
	}
	blockers := nl80211.Blockers(ifs, phy.Index, bssid, strings.TrimRight(o.ifname, "0123456789"))
	if len(blockers) == 0 {
		return nil
	}
	if !o.radioOpt.takeover {
		lines := make([]string, len(blockers))
		for i, b := range blockers {
			lines[i] = b.String()
		}
		return fmt.Errorf("%s is in use by %s; stop what uses it (nmcli device set NAME managed no) or start with -takeover to bring those interfaces down and delete stale airq monitors",
			phy.Name, strings.Join(lines, "; "))
	}
	for _, b := range blockers {
		log.Warn("taking over", "ifname", b.Name, "type", b.Type.String(), "delete", b.Delete, "reason", b.Reason)
	}
	return nl.Takeover(blockers)
}

// applyCountry sets the country and returns (and logs) what the kernel
// applied; without one it returns the current domain.
func applyCountry(ctx context.Context, nl *nl80211.Conn, country string, log *slog.Logger) (nl80211.RegDomain, error) {
	if country == "" {
		d, err := nl.RegDomain()
		if err != nil {
			return d, err
		}
		log.Info("regulatory domain", "country", d.Alpha2, "rules", len(d.Rules), "note", worldNote(d))
		return d, nil
	}
	ev, err := nl80211.DialEvents(nl80211.GroupRegulatory)
	if err != nil {
		return nl80211.RegDomain{}, err
	}
	defer ev.Close()
	d, err := nl.SetCountry(ctx, ev, country)
	if err != nil {
		return d, err
	}
	log.Info("regulatory domain applied", "country", d.Alpha2, "dfs_region", d.DFSRegion, "rules", len(d.Rules))
	return d, nil
}

func worldNote(d nl80211.RegDomain) string {
	if d.World() {
		return "world domain: no beaconing on 5 GHz; set -country"
	}
	return ""
}

// amsduMTU is the monitor MTU airq's frames need: the packet socket takes
// at most MTU+14 bytes, radiotap included, so the default 1500 cannot carry
// a full-size Ethernet frame once the radiotap, 802.11 and LLC headers are
// added. It holds the largest MSDU (2304 octets) or the largest A-MSDU.
func amsduMTU(amsdu int) int {
	return max(amsdu, maxMSDU) + 256
}

// maxMSDU is the largest MSDU 802.11 carries.
const maxMSDU = 2304

// qualifyRadio opens the monitor for the checks alone and closes it after.
// With A-MSDUs on, a frame of the largest A-MSDU's size must go out too.
func qualifyRadio(ctx context.Context, nl *nl80211.Conn, phy nl80211.PHY, mon nl80211.Interface,
	bssid ieee80211.MAC, ch nl80211.Channel, ifname string, amsdu int) (shell.Report, error) {
	dev, err := inject.Open(ifname, inject.Options{MTU: amsduMTU(amsdu)})
	if err != nil {
		return shell.Report{}, err
	}
	defer dev.Close()
	size := 0
	if amsdu > 0 {
		size = amsdu + 26 // with the QoS data header
	}
	return shell.Qualify(ctx, dev, nl, shell.QualifyConfig{
		PHY: phy, Ifindex: mon.Index, BSSID: bssid, Channel: ch, Retune: retuneTarget(phy, ch), FrameSize: size,
	}), nil
}

// retuneTarget picks another usable 20 MHz channel of the same band.
func retuneTarget(phy nl80211.PHY, cur nl80211.Channel) nl80211.Channel {
	for _, b := range phy.Bands {
		for _, c := range b.Channels {
			if (c.Freq > 4000) != (cur.Freq > 4000) || c.Freq == cur.Freq || c.Disabled {
				continue
			}
			return nl80211.Channel{Freq: c.Freq, Width: nl80211.Width20NoHT}
		}
	}
	return nl80211.Channel{}
}

// linkUp brings the interface up (the monitor is created down).
func linkUp(name string) error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("%s: get flags: %w", name, err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("%s: bring up: %w", name, err)
	}
	return nil
}
