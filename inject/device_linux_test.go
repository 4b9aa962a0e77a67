package inject

import (
	"bytes"
	"encoding/binary"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/airq/airq/internal/netnstest"
	"github.com/airq/airq/radio"
	"golang.org/x/sys/unix"
)

const (
	testType = 0x88b5 // IEEE local experimental ethertype
	timeout  = 10 * time.Second
)

// testFrame is a broadcast Ethernet frame of our test type whose payload
// starts with tag and seq, padded to size bytes.
func testFrame(tag byte, seq uint16, size int) []byte {
	f := make([]byte, max(size, 17))
	copy(f, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0, 0, 0, 0, 1})
	binary.BigEndian.PutUint16(f[12:], testType)
	f[14] = tag
	binary.BigEndian.PutUint16(f[15:], seq)
	return f
}

func isTest(f []byte) bool { return len(f) >= 17 && binary.BigEndian.Uint16(f[12:]) == testType }

// rawSocket is the far end of the link: a plain blocking packet socket with a
// receive timeout.
type rawSocket struct {
	fd int
}

func openRaw(tb testing.TB, name string) *rawSocket {
	tb.Helper()
	ifi, err := net.InterfaceByName(name)
	if err != nil {
		tb.Fatal(err)
	}
	fd, err := unix.Socket(unix.AF_PACKET, unix.SOCK_RAW|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { unix.Close(fd) })
	tv := unix.NsecToTimeval(timeout.Nanoseconds())
	if err := unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv); err != nil {
		tb.Fatal(err)
	}
	if err := unix.Bind(fd, &unix.SockaddrLinklayer{Protocol: htons(unix.ETH_P_ALL), Ifindex: ifi.Index}); err != nil {
		tb.Fatal(err)
	}
	return &rawSocket{fd: fd}
}

func (r *rawSocket) send(tb testing.TB, f []byte) {
	tb.Helper()
	if _, err := unix.Write(r.fd, f); err != nil {
		tb.Fatalf("raw send: %v", err)
	}
}

// next returns the next test frame, skipping other traffic.
func (r *rawSocket) next(tb testing.TB) []byte {
	tb.Helper()
	buf := make([]byte, 9000)
	for {
		n, err := unix.Read(r.fd, buf)
		if err != nil {
			tb.Fatalf("raw receive: %v", err)
		}
		if isTest(buf[:n]) {
			return buf[:n]
		}
	}
}

// readTest reads from d until it has want test frames, failing after the
// timeout (closing d unblocks the reader).
func readTest(tb testing.TB, d *Device, want int, bufSize int) [][]byte {
	tb.Helper()
	type result struct {
		frames [][]byte
		err    error
	}
	done := make(chan result, 1)
	go func() {
		var out [][]byte
		bufs := make([][]byte, 8)
		for i := range bufs {
			bufs[i] = make([]byte, bufSize)
		}
		sizes := make([]int, len(bufs))
		for len(out) < want {
			n, err := d.ReadBatch(bufs, sizes)
			if err != nil {
				done <- result{out, err}
				return
			}
			for i := range n {
				if f := bufs[i][:sizes[i]]; isTest(f) {
					out = append(out, bytes.Clone(f))
				}
			}
		}
		done <- result{out, nil}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			tb.Fatalf("ReadBatch: %v", r.err)
		}
		return r.frames
	case <-time.After(timeout):
		st := d.Stats()
		d.Close()
		r := <-done
		tb.Fatalf("timed out waiting for %d frames, got %d; stats %+v", want, len(r.frames), st)
		return nil
	}
}

// TestIntegrationVeth reads through the receive ring, TestIntegrationVethRecvmmsg
// without it: the same frames, drops and counts either way.
func TestIntegrationVeth(t *testing.T) { testVeth(t, false) }

func TestIntegrationVethRecvmmsg(t *testing.T) { testVeth(t, true) }

