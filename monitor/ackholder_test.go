package monitor

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/nl80211/nl80211test"
	"golang.org/x/sys/unix"
)

var holderPHY = nl80211.PHY{Index: 1, Name: "phy1", PermAddr: [6]byte{0x00, 0x0c, 0x42, 0x10, 0x20, 0x30}}

func dialFake(t *testing.T, k *nl80211test.Kernel) *nl80211.Conn {
	t.Helper()
	c, err := nl80211test.Dial(k)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestOpenHolders: one interface per BSSID but the first, of the kind
// asked, named after the monitor and brought up in order.
func TestOpenHolders(t *testing.T) {
	bssids := macs("00:0c:42:10:20:30", "02:0c:42:10:20:30", "06:0c:42:10:20:30")
	for _, kind := range []HolderKind{HolderMonitor, HolderStation} {
		t.Run(kind.String(), func(t *testing.T) {
			k := &nl80211test.Kernel{}
			p, err := planHolders(holderPHY, "mt76x2u", kind, "mon0", bssids, false)
			if err != nil || p.Warning != "" {
				t.Fatalf("plan: %v %q", err, p.Warning)
			}
			var ups []string
			ifs, err := openHolders(dialFake(t, k), func(n string) error { ups = append(ups, n); return nil }, p)
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{"mon0.2", "mon0.3"}; !slices.Equal(ups, want) {
				t.Errorf("brought up %v, want %v", ups, want)
			}
			cr := k.Created()
			if len(cr) != 2 || len(ifs) != 2 {
				t.Fatalf("created %+v, returned %+v", cr, ifs)
			}
			wantType := map[HolderKind]nl80211.IfType{HolderMonitor: nl80211.IfTypeMonitor, HolderStation: nl80211.IfTypeStation}[kind]
			for i, r := range cr {
				if r.Type != wantType || r.Active != (kind == HolderMonitor) || r.PHY != 1 || ieee80211.MAC(r.Addr) != bssids[i+1] || ifs[i].Name != r.Name {
					t.Errorf("interface %d: %+v (returned %+v)", i, r, ifs[i])
				}
			}
		})
	}
}

// TestOpenHoldersRefused: a driver that refuses the second extra
// interface (mt76x02's -EBUSY) fails the start naming the BSS, its BSSID,
// the interface and the errno; the interface made before it is deleted.
func TestOpenHoldersRefused(t *testing.T) {
	k := &nl80211test.Kernel{Refuse: func(r nl80211test.Request) unix.Errno {
		if r.Name == "mon0.3" {
			return unix.EBUSY
		}
		return 0
	}}
	p, err := planHolders(holderPHY, "mac80211_hwsim", HolderMonitor, "mon0", macs("02:00:00:00:00:00", "02:00:00:00:00:01", "02:00:00:00:00:02"), false)
	if err != nil {
		t.Fatal(err)
	}
	ifs, err := openHolders(dialFake(t, k), func(string) error { return nil }, p)
	if !errors.Is(err, unix.EBUSY) || ifs != nil {
		t.Fatalf("err = %v, interfaces %v; want EBUSY and none", err, ifs)
	}
	for _, part := range []string{"bss 3", "02:00:00:00:00:02", "mon0.3", "device or resource busy", "refused"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q does not name %q", err, part)
		}
	}
	cr, del := k.Created(), k.Deleted()
	if len(cr) != 1 || len(del) != 1 || del[0] != cr[0].Index {
		t.Errorf("created %+v, deleted %v: the second BSS's interface must be deleted", cr, del)
	}
}

// TestOpenHoldersUpFails: an interface that will not come up fails the
// start too, and is deleted.
func TestOpenHoldersUpFails(t *testing.T) {
	k := &nl80211test.Kernel{}
	p, _ := planHolders(holderPHY, "mac80211_hwsim", HolderStation, "mon0", macs("02:00:00:00:00:00", "02:00:00:00:00:01"), false)
	_, err := openHolders(dialFake(t, k), func(string) error { return unix.EADDRNOTAVAIL }, p)
	if !errors.Is(err, unix.EADDRNOTAVAIL) || !strings.Contains(err.Error(), "bss 2: bringing up mon0.2") {
		t.Fatalf("err = %v", err)
	}
	if len(k.Deleted()) != 1 {
		t.Errorf("deleted %v, want the one made", k.Deleted())
	}
}

