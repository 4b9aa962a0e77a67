package main

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/monitor"
	"github.com/airq/airq/nl80211"
)

// standPHY makes sysPHY read a phy of driver with address perm for the
// test ("" perm: no phy).
func standPHY(t *testing.T, perm, driver string) {
	t.Cleanup(func() { sysPHY = monitor.SysPHY })
	sysPHY = func(phy, iface string) (nl80211.PHY, string, error) {
		if perm == "" {
			return nl80211.PHY{}, "", errors.New("open /sys/class/ieee80211/" + phy + "/macaddress: no such file or directory")
		}
		a, err := ieee80211.ParseMAC(perm)
		if err != nil {
			t.Fatal(err)
		}
		return nl80211.PHY{Name: phy, PermAddr: a}, driver, nil
	}
}

// checkBSSIDsOutput runs -check-config on text for phy3 and returns what it
// prints.
func checkBSSIDsOutput(t *testing.T, text string) string {
	t.Helper()
	path := writeConf(t, text)
	o, err := parseFlags([]string{"-phy", "phy3", "-control", "", "-check-config", path})
	var out bytes.Buffer
	checkConfig(o, err, &out)
	return strings.ReplaceAll(out.String(), path, "F")
}

const threeBSSes = "ssid=main\nbss=guest\nssid=guest\nbss=iot\nssid=iot\nbssid=06:0c:42:10:20:30\nbss=lab\nssid=lab\n"

// -check-config says which BSSID each BSS gets: given, derived from the
// phy's address when sysfs has the phy, else counted from an address known
// only at bring-up; the driver's address rule is checked when the phy is
// known, and a BSSID that breaks it is an error naming the rule.
func TestCheckConfigBSSIDs(t *testing.T) {
	for _, tc := range []struct {
		name, perm, driver, text string
		want                     []string
	}{
		{"no phy", "", "", threeBSSes, []string{
			"F: the first BSS: bssid: the radio's address (known only at bring-up)\n",
			"F: bss guest: bssid: the radio's address + 1, skipping any a bssid= names (derived as hostapd derives it; the radio's address is known only at bring-up)\n",
			"F: bss iot: bssid: 06:0c:42:10:20:30 (bssid=)\n",
			"F: bss lab: bssid: the radio's address + 2, skipping",
			"F: bssid: the driver's address rule is not checked here: the phy is not known (open /sys/class/ieee80211/phy3/macaddress: no such file or directory): its address and its driver's address rule are known only at bring-up\n",
		}},
		{"hwsim", "02:00:00:00:00:00", "mac80211_hwsim", threeBSSes, []string{
			"F: the first BSS: bssid: 02:00:00:00:00:00 (phy3's address)\n",
			"F: bss guest: bssid: 02:00:00:00:00:01 (derived from phy3's address, as hostapd derives it)\n",
			"F: bss lab: bssid: 02:00:00:00:00:02 (derived from phy3's address, as hostapd derives it)\n",
			"F: bssid: phy3's driver (mac80211_hwsim) ACKs these BSSIDs: any address (mac80211_hwsim)\n",
		}},
		{"mt76x02's slots", "00:0c:42:10:20:30", "mt76x2u", threeBSSes, []string{
			"F: bss guest: bssid: 00:0c:42:10:20:31 (derived from phy3's address, as hostapd derives it)\n",
			"F: bssid: phy3: driver mt76x2u: mt76x02's address slots: bss 2's BSSID 00:0c:42:10:20:31 differs from 00:0c:42:10:20:30 outside octet 0's bits 1-4\n",
		}},
		{"the mask rule, the first address given", "00:0c:42:10:20:30", "ath9k", "ssid=main\nbssid=00:0c:42:10:20:31\nbss=guest\nssid=guest\n", []string{
			"F: the first BSS: bssid: 00:0c:42:10:20:31 (bssid=)\n",
			"F: bss guest: bssid: 00:0c:42:10:20:32 (derived, as hostapd derives it)\n",
			"bssid: phy3: driver ath9k: BSSID mask rule: with 2 BSSIDs the mask is ff:ff:ff:ff:ff:fc, and the first BSSID 00:0c:42:10:20:31 is not the first address of its block",
		}},
		{"an unknown driver", "00:0c:42:10:20:30", "iwlwifi", threeBSSes, []string{
			"F: warning: bssid: phy3: driver iwlwifi: airq does not know which addresses its hardware ACKs with 4 interfaces",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			standPHY(t, tc.perm, tc.driver)
			out := checkBSSIDsOutput(t, tc.text)
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("-check-config says\n%s\nwithout %q", out, w)
				}
			}
		})
	}
	// one BSS: nothing to say of BSSIDs
	standPHY(t, "02:00:00:00:00:00", "mac80211_hwsim")
	if out := checkBSSIDsOutput(t, "ssid=main\n"); strings.Contains(out, "bssid") {
		t.Errorf("one BSS: %s", out)
	}
}

