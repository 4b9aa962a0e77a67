package monitor

import (
	"errors"
	"fmt"
	"slices"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/bssid"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/nl80211"
)

// HolderKind is the kind of interface that holds a BSSID for the hardware:
// the hardware ACKs only the addresses of the interfaces the driver knows
// (vifs), so every BSS but the first, whose BSSID airqd's monitor carries,
// needs an interface of its own with its BSSID as its address. airq reads
// and injects through its one monitor; the holders only hold addresses.
//
// What each costs, read in net/mac80211 of Linux 6.1 (the e2e tier's
// kernel) and measured by the e2e measurement m9-ackholder (README, "Several
// BSSIDs on one radio"):
//
//   - HolderMonitor, another active monitor (MONITOR_FLAG_ACTIVE: mac80211
//     adds it to the driver as a vif). It is on mac80211's monitor list,
//     so ieee80211_rx_monitor clones every received frame for it and
//     delivers the clone (netif_receive_skb), and ieee80211_tx_monitor
//     clones every TX-status echo for it (netif_rx): a clone and a
//     delivery per frame each way, dropped unread. It changes nothing
//     else: it answers nothing and leaves retunes to airqd.
//   - HolderStation, a managed interface with the BSSID as its address,
//     up and never connected. Not a monitor: no clone. Received frames
//     reach it through __ieee80211_rx_handle_packet, which runs
//     ieee80211_accept_frame for each running non-monitor interface (an
//     address compare for frames to other addresses); frames to its own
//     address go through its RX handlers: data and PS-Poll from a station
//     it has no entry for are dropped in ieee80211_rx_h_check (a station
//     interface never deauthenticates, unlike an AP's
//     cfg80211_rx_spurious_frame); robust management frames from unknown
//     stations are not accepted; auth, assoc and deauth frames end in
//     ieee80211_sta_rx_queued_mgmt, which ignores them without an
//     authentication in progress; but an action frame of the Public,
//     Self-protected or Spectrum category (GAS/ANQP, DPP, FTM ...) is
//     returned to its sender with 0x80 set in its category
//     (ieee80211_rx_h_action_return), from the BSSID. And cfg80211
//     refuses a monitor's channel change while anything but monitors runs
//     on the phy (cfg80211_set_monitor_channel: -EBUSY): no scan trips,
//     no ACS, no qualification's retune. mac80211 starts no scan and no
//     connection on its own; but NetworkManager manages every new Wi-Fi
//     netdev and would start wpa_supplicant on it and scan, so it must be
//     told to leave it: a udev rule setting NM_UNMANAGED=1 for its name,
//     or "unmanaged-devices=interface-name:NAME" in NetworkManager.conf.
type HolderKind uint8

const (
	HolderMonitor HolderKind = iota
	HolderStation
)

func (k HolderKind) String() string {
	if k == HolderStation {
		return "station"
	}
	return "monitor"
}

// HolderName is the name of the interface that holds BSS bss's BSSID
// (bss counts from 1 in configuration order; the first BSS's is the
// monitor, ifname): "mon0.2" for the second BSS of monitor mon0.
func HolderName(ifname string, bss int) string {
	return bssid.HolderName(ifname, bss)
}

// maxIfname is the longest interface name Linux takes (IFNAMSIZ - 1).
const maxIfname = 15

// holderPlan is what openHolders will create: the checks that need no
// radio, made before anything is created.
type holderPlan struct {
	phy    nl80211.PHY
	kind   HolderKind
	ifname string
	bssids []ieee80211.MAC // every BSS's; the first is the monitor's
	names  []string        // every BSS's name, "" where it has none
	// Warning, when set, says why airq cannot tell whether the hardware
	// will ACK the BSSIDs (a driver whose rule it does not know).
	Warning string
}

// planFor plans the ACK holders of the BSSes of cfg, o.Core fitted to
// phy with the first BSS's BSSID known: the BSSIDs the configuration
// leaves zero are derived from it into cfg (DeriveBSSIDs).
func planFor(phy nl80211.PHY, driver string, o Options, cfg *ap.Config) (holderPlan, error) {
	all := DeriveBSSIDs(cfg)
	p, err := planHolders(phy, driver, o.Holder, o.Ifname, all, cfg.Scan != nil || cfg.ACS != nil)
	p.names = []string{cfg.Name}
	for _, b := range cfg.BSSes {
		p.names = append(p.names, b.Name)
	}
	return p, err
}

// label names BSS n (from 1) in errors: "bss guest", or "bss 2" without
// a name.
func (p holderPlan) label(n int) string {
	if n <= len(p.names) && p.names[n-1] != "" {
		return "bss " + p.names[n-1]
	}
	return fmt.Sprintf("bss %d", n)
}