func TestPlanHolders(t *testing.T) {
	two := macs("00:0c:42:10:20:30", "00:0c:42:10:20:31")
	masked := holderPHY
	masked.AddrMask = [6]byte{0, 0, 0, 0, 0, 0x0f}
	for _, tc := range []struct {
		name    string
		phy     nl80211.PHY
		driver  string
		kind    HolderKind
		ifname  string
		bssids  []ieee80211.MAC
		retunes bool
		err     string
		warning string
	}{
		{name: "one BSS needs nothing", phy: holderPHY, driver: "iwlwifi", ifname: "mon0", bssids: two[:1]},
		{name: "hwsim", phy: holderPHY, driver: "mac80211_hwsim", ifname: "mon0", bssids: two},
		{name: "ath9k, in the mask's block", phy: holderPHY, driver: "ath9k", ifname: "mon0", bssids: two},
		{name: "ath9k, first not the block's first", phy: holderPHY, driver: "ath9k", ifname: "mon0",
			bssids: macs("00:0c:42:10:20:31", "00:0c:42:10:20:32"),
			err:    "driver ath9k: BSSID mask rule: with 2 BSSIDs the mask is ff:ff:ff:ff:ff:fc"},
		{name: "mt76x2u, outside its slots", phy: holderPHY, driver: "mt76x2u", ifname: "mon0", bssids: two,
			err: "driver mt76x2u: mt76x02's address slots: bss 2's BSSID 00:0c:42:10:20:31"},
		{name: "an unknown driver is warned of", phy: holderPHY, driver: "mt7921u", ifname: "mon0", bssids: two,
			warning: "driver mt7921u: airq does not know which addresses its hardware ACKs with 2 interfaces"},
		{name: "a driver whose name cannot be read", phy: holderPHY, ifname: "mon0", bssids: two,
			warning: "driver (unknown): airq does not know"},
		{name: "the phy's address mask", phy: masked, driver: "mac80211_hwsim", ifname: "mon0",
			bssids: macs("00:0c:42:10:20:30", "00:0c:42:10:21:30"),
			err:    "bss 2: BSSID 00:0c:42:10:21:30: phy1 accepts only addresses that differ from 00:0c:42:10:20:30 in the bits of 00:00:00:00:00:0f"},
		{name: "kind station with retunes", phy: holderPHY, driver: "mac80211_hwsim", kind: HolderStation, ifname: "mon0", bssids: two, retunes: true,
			err: "ACK holders of kind station: a running managed interface makes every channel change of the monitor fail"},
		{name: "kind monitor with retunes", phy: holderPHY, driver: "mac80211_hwsim", ifname: "mon0", bssids: two, retunes: true},
		{name: "names too long", phy: holderPHY, driver: "mac80211_hwsim", ifname: "airqmonitor0123", bssids: two,
			err: `-ifname "airqmonitor0123": the ACK holders' names (airqmonitor0123.2) would be longer than 15 characters`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := planHolders(tc.phy, tc.driver, tc.kind, tc.ifname, tc.bssids, tc.retunes)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("err = %v, want one containing %q", err, tc.err)
			}
			if tc.warning == "" && p.Warning != "" || !strings.Contains(p.Warning, tc.warning) {
				t.Errorf("warning = %q, want %q", p.Warning, tc.warning)
			}
		})
	}
}

// TestPlanHoldersOfferedAddresses: a driver of unknown rule that offers
// addresses (NL80211_ATTR_MAC_ADDRS) is warned of a BSSID outside them.
func TestPlanHoldersOfferedAddresses(t *testing.T) {
	phy := holderPHY
	phy.Addresses = [][6]byte{phy.PermAddr, {0x02, 0x0c, 0x42, 0x10, 0x20, 0x30}}
	p, err := planHolders(phy, "mt7921u", HolderMonitor, "mon0", macs("00:0c:42:10:20:30", "02:0c:42:10:20:30"), false)
	if err != nil || strings.Contains(p.Warning, "not among") {
		t.Errorf("offered addresses: %v %q", err, p.Warning)
	}
	p, _ = planHolders(phy, "mt7921u", HolderMonitor, "mon0", macs("00:0c:42:10:20:30", "06:0c:42:10:20:30"), false)
	if !strings.Contains(p.Warning, "bss 2's BSSID 06:0c:42:10:20:30 is not among the 2 addresses the driver offers") {
		t.Errorf("warning = %q", p.Warning)
	}
}

// macs parses addresses.
func macs(ss ...string) []ieee80211.MAC {
	out := make([]ieee80211.MAC, len(ss))
	for i, s := range ss {
		m, err := ieee80211.ParseMAC(s)
		if err != nil {
			panic(err)
		}
		out[i] = m
	}
	return out
}

// TestHoldersOfConfig: the holders follow the core's BSSes: those without
// a BSSID get the ones hostapd derives from the first BSS's, filled into
// the configuration the core gets; a driver that refuses the second
// interface (mt76x02's -EBUSY) stops the start naming the BSS by its
// section, its BSSID and the errno; a driver's address rule that the
// derived BSSIDs break stops it before anything is made, naming the rule.
func TestHoldersOfConfig(t *testing.T) {
	first := ieee80211.MAC(holderPHY.PermAddr)
	cfg := ap.Config{Name: "airq0", BSSID: first, BSSes: []ap.BSSConfig{{Name: "guest", SSID: "g"}, {Name: "iot", SSID: "i"}}}
	o := Options{Ifname: "airq0", Core: cfg}
	c := cfg
	p, err := planFor(holderPHY, "mac80211_hwsim", o, &c)
	if err != nil {
		t.Fatal(err)
	}
	want := macs("00:0c:42:10:20:31", "00:0c:42:10:20:32")
	if c.BSSes[0].BSSID != want[0] || c.BSSes[1].BSSID != want[1] || !cfg.BSSes[0].BSSID.IsZero() {
		t.Errorf("BSSIDs %v %v (the options' %v), want %v", c.BSSes[0].BSSID, c.BSSes[1].BSSID, cfg.BSSes[0].BSSID, want)
	}
	k := &nl80211test.Kernel{Refuse: func(r nl80211test.Request) unix.Errno {
		if r.Name == "airq0.2" {
			return unix.EBUSY
		}
		return 0
	}}
	_, err = openHolders(dialFake(t, k), func(string) error { return nil }, p)
	if !errors.Is(err, unix.EBUSY) || !strings.Contains(err.Error(), "bss guest: the driver refused an interface (monitor) with BSSID 00:0c:42:10:20:31: nl80211: new interface airq0.2: device or resource busy") {
		t.Errorf("err = %v", err)
	}
	c = cfg
	if _, err := planFor(holderPHY, "mt76x2u", o, &c); err == nil || !strings.Contains(err.Error(), "mt76x02's address slots") {
		t.Errorf("mt76x2u with derived BSSIDs: %v", err)
	}
}
