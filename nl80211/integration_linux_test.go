//go:build linux && hwsim

package nl80211

import (
	"encoding/binary"
	"errors"
	"net"
	"os"
	"testing"
	"time"

	"github.com/airq/airq/internal/link"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
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
	phy := findPHY(t, c, "monitor support (modprobe mac80211_hwsim)", func(p PHY) bool { return p.Monitor })

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
	phy := findPHY(t, c, "active monitor support", func(p PHY) bool { return p.ActiveMonitor })
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
	if err := link.Up(sta.Name); err != nil {
		t.Fatalf("up %s: %v", sta.Name, err)
	}
	// hwsim ACKs the address of every running interface of the radio: a
	// frame from another radio to each holder is ACKed, one to an address
	// nobody has is not
	p := ackProber(t, c, phy.Index)
	for _, tc := range []struct {
		name  string
		addr  [6]byte
		acked bool
	}{
		{"the monitor", mon.Addr, true},
		{"a second active monitor", second.Addr, true},
		{"an up managed interface", sta.Addr, true},
		{"nobody", [6]byte{0x02, 0xa1, 0x7c, 0, 1, 9}, false},
	} {
		if got := p.acked(t, tc.addr); got != tc.acked {
			t.Errorf("frame to %s (%x): acked %v, want %v", tc.name, tc.addr, got, tc.acked)
		}
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

// prober injects frames from an active monitor on another hwsim radio and
// reads their TX-status echoes.
type prober struct {
	fd  int
	seq uint16
}

// ackProber brings up an active monitor on 2412 MHz on a radio other than
// phy, owned by c, with a packet socket bound to it.
func ackProber(t *testing.T, c *Conn, phy int) *prober {
	t.Helper()
	other := findPHY(t, c, "active monitor support beside the first, to send to it",
		func(p PHY) bool { return p.Index != phy && p.ActiveMonitor })
	ifi, err := c.NewMonitor(other.Index, "airqtest4", [6]byte{0x02, 0xa1, 0x7c, 0, 2, 0}, MonitorActive)
	if err != nil {
		t.Fatalf("prober monitor: %v", err)
	}
	if err := link.Up(ifi.Name); err != nil {
		t.Fatal(err)
	}
	if err := c.SetChannel(ifi.Index, Channel{Freq: 2412}); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW, int(htons(unix.ETH_P_ALL)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	if err := unix.Bind(fd, &unix.SockaddrLinklayer{Protocol: htons(unix.ETH_P_ALL), Ifindex: ifi.Index}); err != nil {
		t.Fatal(err)
	}
	tv := unix.NsecToTimeval(int64(100 * time.Millisecond))
	if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
		t.Fatal(err)
	}
	return &prober{fd: fd, seq: 100}
}

func htons(v uint16) uint16 { return v<<8 | v>>8 }

// acked sends a Null data frame to addr and reports what its echo says.
func (p *prober) acked(t *testing.T, addr [6]byte) bool {
	t.Helper()
	p.seq++
	frame := radiotap.AppendTx(nil, radio.TxParams{Rate: radio.LegacyRate(6000), Retries: 1})
	hdr := make([]byte, 24)
	hdr[0], hdr[1] = 0x48, 0x01 // Null data, To DS
	copy(hdr[4:], addr[:])
	copy(hdr[10:], []byte{0x02, 0xa1, 0x7c, 0, 2, 0})
	copy(hdr[16:], addr[:])
	binary.LittleEndian.PutUint16(hdr[22:], p.seq<<4)
	if _, err := unix.Write(p.fd, append(frame, hdr...)); err != nil {
		t.Fatalf("inject: %v", err)
	}
	buf := make([]byte, 4096)
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		n, err := unix.Read(p.fd, buf)
		if err != nil {
			continue // the receive timeout: read again until the deadline
		}
		var st radio.TxStatus
		hl, echo, err := radiotap.Parse(buf[:n], nil, &st)
		if err != nil || !echo || n < hl+24 {
			continue
		}
		f := buf[hl:n]
		if [6]byte(f[4:10]) == addr && binary.LittleEndian.Uint16(f[22:24])>>4 == p.seq {
			return st.Acked
		}
	}
	t.Fatalf("no TX-status echo for the frame to %x", addr)
	return false
}

// findPHY returns the first wiphy that want accepts, failing the test
// (naming what was wanted) if none does.
func findPHY(t *testing.T, c *Conn, what string, want func(PHY) bool) PHY {
	t.Helper()
	phys, err := c.PHYs()
	if err != nil {
		t.Fatalf("PHYs: %v", err)
	}
	for _, p := range phys {
		if want(p) {
			return p
		}
	}
	t.Fatalf("no wiphy with %s among %d", what, len(phys))
	return PHY{}
}