func testVeth(t *testing.T, noRing bool) {
	netnstest.Enter(t)
	vethPair(t, "air0", "air1")
	netnstest.IP(t, "link", "set", "air1", "mtu", "2000") // veth drops what the peer's MTU does not fit
	d, err := Open("air0", Options{MTU: 2000, NoRing: noRing})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer d.Close()
	if slots, why := d.Ring(); (slots > 0) == noRing {
		t.Fatalf("Ring() = %d, %v with NoRing %v", slots, why, noRing)
	}
	if ifi, err := net.InterfaceByName("air0"); err != nil || ifi.MTU != 2000 || ifi.Flags&net.FlagUp == 0 {
		t.Fatalf("air0 = %+v, %v; want up with MTU 2000", ifi, err)
	}
	netnstest.WaitRunning(t, "air0", "air1")
	peer := openRaw(t, "air1")

	// Device to peer, in order.
	out := [][]byte{testFrame('w', 1, 60), testFrame('w', 2, 1500), testFrame('w', 3, 2014)}
	if n, err := d.WriteBatch(out); n != len(out) || err != nil {
		t.Fatalf("WriteBatch = %d, %v", n, err)
	}
	for i, want := range out {
		if got := peer.next(t); !bytes.Equal(got, want) {
			t.Fatalf("peer frame %d: got %d bytes %x..., want %d bytes", i, len(got), got[:17], len(want))
		}
	}

	// Peer to device: our own writes above must not come back.
	in := [][]byte{testFrame('r', 1, 60), testFrame('r', 2, 999), testFrame('r', 3, 2014)}
	for _, f := range in {
		peer.send(t, f)
	}
	got := readTest(t, d, len(in), radio.MaxFrame)
	for i := range in {
		if !bytes.Equal(got[i], in[i]) {
			t.Fatalf("device frame %d: got %x..., want tag r seq %d", i, got[i][:17], i+1)
		}
	}

	// Another socket on air0 sends: the kernel hands a copy to our receive
	// socket as PACKET_OUTGOING, which must be dropped. The marker sent by
	// the peer afterwards must be the next test frame the device returns.
	other := openRaw(t, "air0")
	other.send(t, testFrame('o', 1, 60))
	if f := peer.next(t); f[14] != 'o' {
		t.Fatalf("peer got tag %q, want the other socket's frame", f[14])
	}
	peer.send(t, testFrame('m', 1, 60))
	if got := readTest(t, d, 1, radio.MaxFrame); got[0][14] != 'm' {
		t.Fatalf("device returned tag %q, want the marker (an outgoing copy leaked)", got[0][14])
	}

	// Truncation.
	peer.send(t, testFrame('t', 1, 1000))
	if got := readTest(t, d, 1, 100); len(got[0]) != 100 || got[0][14] != 't' {
		t.Fatalf("truncated frame: %d bytes tag %q, want 100 bytes", len(got[0]), got[0][14])
	}

	// Above the MTU: refused, counted, nothing sent.
	if n, err := d.WriteBatch([][]byte{testFrame('x', 1, 3000)}); n != 0 || !errors.Is(err, unix.EMSGSIZE) {
		t.Fatalf("oversized WriteBatch = %d, %v; want 0, EMSGSIZE", n, err)
	}

	s := d.Stats()
	if s.TxFrames != 3 || s.TxErrors != 1 || s.RxTruncated != 1 || s.RxFrames < 5 || s.KernelPackets < s.RxFrames {
		t.Errorf("stats = %+v", s)
	}
	t.Logf("stats: %+v", s)
}

func TestIntegrationCloseUnblocksRead(t *testing.T) {
	netnstest.Enter(t)
	vethPair(t, "air0", "air1")
	d, err := Open("air0", Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
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
		if !errors.Is(err, radio.ErrClosed) {
			t.Fatalf("ReadBatch after Close = %v, want radio.ErrClosed", err)
		}
	case <-time.After(timeout):
		t.Fatal("Close did not unblock ReadBatch")
	}
	if _, err := d.WriteBatch([][]byte{testFrame('c', 1, 60)}); !errors.Is(err, radio.ErrClosed) {
		t.Fatalf("WriteBatch after Close = %v, want radio.ErrClosed", err)
	}
}

func TestIntegrationOpenMissing(t *testing.T) {
	netnstest.Enter(t)
	if _, err := Open("nosuch0", Options{}); err == nil || !errors.Is(err, unix.ENODEV) {
		t.Fatalf("Open(nosuch0) = %v, want ENODEV", err)
	}
}
