package link

import (
	"encoding/json"
	"errors"
	"net"
	"os/exec"
	"testing"

	"github.com/airq/airq/internal/netnstest"
)

// TestIntegrationStatsReader reads a veth end's counters after traffic and
// checks them against ip(8)'s, and that a read allocates nothing: the
// daemon reads them every second for as long as it runs.
func TestIntegrationStatsReader(t *testing.T) {
	netnstest.Enter(t)
	netnstest.IP(t, "link", "add", "lk0", "type", "veth", "peer", "name", "lk1")
	netnstest.IP(t, "addr", "add", "10.78.0.1/24", "dev", "lk0")
	netnstest.IP(t, "link", "set", "lk1", "up")
	netnstest.IP(t, "link", "set", "lk0", "up")
	netnstest.WaitRunning(t, "lk0", "lk1")
	ifi, err := net.InterfaceByName("lk0")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.DialUDP("udp4", nil, &net.UDPAddr{IP: net.IPv4(10, 78, 0, 2), Port: 9})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.Write([]byte("counted")) // an ARP request goes out of lk0
	r, err := OpenStats()
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.Read(ifi.Index)
	if err != nil {
		t.Fatal(err)
	}
	want := ipCounters(t, "lk0")
	if got.TxPackets == 0 || got.TxPackets != want.TxPackets || got.TxBytes != want.TxBytes ||
		got.RxPackets != want.RxPackets || got.TxDropped != want.TxDropped {
		t.Errorf("read %+v, ip(8) says %+v", got, want)
	}
	if _, err := r.Read(1 << 30); err == nil {
		t.Error("no interface: no error")
	}
	if n := testing.AllocsPerRun(100, func() {
		if _, err := r.Read(ifi.Index); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations per read", n)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Read(ifi.Index); !errors.Is(err, ErrClosed) {
		t.Errorf("read after Close: %v", err)
	}
}

// ipCounters is what `ip -s -j link show` says of the interface.
func ipCounters(t *testing.T, name string) Counters {
	t.Helper()
	out, err := exec.Command("ip", "-s", "-j", "link", "show", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	type dir struct {
		Bytes, Packets, Dropped uint64
	}
	var links []struct {
		Stats64 struct{ Rx, Tx dir } `json:"stats64"`
	}
	if err := json.Unmarshal(out, &links); err != nil || len(links) != 1 {
		t.Fatalf("ip -s -j link show %s: %v: %s", name, err, out)
	}
	s := links[0].Stats64
	return Counters{RxPackets: s.Rx.Packets, TxPackets: s.Tx.Packets, RxBytes: s.Rx.Bytes, TxBytes: s.Tx.Bytes,
		RxDropped: s.Rx.Dropped, TxDropped: s.Tx.Dropped}
}