// The BSSes after the first reach the bring-up in the file's order, each
// with its name, SSID and bssid=, zero where the radio's address derives
// them, to be held by monitors.
func TestMonitorOptionsBSSIDs(t *testing.T) {
	path := writeConf(t, threeBSSes)
	o, err := parseFlags([]string{"-phy", "phy3", "-control", "", "-config", path})
	if err != nil {
		t.Fatal(err)
	}
	mo := o.monitorOptions(nil)
	var names, ssids []string
	var bssids []ieee80211.MAC
	for _, b := range mo.Core.BSSes {
		names, ssids, bssids = append(names, b.Name), append(ssids, b.SSID), append(bssids, b.BSSID)
	}
	want := []ieee80211.MAC{{}, {0x06, 0x0c, 0x42, 0x10, 0x20, 0x30}, {}}
	if !slices.Equal(bssids, want) || mo.Holder != monitor.HolderMonitor || mo.Core.Name != "airq0" ||
		!slices.Equal(names, []string{"guest", "iot", "lab"}) || !slices.Equal(ssids, names) {
		t.Errorf("BSSes %q %q %v holder %v, want %v held by monitors", names, ssids, bssids, mo.Holder, want)
	}
}

// The bring-up derives the zero BSSIDs from the first BSS's address as
// hostapd does, skipping those a bssid= names, and fills them in.
func TestDeriveBSSIDs(t *testing.T) {
	path := writeConf(t, threeBSSes)
	o, err := parseFlags([]string{"-phy", "phy3", "-control", "", "-config", path})
	if err != nil {
		t.Fatal(err)
	}
	c := o.monitorOptions(nil).Core
	c.BSSID = ieee80211.MAC{0x06, 0x0c, 0x42, 0x10, 0x20, 0x2f}
	all := monitor.DeriveBSSIDs(&c)
	want := []ieee80211.MAC{c.BSSID, {0x06, 0x0c, 0x42, 0x10, 0x20, 0x31}, {0x06, 0x0c, 0x42, 0x10, 0x20, 0x30}, {0x06, 0x0c, 0x42, 0x10, 0x20, 0x32}}
	if !slices.Equal(all, want) {
		t.Errorf("derived %v, want %v", all, want)
	}
	for i, b := range c.BSSes {
		if b.BSSID != want[i+1] {
			t.Errorf("bss %s: %v, want %v", b.Name, b.BSSID, want[i+1])
		}
	}
	if o.Core.BSSes[0].BSSID != (ieee80211.MAC{}) {
		t.Errorf("the options' configuration changed: %v", o.Core.BSSes[0].BSSID)
	}
}

// On the simulated radio -check-config gives the BSSIDs the simulator
// runs: derived from its address, as it derives them at start.
func TestCheckConfigSimBSSIDs(t *testing.T) {
	path := writeConf(t, "ssid=main\nbss=guest\nssid=guest\n")
	o, err := parseFlags([]string{"-radio", "sim", "-control", "", "-check-config", path})
	var out bytes.Buffer
	checkConfig(o, err, &out)
	for _, want := range []string{"the first BSS: bssid: 02:00:00:00:01:00 (the simulated radio's address)",
		"bss guest: bssid: 02:00:00:00:01:01 (derived from the simulated radio's address, as hostapd derives it)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-check-config says\n%s\nwant %q", out.String(), want)
		}
	}
	cfg := o.Core
	cfg.BSSID = simBSSID
	if all := monitor.DeriveBSSIDs(&cfg); all[1] != (ieee80211.MAC{2, 0, 0, 0, 1, 1}) {
		t.Errorf("the simulator runs %v", all)
	}
}
