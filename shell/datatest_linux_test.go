package shell

import (
	"net"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/airq/airq/ctl/hostapd"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/netnstest"
)

// hostapd's testing commands: only with Testing (else UNKNOWN COMMAND, as
// Debian's hostapd answers); the test socket on a wired interface (a veth
// here) sends DATA_TEST_TX's frame and reports a test frame it receives
// as DATA-TEST-RX to the monitors.
func TestHostapdDataTest(t *testing.T) {
	off := newHostapdRig(t, 1, nil)
	c := off.client("off")
	for _, cmd := range []string{"DATA_TEST_CONFIG 1", "DATA_TEST_TX 02:00:00:00:01:00 02:00:00:00:02:00 0", "GET_PMK 02:d0:00:00:00:00"} {
		if got := c.ask(cmd); got != "UNKNOWN COMMAND\n" {
			t.Errorf("%s without testing: %q", cmd, got)
		}
	}
	off.hs.Close()

	netnstest.Enter(t)
	netnstest.IP(t, "link", "add", "dta", "type", "veth", "peer", "name", "dtb")
	netnstest.IP(t, "link", "set", "dta", "up")
	netnstest.IP(t, "link", "set", "dtb", "up")
	r := newHostapdRig(t, 1, nil, func(c *HostapdConfig) { c.Testing, c.TestIfname = true, "dta" })
	c = r.client("cli")
	if got := c.ask("DATA_TEST_TX 02:00:00:00:01:00 02:00:00:00:02:00 0"); got != "FAIL\n" {
		t.Errorf("DATA_TEST_TX before DATA_TEST_CONFIG: %q", got)
	}
	if got := c.ask("GET_PMK 02:d0:00:00:00:00"); got != "FAIL\n" { // an open network's station has none
		t.Errorf("GET_PMK: %q", got)
	}
	// The socket is made here, in the test's network namespace.
	if err := r.hs.h.dataTestConfig(hostapd.Command{On: true}); err != nil {
		t.Fatal(err)
	}
	peer := packetSocket(t, "dtb")
	m := r.client("mon")
	m.ask("ATTACH")
	dst, src := ieee80211.MAC{2, 0, 0, 0, 1, 0}, ieee80211.MAC{2, 0, 0, 0, 2, 0}
	if got := c.ask("DATA_TEST_TX 02:00:00:00:01:00 02:00:00:00:02:00 0x20 len=100"); got != "OK\n" {
		t.Fatalf("DATA_TEST_TX: %q", got)
	}
	buf := make([]byte, 2048)
	for {
		n, err := peer.Read(buf)
		if err != nil {
			t.Fatalf("the test frame did not arrive on the peer: %v", err)
		}
		if _, ok := hostapd.AppendDataTestRx(nil, buf[:n]); ok {
			if buf[15] != 0x20 || n != 14+100 {
				t.Errorf("test frame of %d bytes, TOS %#x", n, buf[15])
			}
			break
		}
	}
	if _, err := peer.Write(hostapd.AppendDataTestFrame(nil, src, dst, 0, hostapd.DataTestIPLen)); err != nil {
		t.Fatal(err)
	}
	if got := m.recv(); got != "<3>DATA-TEST-RX 02:00:00:00:02:00 02:00:00:00:01:00" {
		t.Errorf("event %q", got)
	}
	if got := c.ask("DATA_TEST_CONFIG 0"); got != "OK\n" || c.ask("DATA_TEST_TX 02:00:00:00:01:00 02:00:00:00:02:00 0") != "FAIL\n" {
		t.Errorf("DATA_TEST_CONFIG 0: %q", got)
	}
}

// packetSocket is a raw packet socket on ifname, for the test's side.
func packetSocket(t *testing.T, ifname string) *packetConn {
	t.Helper()
	ifi, err := net.InterfaceByName(ifname)
	if err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW, int(htons(ethPIP)))
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Bind(fd, &unix.SockaddrLinklayer{Protocol: htons(ethPIP), Ifindex: ifi.Index}); err != nil {
		t.Fatal(err)
	}
	tv := unix.NsecToTimeval((5 * time.Second).Nanoseconds())
	unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv)
	t.Cleanup(func() { unix.Close(fd) })
	return &packetConn{fd: fd, ifindex: ifi.Index}
}

type packetConn struct{ fd, ifindex int }

func (p *packetConn) Read(b []byte) (int, error) {
	for {
		n, from, err := unix.Recvfrom(p.fd, b, 0)
		if err != nil {
			return 0, err
		}
		if ll, ok := from.(*unix.SockaddrLinklayer); ok && ll.Pkttype != unix.PACKET_OUTGOING {
			return n, nil
		}
	}
}

func (p *packetConn) Write(b []byte) (int, error) {
	sa := &unix.SockaddrLinklayer{Protocol: htons(ethPIP), Ifindex: p.ifindex, Halen: 6}
	copy(sa.Addr[:], b[:6])
	return len(b), unix.Sendto(p.fd, b, 0, sa)
}
