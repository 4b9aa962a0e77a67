package shell

import (
	"errors"
	"fmt"
	"net"
	"os"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/airq/airq/ctl/hostapd"
)

// dataTest is hostapd's test socket (DATA_TEST_CONFIG): a packet socket
// for IPv4 on an interface of the wired side, as hostapd's l2_packet. Test
// frames it receives go to the monitors as DATA-TEST-RX; DATA_TEST_TX
// sends on it. Only the testing flag opens one.
type dataTest struct {
	f       *os.File
	ifindex int
	wg      sync.WaitGroup
}

const ethPIP = 0x0800

func htons(v uint16) uint16 { return v<<8 | v>>8 }

// openDataTest binds the test socket to ifname; publish gets each
// DATA-TEST-RX event.
func openDataTest(ifname string, publish func([]byte)) (*dataTest, error) {
	ifi, err := net.InterfaceByName(ifname)
	if err != nil {
		return nil, fmt.Errorf("data test: %w", err)
	}
	fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, int(htons(ethPIP)))
	if err != nil {
		return nil, fmt.Errorf("data test: packet socket: %w", err)
	}
	if err := unix.Bind(fd, &unix.SockaddrLinklayer{Protocol: htons(ethPIP), Ifindex: ifi.Index}); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("data test: bind to %s: %w", ifname, err)
	}
	d := &dataTest{f: os.NewFile(uintptr(fd), "datatest:"+ifname), ifindex: ifi.Index}
	d.wg.Go(func() { d.read(publish) })
	return d, nil
}

// read reports the test frames that arrive, not those it sent itself,
// until Close.
func (d *dataTest) read(publish func([]byte)) {
	rc, err := d.f.SyscallConn()
	if err != nil {
		return
	}
	buf := make([]byte, hostapd.DataTestFrameLen+1) // one more: an oversized frame shows
	for {
		var (
			n    int
			from unix.Sockaddr
			rerr error
		)
		err := rc.Read(func(fd uintptr) bool {
			n, from, rerr = unix.Recvfrom(int(fd), buf, 0)
			return !errors.Is(rerr, unix.EAGAIN)
		})
		if err != nil { // closed
			return
		}
		if ll, ok := from.(*unix.SockaddrLinklayer); rerr != nil || !ok || ll.Pkttype == unix.PACKET_OUTGOING {
			continue
		}
		if ev, ok := hostapd.AppendDataTestRx(nil, buf[:n]); ok {
			publish(ev)
		}
	}
}

// send sends one Ethernet frame.
func (d *dataTest) send(frame []byte) error {
	rc, err := d.f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	sa := &unix.SockaddrLinklayer{Protocol: htons(ethPIP), Ifindex: d.ifindex, Halen: 6}
	copy(sa.Addr[:], frame[:6])
	if err := rc.Write(func(fd uintptr) bool {
		serr = unix.Sendto(int(fd), frame, 0, sa)
		return !errors.Is(serr, unix.EAGAIN)
	}); err != nil {
		return err
	}
	return serr
}

func (d *dataTest) Close() error {
	err := d.f.Close()
	d.wg.Wait()
	return err
}

// dataTestConfig is DATA_TEST_CONFIG: on opens the socket (once), off
// closes it.
func (h *hostapdIface) dataTestConfig(c hostapd.Command) error {
	if !c.On {
		h.closeTest()
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.test != nil {
		return nil
	}
	ifname := c.Value
	if ifname == "" {
		ifname = h.cfg.TestIfname
	}
	if ifname == "" {
		return errors.New("data test: no wired interface (the simulated radio has none): give ifname=")
	}
	d, err := openDataTest(ifname, h.srv.publishHostapd)
	if err != nil {
		return err
	}
	h.test = d
	return nil
}

// dataTestTx is DATA_TEST_TX.
func (h *hostapdIface) dataTestTx(c hostapd.Command) error {
	h.mu.Lock()
	d := h.test
	h.mu.Unlock()
	if d == nil {
		return errors.New("data test: DATA_TEST_CONFIG 1 first")
	}
	return d.send(hostapd.AppendDataTestFrame(nil, c.Addr, c.Src, uint8(c.Reason), c.Level))
}

// closeTest closes the test socket, if any, outside mu: its reader may be
// publishing an event, which takes mu.
func (h *hostapdIface) closeTest() {
	h.mu.Lock()
	d := h.test
	h.test = nil
	h.mu.Unlock()
	if d != nil {
		d.Close()
	}
}
