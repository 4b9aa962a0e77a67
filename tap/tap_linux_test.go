package tap

import (
	"bytes"
	"encoding/binary"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/airq/airq/internal/netnstest"
)

const timeout = 10 * time.Second

var (
	tapIP  = net.IPv4(10, 77, 0, 1).To4()
	peerIP = net.IPv4(10, 77, 0, 2).To4()
	peerHW = []byte{0x02, 0, 0, 0, 0, 0x99}
)

// readUntil reads frames from d until match accepts one, failing after the
// timeout (closing d unblocks the reader).
func readUntil(tb testing.TB, d *Device, match func([]byte) bool) []byte {
	tb.Helper()
	type result struct {
		frame []byte
		err   error
	}
	done := make(chan result, 1)
	go func() {
		bufs := [][]byte{make([]byte, 2048), make([]byte, 2048), make([]byte, 2048)}
		sizes := make([]int, len(bufs))
		for {
			n, err := d.ReadBatch(bufs, sizes)
			if err != nil {
				done <- result{nil, err}
				return
			}
			for i := range n {
				if f := bufs[i][:sizes[i]]; match(f) {
					done <- result{bytes.Clone(f), nil}
					return
				}
			}
		}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			tb.Fatalf("ReadBatch: %v", r.err)
		}
		return r.frame
	case <-time.After(timeout):
		d.Close()
		<-done
		tb.Fatal("timed out waiting for a frame")
		return nil
	}
}

func isARPRequestFor(ip net.IP) func([]byte) bool {
	return func(f []byte) bool {
		return len(f) >= 42 && binary.BigEndian.Uint16(f[12:]) == 0x0806 &&
			binary.BigEndian.Uint16(f[20:]) == 1 && bytes.Equal(f[38:42], ip)
	}
}

func isUDPTo(ip net.IP, payload []byte) func([]byte) bool {
	return func(f []byte) bool {
		return len(f) >= 42 && binary.BigEndian.Uint16(f[12:]) == 0x0800 && f[23] == 17 &&
			bytes.Equal(f[30:34], ip) && bytes.HasSuffix(f, payload)
	}
}

// arpReply answers an ARP request for peerIP with peerHW.
func arpReply(req []byte) []byte {
	f := make([]byte, 42)
	copy(f[0:6], req[6:12]) // to the asker
	copy(f[6:12], peerHW)
	binary.BigEndian.PutUint16(f[12:], 0x0806)
	copy(f[14:22], []byte{0, 1, 8, 0, 6, 4, 0, 2}) // Ethernet/IPv4, reply
	copy(f[22:28], peerHW)
	copy(f[28:32], peerIP)
	copy(f[32:42], req[22:32]) // the asker's MAC and IP
	return f
}

// TestIntegrationTAP runs ARP, a UDP datagram and the kernel's drop counter
// through a TAP in each offload mode.
func TestIntegrationTAP(t *testing.T) {
	netnstest.NeedTUN(t)
	eachOffload(t, testTAP)
}

// eachOffload runs test as a subtest in every offload mode.
func eachOffload(t *testing.T, test func(*testing.T, Offload)) {
	for mode := range numOffloads {
		t.Run(mode.String(), func(t *testing.T) { test(t, mode) })
	}
}

func testTAP(t *testing.T, mode Offload) {
	netnstest.Enter(t)
	d, err := Open("atap0", Options{Offload: mode})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer d.Close()
	if mode != OffloadTSO && d.Offloads() != "" {
		t.Errorf("%v: offloads %q taken from the kernel", mode, d.Offloads())
	}
	if d.Name() != "atap0" {
		t.Fatalf("Name = %q", d.Name())
	}
	if mtu, err := d.MTU(); err != nil || mtu != 1500 {
		t.Fatalf("MTU = %d, %v; want 1500", mtu, err)
	}
	netnstest.IP(t, "addr", "add", "10.77.0.1/24", "dev", "atap0")
	netnstest.WaitRunning(t, "atap0")

	// The kernel resolves the peer: an ARP request comes out of the TAP.
	conn, err := net.DialUDP("udp4", nil, &net.UDPAddr{IP: peerIP, Port: 9})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	payload := []byte("airq tap test")
	if _, err := conn.Write(payload); err != nil {
		t.Fatal(err)
	}
	req := readUntil(t, d, isARPRequestFor(peerIP))
	if !bytes.Equal(req[28:32], tapIP) {
		t.Fatalf("ARP request from %v, want %v", net.IP(req[28:32]), tapIP)
	}

	// Our reply resolves it, and the datagram queued behind the resolution
	// follows, addressed to the MAC we announced.
	if n, err := d.WriteBatch([][]byte{arpReply(req)}); n != 1 || err != nil {
		t.Fatalf("WriteBatch = %d, %v", n, err)
	}
	udp := readUntil(t, d, isUDPTo(peerIP, payload))
	if !bytes.Equal(udp[0:6], peerHW) {
		t.Fatalf("datagram to %x, want %x", udp[0:6], peerHW)
	}

	s := d.Stats()
	if s.TxFrames != 1 || s.KernelRxPackets != 1 || s.RxFrames < 2 || s.KernelTxPackets < s.RxFrames {
		t.Errorf("stats = %+v", s)
	}

	// Left undrained, tun's ring (txqueuelen, 1000 frames) fills and tun
	// drops the rest, counting them in tx_dropped; the qdisc in front of it
	// passes everything.
	before := d.Stats().KernelTxDropped
	sent := 0
	for range 3000 {
		if _, err := conn.Write(payload); err == nil {
			sent++
		}
	}
	s = d.Stats()
	if dropped := s.KernelTxDropped - before; dropped < uint64(sent)-1000 || dropped > uint64(sent) {
		t.Errorf("%d datagrams sent unread, %d counted dropped; want at least %d", sent, dropped, sent-1000)
	}
}

func TestIntegrationTAPClose(t *testing.T) {
	netnstest.NeedTUN(t)
	netnstest.Enter(t)
	d, err := Open("atap%d", Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if d.Name() != "atap0" {
		t.Errorf("Name = %q, want the kernel's choice atap0", d.Name())
	}
	errc := make(chan error, 1)
	go func() {
		bufs, sizes := [][]byte{make([]byte, 2048)}, []int{0}
		for {
			if _, err := d.ReadBatch(bufs, sizes); err != nil {
				errc <- err
				return
			}
		}
	}()
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	select {
	case err := <-errc:
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("ReadBatch after Close = %v, want ErrClosed", err)
		}
	case <-time.After(timeout):
		t.Fatal("Close did not unblock ReadBatch")
	}
	if _, err := net.InterfaceByName(d.Name()); err == nil {
		t.Errorf("%s still exists after Close", d.Name())
	}
}

// TestIntegrationKernelDropsAllocs: reading the kernel's drop counter, as
// the shell does every second, allocates nothing: its garbage would grow
// an idle daemon's heap toward the collector's goal.
func TestIntegrationKernelDropsAllocs(t *testing.T) {
	netnstest.NeedTUN(t)
	netnstest.Enter(t)
	d, err := Open("atap0", Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer d.Close()
	if n := testing.AllocsPerRun(100, func() { d.KernelDrops() }); n != 0 {
		t.Errorf("%v allocations per KernelDrops", n)
	}
}
