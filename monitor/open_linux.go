package monitor

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/airq/airq/inject"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/link"
	"github.com/airq/airq/nl80211"
)

// Open brings up the radio, in this order: find the phy; check that no
// other interface blocks it (or take it over); apply the country; fit the
// core's configuration to the channel flags of the domain the kernel
// applied; create the monitor interface (owned by our netlink socket, so
// the kernel removes it if we die) and tune it; qualify the hardware;
// open the injection socket. Every failure returns one error naming what
// failed, after removing what was created.
func Open(ctx context.Context, o Options) (*Radio, error) {
	r, ch, err := bringUp(ctx, o)
	if err != nil {
		return nil, err
	}
	var retune time.Duration // measured by the qualification
	if !o.NoQualify {
		rep, err := r.qualify(ctx, ch)
		if err == nil {
			for _, c := range rep.Checks {
				o.Log.Info("qualification", "check", c.Name, "ok", c.OK, "detail", c.Detail)
			}
			err = rep.Err()
		}
		if err != nil {
			r.Close()
			return nil, err
		}
		retune = rep.Retune
	}
	// after the qualification, which retunes: a managed holder would make
	// that fail
	if r.holders, err = openHolders(r.nl, link.Up, r.plan); err != nil {
		r.Close()
		return nil, err
	}
	for i, h := range r.holders {
		o.Log.Info("ACK holder", "bss", i+2, "bssid", r.plan.bssids[i+1], "ifname", h.Name, "kind", o.Holder.String())
	}
	if r.cfg.Scan != nil {
		s := *r.cfg.Scan
		s.Planner.Retune = retune
		r.cfg.Scan = &s
	}
	// a capture records echoes whole; otherwise the filter cuts them to
	// their headers, which are the TX status
	// the filter keeps the frames to every BSSID of the radio, the ACK
	// holders' too
	var others [][6]byte
	for _, b := range r.plan.bssids[min(1, len(r.plan.bssids)):] {
		others = append(others, b)
	}
	r.dev, err = inject.Open(o.Ifname, inject.Options{Address: r.cfg.BSSID, Others: others, MTU: amsduMTU(r.cfg.AMSDU), FullEchoes: o.FullEchoes})
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// Qualify brings the radio up as Open does, runs the hardware checks and
// takes the radio down again.
func Qualify(ctx context.Context, o Options) (Report, error) {
	r, ch, err := bringUp(ctx, o)
	if err != nil {
		return Report{}, err
	}
	defer r.Close()
	return r.qualify(ctx, ch)
}

// bringUp runs Open's steps up to the tuned monitor interface and returns
// the channel it is on.
func bringUp(ctx context.Context, o Options) (r *Radio, ch nl80211.Channel, err error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	nl, err := nl80211.Dial()
	if err != nil {
		return nil, ch, err
	}
	r = &Radio{nl: nl, log: o.Log, o: o}
	defer func() {
		if err != nil {
			r.Close()
		}
	}()
	phy, err := nl.PHYByName(o.Phy)
	if err != nil {
		return r, ch, err
	}
	if !phy.ActiveMonitor {
		return r, ch, fmt.Errorf("%s does not support active monitor mode: the hardware would not ACK stations' frames (see README, \"Running on a real radio\")", o.Phy)
	}
	cfg := o.Core
	if cfg.BSSID, err = firstBSSID(phy, cfg.BSSID); err != nil {
		return r, ch, err
	}
	if r.plan, err = planFor(phy, driverOf(o.Phy), o, &cfg); err != nil {
		return r, ch, err
	}
	if r.plan.Warning != "" {
		o.Log.Warn("ACK holders", "warning", r.plan.Warning)
	}
	if err = coexist(nl, phy, cfg.BSSID, o); err != nil {
		return r, ch, err
	}
	dom, err := applyCountry(ctx, nl, o)
	if err != nil {
		return r, ch, err
	}
	if r.phy, err = nl.PHYByName(o.Phy); err != nil { // channel flags follow the domain
		return r, ch, err
	}
	if r.cfg, ch, err = configure(o, cfg, r.phy, dom); err != nil {
		return r, ch, err
	}
	if err = r.tune(ch); err != nil {
		return r, ch, err
	}
	if o.AMSDUOptional && r.cfg.AMSDU > 0 {
		if e := link.SetMTU(o.Ifname, amsduMTU(r.cfg.AMSDU)); e != nil {
			o.Log.Warn("A-MSDUs off: the monitor's MTU cannot hold the default A-MSDU (amsdu= chooses a size)",
				"ifname", o.Ifname, "amsdu", r.cfg.AMSDU, "err", e)
			r.cfg.AMSDU = 0
		}
	}
	return r, ch, nil
}

// tune creates the monitor interface, brings it up and tunes it to ch.
func (r *Radio) tune(ch nl80211.Channel) error {
	var err error
	r.mon, err = r.nl.NewMonitor(r.phy.Index, r.o.Ifname, r.cfg.BSSID,
		nl80211.MonitorActive|nl80211.MonitorControl|nl80211.MonitorOtherBSS)
	if err != nil {
		return err
	}
	if err := link.Up(r.o.Ifname); err != nil { // the monitor is created down
		return fmt.Errorf("%s: %w", r.o.Ifname, err)
	}
	return r.nl.SetChannel(r.mon.Index, ch)
}

// qualify opens the monitor for the checks alone and closes it after. With
// A-MSDUs on, a frame of the largest A-MSDU's size must go out too.
func (r *Radio) qualify(ctx context.Context, ch nl80211.Channel) (Report, error) {
	dev, err := inject.Open(r.o.Ifname, inject.Options{MTU: amsduMTU(r.cfg.AMSDU)})
	if err != nil {
		return Report{}, err
	}
	defer dev.Close()
	size := 0
	if r.cfg.AMSDU > 0 {
		size = r.cfg.AMSDU + 26 // with the QoS data header
	}
	rep := runChecks(ctx, dev, r.nl, checkConfig{
		PHY: r.phy, Ifindex: r.mon.Index, BSSID: r.cfg.BSSID, Channel: ch, Retune: retuneTarget(r.phy, ch), FrameSize: size,
	})
	if r.o.AMSDUOptional && rep.largeOptional() {
		r.cfg.AMSDU = 0
	}
	return rep, nil
}

// coexist refuses to start while another interface blocks the phy, naming
// each, or takes the phy over with Options.Takeover.
func coexist(nl *nl80211.Conn, phy nl80211.PHY, bssid ieee80211.MAC, o Options) error {
	ifs, err := nl.InterfacesOf(phy.Index)
	if err != nil {
		return err
	}
	blockers := nl80211.Blockers(ifs, phy.Index, bssid, strings.TrimRight(o.Ifname, "0123456789"))
	if len(blockers) == 0 {
		return nil
	}
	if !o.Takeover {
		return blockedError(phy, blockers)
	}
	for _, b := range blockers {
		o.Log.Warn("taking over", "ifname", b.Name, "type", b.Type.String(), "delete", b.Delete, "reason", b.Reason)
	}
	return nl.Takeover(blockers)
}

// applyCountry sets the country and returns (and logs) what the kernel
// applied; without one it returns the current domain.
func applyCountry(ctx context.Context, nl *nl80211.Conn, o Options) (nl80211.RegDomain, error) {
	if o.Country == "" {
		d, err := nl.RegDomain()
		if err != nil {
			return d, err
		}
		o.Log.Info("regulatory domain", "country", d.Alpha2, "rules", len(d.Rules), "note", worldNote(d))
		return d, nil
	}
	ev, err := nl80211.DialEvents(nl80211.GroupRegulatory)
	if err != nil {
		return nl80211.RegDomain{}, err
	}
	defer ev.Close()
	d, err := nl.SetCountry(ctx, ev, o.Country)
	if err != nil {
		return d, err
	}
	o.Log.Info("regulatory domain applied", "country", d.Alpha2, "dfs_region", d.DFSRegion, "rules", len(d.Rules))
	return d, nil
}

// driverOf returns the name of phy's driver (the link
// /sys/class/ieee80211/PHY/device/driver points to its module's directory),
// or "" when it cannot be read.
func driverOf(phy string) string {
	t, err := os.Readlink(filepath.Join("/sys/class/ieee80211", phy, "device", "driver"))
	if err != nil {
		return ""
	}
	return filepath.Base(t)
}
