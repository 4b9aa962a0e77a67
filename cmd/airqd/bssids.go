package main

import (
	"fmt"
	"io"

	"github.com/airq/airq/config"
	"github.com/airq/airq/internal/bssid"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/monitor"
	"github.com/airq/airq/nl80211"
)

// sysPHY reads the phy airqd would drive from sysfs; a variable so that
// tests can stand in a phy.
var sysPHY = monitor.SysPHY

// reportBSSIDs writes, for a file of several BSSes, the BSSID each gets,
// one line a BSS, as far as it is known before the radio is open: a
// bssid= as given; one derived as hostapd derives it from the first BSS's
// address, which, without bssid= or -bssid, is the phy's: read from sysfs
// when the phy is there, else known only at bring-up. With the phy read,
// the BSSIDs are checked against its driver's address rule as the
// bring-up checks them; what that finds is returned.
func (o *options) reportBSSIDs(w io.Writer, path string) config.Problems {
	all := o.AllBSSes()
	if len(all) < 2 {
		return nil
	}
	given := make([]ieee80211.MAC, len(all))
	for i, b := range all {
		given[i] = b.BSSID
	}
	base, known := given[0], !given[0].IsZero()
	var phy nl80211.PHY
	var driver string
	var why, owner string // owner: whose address the first BSS's is
	switch {
	case o.Radio == "sim":
		why, owner = "the simulated radio ACKs every BSSID", "the simulated radio"
		if !known {
			base, known = simBSSID, true
		}
	default:
		var err error
		if phy, driver, err = sysPHY(o.Phy, o.Interface); err != nil {
			phy.Name, why = "", fmt.Sprintf("the phy is not known (%v): its address and its driver's address rule are known only at bring-up", err)
		} else if owner = phy.Name; !known {
			base, known = ieee80211.MAC(phy.PermAddr), true
		}
	}
	bssids, derived := bssid.Derive(base, given)
	nth := 0 // the derived ones after the first, counted
	for i, b := range all {
		fmt.Fprintf(w, "%s: %s: bssid: ", path, bssLabel(i, b))
		switch {
		case !derived[i]:
			fmt.Fprintf(w, "%v (bssid=)\n", bssids[i])
		case i == 0 && known:
			fmt.Fprintf(w, "%v (%s's address)\n", bssids[i], owner)
		case known && owner != "" && given[0].IsZero():
			fmt.Fprintf(w, "%v (derived from %s's address, as hostapd derives it)\n", bssids[i], owner)
		case known:
			fmt.Fprintf(w, "%v (derived, as hostapd derives it)\n", bssids[i])
		case i == 0:
			fmt.Fprintf(w, "the radio's address (known only at bring-up)\n")
		default:
			nth++
			fmt.Fprintf(w, "the radio's address + %d, skipping any a bssid= names (derived as hostapd derives it; the radio's address is known only at bring-up)\n", nth)
		}
	}
	if phy.Name == "" {
		fmt.Fprintf(w, "%s: bssid: the driver's address rule is not checked here: %s\n", path, why)
		return nil
	}
	warning, err := monitor.CheckAddresses(phy, driver, bssids)
	switch {
	case err != nil:
		return config.Problems{{Path: path, Key: "bssid", Msg: fmt.Sprintf("%s: %v", phy.Name, err)}}
	case warning != "":
		return config.Problems{{Path: path, Key: "bssid", Msg: fmt.Sprintf("%s: %s", phy.Name, warning), Warning: true}}
	}
	fmt.Fprintf(w, "%s: bssid: %s's driver (%s) ACKs these BSSIDs: %v\n", path, phy.Name, driver, bssid.DriverRule(driver))
	return nil
}

// bssLabel names BSS i of the radio as the file's problems name its
// section.
func bssLabel(i int, b config.BSS) string {
	switch {
	case i > 0:
		return "bss " + b.Name
	case b.Settings.Interface != "":
		return "interface " + b.Settings.Interface
	}
	return "the first BSS"
}
