package tap

import (
	"bytes"
	"net"
	"testing"
	"time"

	"github.com/airq/airq/internal/netnstest"
)

// TestIntegrationBridge enslaves the TAP to a bridge in a private network
// namespace and carries a datagram from the bridge's address through it
// (ARP resolution answered by the test, then the UDP datagram); then checks
// MTU, carrier and leaving the bridge.
func TestIntegrationBridge(t *testing.T) {
	netnstest.NeedTUN(t)
	netnstest.Enter(t)
	netnstest.IP(t, "link", "add", "abr0", "type", "bridge")
	netnstest.IP(t, "link", "set", "abr0", "up")
	d, err := Open("atap0", Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer d.Close()
	if err := d.JoinBridge("abr0"); err != nil {
		t.Fatalf("JoinBridge: %v", err)
	}
	br, err := net.InterfaceByName("abr0")
	if err != nil {
		t.Fatal(err)
	}
	if m, err := d.Master(); err != nil || m != br.Index {
		t.Fatalf("Master = %d, %v; want abr0's index %d", m, err, br.Index)
	}
	if err := d.JoinBridge("nosuchbr0"); err == nil {
		t.Error("joined a bridge that does not exist")
	}
	netnstest.IP(t, "addr", "add", "10.77.0.1/24", "dev", "abr0")
	netnstest.WaitRunning(t, "atap0", "abr0")

	conn, err := net.DialUDP("udp4", nil, &net.UDPAddr{IP: peerIP, Port: 9})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	payload := []byte("airq bridge test")
	if _, err := conn.Write(payload); err != nil {
		t.Fatal(err)
	}
	req := readUntil(t, d, isARPRequestFor(peerIP))
	if !bytes.Equal(req[28:32], tapIP) {
		t.Fatalf("ARP request from %v, want %v", net.IP(req[28:32]), tapIP)
	}
	if n, err := d.WriteBatch([][]byte{arpReply(req)}); n != 1 || err != nil {
		t.Fatalf("WriteBatch = %d, %v", n, err)
	}
	if udp := readUntil(t, d, isUDPTo(peerIP, payload)); !bytes.Equal(udp[0:6], peerHW) {
		t.Fatalf("datagram to %x, want %x", udp[0:6], peerHW)
	}

	if err := d.SetMTU(1400); err != nil {
		t.Fatal(err)
	}
	if mtu, err := d.MTU(); err != nil || mtu != 1400 {
		t.Errorf("MTU = %d, %v; want 1400", mtu, err)
	}
	if err := d.SetCarrier(false); err != nil {
		t.Fatal(err)
	}
	// The kernel's link watcher applies a carrier loss within a second.
	for deadline := time.Now().Add(5 * time.Second); ; {
		ifi, err := net.InterfaceByName("atap0")
		if err != nil {
			t.Fatal(err)
		}
		if ifi.Flags&net.FlagRunning == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("carrier off, yet atap0 is running: %v", ifi.Flags)
		}
		time.Sleep(10 * time.Millisecond) // polling a condition, not ordering events
	}
	if err := d.SetCarrier(true); err != nil {
		t.Fatal(err)
	}
	netnstest.WaitRunning(t, "atap0")
	if err := d.LeaveBridge(); err != nil {
		t.Fatal(err)
	}
	if m, err := d.Master(); err != nil || m != 0 {
		t.Errorf("after LeaveBridge Master = %d, %v", m, err)
	}
}
