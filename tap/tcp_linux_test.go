package tap

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/airq/airq/internal/netnstest"
)

// TestIntegrationTCPThroughTAPs carries a real TCP connection, both ways,
// through two TAPs joined by ReadBatch/WriteBatch pumps, in each offload
// mode: the host's TCP in this namespace sends through one, a peer's TCP in
// a second namespace answers through the other. Segmentation, checksums and
// merged writes are right only if the kernel's TCP on both ends accepts
// every byte.
func TestIntegrationTCPThroughTAPs(t *testing.T) {
	netnstest.NeedTUN(t)
	eachOffload(t, testTCPThroughTAPs)
}

func testTCPThroughTAPs(t *testing.T, mode Offload) {
	netnstest.Enter(t)
	ns := fmt.Sprintf("airqtap%d", os.Getpid())
	if out, err := exec.Command("ip", "netns", "add", ns).CombinedOutput(); err != nil {
		t.Skipf("cannot add a named network namespace: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("ip", "netns", "del", ns).Run() })

	host, err := Open("atapa", Options{Offload: mode})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer host.Close()
	peer, err := Open("atapb", Options{Offload: mode})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer peer.Close()
	netnstest.IP(t, "addr", "add", "10.77.0.1/24", "dev", "atapa")
	netnstest.IP(t, "link", "set", "atapb", "netns", ns)
	netnstest.IP(t, "-n", ns, "addr", "add", "10.77.0.2/24", "dev", "atapb")
	netnstest.IP(t, "-n", ns, "link", "set", "atapb", "up")
	netnstest.WaitRunning(t, "atapa")
	waitRunningIn(t, ns, "atapb")

	// The wire between the two: what one TAP reads the other writes.
	for _, p := range [][2]*Device{{host, peer}, {peer, host}} {
		go func(from, to *Device) {
			bufs, sizes := make([][]byte, MaxBatch), make([]int, MaxBatch)
			for i := range bufs {
				bufs[i] = make([]byte, 2048)
			}
			for {
				n, err := from.ReadBatch(bufs, sizes)
				if err != nil {
					return
				}
				out := make([][]byte, n)
				for i := range n {
					out[i] = bufs[i][:sizes[i]]
				}
				to.WriteBatch(out)
			}
		}(p[0], p[1])
	}

	const size = 4 << 20
	up, down := make([]byte, size), make([]byte, size)
	r := rand.New(rand.NewPCG(uint64(mode), 9))
	for i := range up {
		up[i], down[i] = byte(r.Uint32()), byte(r.Uint32())
	}
	ln := listenIn(t, ns, "10.77.0.2:5001")
	defer ln.Close()
	served := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			served <- err
			return
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(60 * time.Second))
		got := make([]byte, size)
		if _, err := io.ReadFull(c, got); err != nil {
			served <- fmt.Errorf("peer read: %w", err)
			return
		}
		if !bytes.Equal(got, up) {
			served <- fmt.Errorf("peer received different bytes")
			return
		}
		_, err = c.Write(down)
		served <- err
	}()

	c, err := net.DialTimeout("tcp4", "10.77.0.2:5001", 10*time.Second)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(60 * time.Second))
	if _, err := c.Write(up); err != nil {
		t.Fatalf("write: %v", err)
	}
	got := make([]byte, size)
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatalf("read: %v", err)
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if sha256.Sum256(got) != sha256.Sum256(down) {
		t.Fatal("host received different bytes")
	}

	hs, ps := host.Stats(), peer.Stats()
	t.Logf("%v: host tap read %d frames (%d GSO), wrote %d (%d merged writes); peer tap read %d (%d GSO), wrote %d (%d merged)",
		mode, hs.RxFrames, hs.RxGSO, hs.TxFrames, hs.TxGSO, ps.RxFrames, ps.RxGSO, ps.TxFrames, ps.TxGSO)
	if hs.RxBadOffload+ps.RxBadOffload != 0 {
		t.Errorf("frames with bad offload headers: %d, %d", hs.RxBadOffload, ps.RxBadOffload)
	}
	switch mode {
	case OffloadOff:
		if hs.RxGSO+ps.RxGSO+hs.TxGSO+ps.TxGSO != 0 {
			t.Error("GSO frames without offloads")
		}
	case OffloadGRO:
		if hs.RxGSO+ps.RxGSO != 0 || hs.TxGSO == 0 || ps.TxGSO == 0 {
			t.Error("merged writes not used both ways, or GSO frames read without TSO")
		}
	case OffloadTSO:
		if strings.Contains(host.Offloads(), "tso4") && (hs.RxGSO == 0 || ps.RxGSO == 0) {
			t.Error("the kernel took TSO but handed over no GSO frame")
		}
	}
}

// listenIn opens a TCP listener inside network namespace ns, from a thread
// that enters it and stays there (it is retired when its goroutine ends).
func listenIn(t *testing.T, ns, addr string) net.Listener {
	t.Helper()
	type result struct {
		ln  net.Listener
		err error
	}
	done := make(chan result, 1)
	go func() {
		runtime.LockOSThread()
		f, err := os.Open("/var/run/netns/" + ns)
		if err != nil {
			done <- result{nil, err}
			return
		}
		defer f.Close()
		if err := unix.Setns(int(f.Fd()), unix.CLONE_NEWNET); err != nil {
			done <- result{nil, err}
			return
		}
		ln, err := net.Listen("tcp4", addr)
		done <- result{ln, err}
	}()
	r := <-done
	if r.err != nil {
		t.Fatalf("listen in %s: %v", ns, r.err)
	}
	return r.ln
}

// waitRunningIn is netnstest.WaitRunning for an interface in namespace ns.
func waitRunningIn(t *testing.T, ns, name string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, _ := exec.Command("ip", "-n", ns, "-o", "link", "show", name).Output()
		if s := string(out); strings.Contains(s, "LOWER_UP") && !strings.Contains(s, "qdisc noop") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s in %s is not running after 10s", name, ns)
		}
		time.Sleep(5 * time.Millisecond) // polling a condition, not ordering events
	}
}