// planHolders checks the radio's BSSIDs against the driver's address rule
// and the phy's address mask, and the holder kind against what the radio
// must do (retunes), before any interface is made. driver is the phy's
// driver name ("" when it cannot be read); retunes says the configuration
// scans or selects the channel at start.
func planHolders(phy nl80211.PHY, driver string, kind HolderKind, ifname string, bssids []ieee80211.MAC, retunes bool) (holderPlan, error) {
	p := holderPlan{phy: phy, kind: kind, ifname: ifname, bssids: bssids}
	if len(bssids) < 2 {
		return p, nil
	}
	if kind == HolderStation && retunes {
		return p, errors.New("ACK holders of kind station: a running managed interface makes every channel change of the monitor fail (cfg80211 allows it only while monitors alone run), and this configuration scans or selects its channel: use kind monitor")
	}
	if n := HolderName(ifname, len(bssids)); len(n) > maxIfname {
		return p, fmt.Errorf("-ifname %q: the ACK holders' names (%s) would be longer than %d characters", ifname, n, maxIfname)
	}
	var err error
	p.Warning, err = CheckAddresses(phy, driver, bssids)
	if err != nil {
		return p, err
	}
	return p, nil
}

// DeriveBSSIDs fills in the BSSIDs of c's BSSes after the first
// (c.BSSes) that the configuration leaves zero, as hostapd derives them
// from the first BSS's, c.BSSID, which must be known (the phy's address
// when not configured), and returns every BSS's in order. c.BSSes is
// copied first: the caller's configuration keeps its zeros.
func DeriveBSSIDs(c *ap.Config) []ieee80211.MAC {
	given := []ieee80211.MAC{c.BSSID}
	for _, b := range c.BSSes {
		given = append(given, b.BSSID)
	}
	all, _ := bssid.Derive(c.BSSID, given)
	c.BSSes = slices.Clone(c.BSSes)
	for i := range c.BSSes {
		c.BSSes[i].BSSID = all[i+1]
	}
	return all
}

// CheckAddresses checks a radio's BSSIDs (the first BSS's first) against
// what its phy takes (the address mask) and its driver's address rule
// (package internal/bssid), driver named as in
// /sys/class/ieee80211/PHY/device/driver ("" when unknown). warning, when
// set, says why airq cannot tell whether the hardware will ACK them.
func CheckAddresses(phy nl80211.PHY, driver string, bssids []ieee80211.MAC) (warning string, err error) {
	for i, b := range bssids[1:] {
		if err := phyAccepts(phy, b); err != nil {
			return "", fmt.Errorf("bss %d: BSSID %v: %w", i+2, b, err)
		}
	}
	rule := bssid.DriverRule(driver)
	if err := bssid.Check(rule, ieee80211.MAC(phy.PermAddr), bssids); err != nil {
		return "", fmt.Errorf("driver %s: %w", driverText(driver), err)
	}
	if rule != bssid.RuleUnknown {
		return "", nil
	}
	warning = fmt.Sprintf("driver %s: airq does not know which addresses its hardware ACKs with %d interfaces; if a BSS's stations cannot associate, its unanswered count grows (airqctl)", driverText(driver), len(bssids))
	for i, b := range bssids {
		if len(phy.Addresses) > 0 && !slices.Contains(phy.Addresses, [6]byte(b)) {
			warning += fmt.Sprintf("; bss %d's BSSID %v is not among the %d addresses the driver offers", i+1, b, len(phy.Addresses))
			break
		}
	}
	return warning, nil
}

func driverText(driver string) string {
	if driver == "" {
		return "(unknown)"
	}
	return driver
}

// phyAccepts applies the phy's NL80211_ATTR_MAC_MASK: the driver takes
// only addresses that differ from its own in the mask's bits.
func phyAccepts(phy nl80211.PHY, a ieee80211.MAC) error {
	if phy.AddrMask == ([6]byte{}) {
		return nil
	}
	for i := range a {
		if (a[i]^phy.PermAddr[i])&^phy.AddrMask[i] != 0 {
			return fmt.Errorf("%s accepts only addresses that differ from %v in the bits of %v",
				phy.Name, ieee80211.MAC(phy.PermAddr), ieee80211.MAC(phy.AddrMask))
		}
	}
	return nil
}

// openHolders creates one interface per BSSID but the first, of the plan's
// kind, and brings each up with up (the monitor's first: mt76x02 bases its
// address slots on the first vif). A driver that refuses one (-EBUSY:
// no room for another vif, or its address slot taken) fails the start
// with the reason; the interfaces made so far are deleted.
func openHolders(nl *nl80211.Conn, up func(name string) error, p holderPlan) ([]nl80211.Interface, error) {
	var made []nl80211.Interface
	fail := func(err error) ([]nl80211.Interface, error) {
		for _, ifi := range made {
			err = errors.Join(err, nl.DelInterface(ifi.Index))
		}
		return nil, err
	}
	for i, b := range p.bssids[1:] {
		bss := i + 2
		name := HolderName(p.ifname, bss)
		var ifi nl80211.Interface
		var err error
		if p.kind == HolderStation {
			ifi, err = nl.NewStation(p.phy.Index, name, b)
		} else {
			ifi, err = nl.NewMonitor(p.phy.Index, name, b, nl80211.MonitorActive)
		}
		if err != nil {
			return fail(fmt.Errorf("%s: the driver refused an interface (%s) with BSSID %v: %w", p.label(bss), p.kind, b, err))
		}
		made = append(made, ifi)
		if err := up(name); err != nil {
			return fail(fmt.Errorf("%s: bringing up %s (BSSID %v): %w", p.label(bss), name, b, err))
		}
	}
	return made, nil
}
