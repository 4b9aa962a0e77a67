//go:build linux && hwsim

package nl80211

import (
	"errors"
	"net"
	"os"
	"testing"
	"time"

	"github.com/airq/airq/internal/link"
	"golang.org/x/sys/unix"
)

// TestIntegrationHwsim runs against a real wiphy that supports monitor
// interfaces: create an active monitor, tune it, list it, delete it; then
// check that closing the owning socket deletes a second one. It needs root
// and mac80211_hwsim loaded, which the e2e VM has and the host gate has not,
// hence the build tag: the e2e payload builds it (go test -c -tags hwsim)
// and s0-env runs it on two hwsim radios. Nothing here skips: in the VM a
// missing precondition is a failure.
func TestIntegrationHwsim(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Fatal("needs root")
	}
	c, err := Dial()
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer c.Close()
	phys, err := c.PHYs()
	if err != nil {
		t.Fatalf("PHYs: %v", err)
	}
	var phy *PHY
	for i := range phys {
		if phys[i].Monitor {
			phy = &phys[i]
			break
		}
	}
	if phy == nil {
		t.Fatalf("no wiphy with monitor support among %d (modprobe mac80211_hwsim)", len(phys))
	}

	addr := [6]byte{0x02, 0xa1, 0x7c, 0, 0, 1}
	flags := MonitorControl | MonitorOtherBSS
	if phy.ActiveMonitor {
		flags |= MonitorActive
	}
	ifi, err := c.NewMonitor(phy.Index, "airqtest0", addr, flags)
	if err != nil {
		t.Fatalf("NewMonitor: %v", err)
	}
	if ifi.Name != "airqtest0" || ifi.Type != IfTypeMonitor || ifi.Addr != addr || ifi.PHY != phy.Index {
		t.Errorf("NewMonitor = %+v", ifi)
	}
	if err := link.Up(ifi.Name); err != nil {
		t.Fatalf("up: %v", err)
	}
	if err := c.SetChannel(ifi.Index, Channel{Freq: 2412}); err != nil {
		t.Errorf("SetChannel: %v", err)
	}
	ifs, err := c.Interfaces()
	if err != nil {
		t.Fatalf("Interfaces: %v", err)
	}
	found := false
	for _, x := range ifs {
		if x.Index == ifi.Index {
			found = true
			if x.Freq != 2412 {
				t.Errorf("monitor on %d MHz, want 2412", x.Freq)
			}
		}
	}
	if !found {
		t.Errorf("new monitor missing from %+v", ifs)
	}
	if err := c.DelInterface(ifi.Index); err != nil {
		t.Fatalf("DelInterface: %v", err)
	}

	// Socket ownership: closing the creating Conn deletes the interface.
	c2, err := Dial()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c2.NewMonitor(phy.Index, "airqtest1", addr, flags); err != nil {
		c2.Close()
		t.Fatalf("NewMonitor: %v", err)
	}
	c2.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := net.InterfaceByName("airqtest1"); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("airqtest1 still exists 10s after its owner closed")
		}
		time.Sleep(10 * time.Millisecond) // the kernel deletes it from a work item
	}
}

// TestIntegrationHwsimHolders: the interfaces that hold further BSSIDs
// (package monitor's ACK holders) on the monitor's phy: a second active
// monitor leaves the first free to change channels; an up managed
// interface makes cfg80211 refuse every channel change of the monitor
// (cfg80211_set_monitor_channel: EBUSY) until it goes down. All three are
// socket-owned: closing the Conn deletes them.
func TestIntegrationHwsimHolders(t *testing.T) {
	c, err := Dial()
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	defer c.Close()
	phys, err := c.PHYs()
	if err != nil {
		t.Fatalf("PHYs: %v", err)
	}
	var phy *PHY
	for i := range phys {
		if phys[i].ActiveMonitor {
			phy = &phys[i]
			break
		}
	}
	if phy == nil {
		t.Fatalf("no wiphy with active monitor support among %d", len(phys))
	}
	mon, err := c.NewMonitor(phy.Index, "airqtest2", [6]byte{0x02, 0xa1, 0x7c, 0, 1, 0}, MonitorActive|MonitorControl|MonitorOtherBSS)
	if err != nil {
		t.Fatalf("NewMonitor: %v", err)
	}
	second, err := c.NewMonitor(phy.Index, "airqtest2.2", [6]byte{0x02, 0xa1, 0x7c, 0, 1, 1}, MonitorActive)
	if err != nil {
		t.Fatalf("second monitor: %v", err)
	}
	for _, n := range []string{mon.Name, second.Name} {
		if err := link.Up(n); err != nil {
			t.Fatalf("up %s: %v", n, err)
		}
	}
	if err := c.SetChannel(mon.Index, Channel{Freq: 2437}); err != nil {
		t.Errorf("retune beside a second monitor: %v", err)
	}
	sta, err := c.NewStation(phy.Index, "airqtest2.3", [6]byte{0x02, 0xa1, 0x7c, 0, 1, 2})
	if err != nil {
		t.Fatalf("NewStation: %v", err)
	}
	if sta.Type != IfTypeStation || sta.Addr != [6]byte{0x02, 0xa1, 0x7c, 0, 1, 2} {
		t.Errorf("NewStation = %+v", sta)
	}
	if err := link.Up(sta.Name); err != nil {
		t.Fatalf("up %s: %v", sta.Name, err)
	}
	if err := c.SetChannel(mon.Index, Channel{Freq: 2412}); !errors.Is(err, unix.EBUSY) {
		t.Errorf("retune beside an up managed interface: err = %v, want EBUSY", err)
	}
	if err := link.Down(sta.Name); err != nil {
		t.Fatalf("down %s: %v", sta.Name, err)
	}
	if err := c.SetChannel(mon.Index, Channel{Freq: 2412}); err != nil {
		t.Errorf("retune with the managed interface down: %v", err)
	}
	c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for _, n := range []string{mon.Name, second.Name, sta.Name} {
		for {
			if _, err := net.InterfaceByName(n); err != nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s still exists 10s after its owner closed", n)
			}
			time.Sleep(10 * time.Millisecond) // the kernel deletes it from a work item
		}
	}
}
