package inject

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
	"time"
	"unsafe"

	"github.com/airq/airq/internal/netnstest"
	"github.com/airq/airq/radio"
	"golang.org/x/sys/unix"
)

// Fake ring geometry: two 96-byte slots to a 256-byte block, so the walk
// must skip each block's tail, and four blocks.
const (
	fakeFrame  = 96
	fakeBlock  = 256
	fakeBlocks = 4
	fakeMac    = 64
)

// fakeRing is a ring over a plain buffer, filled by the test in the kernel's
// place.
type fakeRing struct {
	t    *testing.T
	r    *ring
	c    counters
	take ringTake
	seq  uint64 // the next slot the "kernel" fills
}

func newFakeRing(t *testing.T) *fakeRing {
	f := &fakeRing{t: t, r: newRing(make([]byte, fakeBlocks*fakeBlock), fakeFrame, fakeBlock, fakeBlocks)}
	f.take.init(f.r, &f.c)
	return f
}

// fill puts payload in the next slot, as the kernel does only when the slot
// is its own; it reports false (a drop) otherwise.
func (f *fakeRing) fill(payload string, pkttype uint8) bool {
	s := f.r.slot(f.seq)
	if binary.NativeEndian.Uint32(s[slotStatus:]) != statusKernel {
		return false
	}
	fakeSlot(s, statusUser, uint32(len(payload)), fakeMac, pkttype, []byte(payload))
	f.seq++
	return true
}

// read takes up to n frames as views or copies and returns them as strings.
func (f *fakeRing) read(n int, views bool) ([]string, bool) {
	bufs, sizes := make([][]byte, n), make([]int, n)
	for i := range bufs {
		bufs[i] = make([]byte, fakeFrame)
	}
	t := &f.take
	t.bufs, t.sizes, t.views = bufs, sizes, views
	k, blocked := t.take()
	out := make([]string, k)
	for i := range k {
		out[i] = string(bufs[i][:sizes[i]])
	}
	return out, blocked
}

func (f *fakeRing) status(seq uint64) uint32 {
	return binary.NativeEndian.Uint32(f.r.slot(seq)[slotStatus:])
}

// TestRingWalk: slots are taken in the kernel's order across blocks and
// laps, each copied frame's slot goes straight back to the kernel, and an
// empty slot ends the walk.
func TestRingWalk(t *testing.T) {
	f := newFakeRing(t)
	if f.r.slots != 8 {
		t.Fatalf("%d slots, want 8", f.r.slots)
	}
	offsets := []int{0, 96, 256, 352, 512, 608, 768, 864}
	for i, want := range offsets {
		s := f.r.slot(uint64(i))
		if got := int(uintptr(unsafe.Pointer(&s[0])) - uintptr(unsafe.Pointer(&f.r.mem[0]))); got != want || len(s) != fakeFrame {
			t.Errorf("slot %d at %d, want %d", i, got, want)
		}
	}
	var want []string
	for lap := range 3 {
		want = want[:0]
		for i := range 5 + lap { // laps of 5, 6, 7 frames: the walk wraps mid-batch
			p := fmt.Sprintf("lap%d-%d", lap, i)
			if !f.fill(p, unix.PACKET_HOST) {
				t.Fatalf("slot of %s not free", p)
			}
			want = append(want, p)
		}
		got, blocked := f.read(16, false)
		if blocked || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("lap %d: read %v (blocked %v), want %v", lap, got, blocked, want)
		}
		for s := range uint64(f.r.slots) {
			if f.status(s) != statusKernel {
				t.Fatalf("lap %d: slot %d not handed back", lap, s)
			}
		}
	}
	if got, _ := f.read(4, false); len(got) != 0 {
		t.Fatalf("empty ring read %v", got)
	}
	if n := f.c.rxFrames.Load(); n != 18 {
		t.Errorf("rxFrames = %d, want 18", n)
	}
}

// TestRingViewsHeld: a view's slot stays the reader's until released, so the
// kernel drops rather than overwrite it, the reader never takes it a lap
// later as new, and release hands slots back oldest first.
func TestRingViewsHeld(t *testing.T) {
	f := newFakeRing(t)
	for i := range 8 {
		f.fill(fmt.Sprint("v", i), unix.PACKET_HOST)
	}
	got, _ := f.read(3, true)
	if fmt.Sprint(got) != "[v0 v1 v2]" {
		t.Fatalf("views %v", got)
	}
	if f.fill("dropped", unix.PACKET_HOST) {
		t.Fatal("kernel filled a held slot")
	}
	got, _ = f.read(8, true)
	if fmt.Sprint(got) != "[v3 v4 v5 v6 v7]" || f.r.holding() != 8 {
		t.Fatalf("views %v, holding %d", got, f.r.holding())
	}
	// Every slot is held: the head is the oldest view, not a new frame.
	if got, blocked := f.read(8, true); len(got) != 0 || !blocked {
		t.Fatalf("read %v, blocked %v with every slot held", got, blocked)
	}
	f.r.release(2)
	if f.status(0) != statusKernel || f.status(1) != statusKernel || f.status(2) != statusUser {
		t.Fatalf("statuses after release(2): %d %d %d", f.status(0), f.status(1), f.status(2))
	}
	// The head's slot is free but empty: nothing to read, not blocked.
	if got, blocked := f.read(8, true); len(got) != 0 || blocked {
		t.Fatalf("read %v, blocked %v after a release", got, blocked)
	}
	f.fill("n0", unix.PACKET_HOST)
	f.fill("n1", unix.PACKET_HOST)
	if f.fill("n2", unix.PACKET_HOST) {
		t.Fatal("kernel filled slot 2, still held")
	}
	got, _ = f.read(8, true)
	if fmt.Sprint(got) != "[n0 n1]" {
		t.Fatalf("views %v", got)
	}
	f.r.release(100) // more than held: all of them
	if f.r.holding() != 0 {
		t.Fatalf("holding %d after releasing everything", f.r.holding())
	}
	for s := range uint64(8) {
		if f.status(s) != statusKernel {
			t.Fatalf("slot %d still held", s)
		}
	}
}

// TestRingSkips: outgoing copies and slots whose header points outside them
// go back to the kernel at once, counted; a frame the slot cut counts as
// truncated, an echo the filter cut does not.
func TestRingSkips(t *testing.T) {
	f := newFakeRing(t)
	f.fill("out", unix.PACKET_OUTGOING)
	f.fill("in", unix.PACKET_HOST)
	s := f.r.slot(f.seq)
	f.fill("bad", unix.PACKET_HOST)
	binary.NativeEndian.PutUint16(s[slotMac:], fakeFrame) // a frame past the slot's end
	long := bytes.Repeat([]byte{'L'}, fakeFrame-fakeMac)
	s = f.r.slot(f.seq)
	f.fill(string(long), unix.PACKET_HOST)
	binary.NativeEndian.PutUint32(s[slotLen:], 1500) // the slot cut it
	s = f.r.slot(f.seq)
	f.fill("echo", unix.PACKET_HOST)
	binary.NativeEndian.PutUint32(s[slotLen:], 1500) // the filter's snap cut it

	got, _ := f.read(8, true)
	if len(got) != 3 || got[0] != "in" || got[1] != string(long) || got[2] != "echo" {
		t.Fatalf("views %q", got)
	}
	if f.status(0) != statusKernel || f.status(2) != statusKernel || f.status(1) != statusUser {
		t.Errorf("skipped slots not handed back: %d %d %d", f.status(0), f.status(1), f.status(2))
	}
	c := &f.c
	if c.rxOutgoing.Load() != 1 || c.rxBadSlots.Load() != 1 || c.rxTruncated.Load() != 1 || c.rxFrames.Load() != 3 {
		t.Errorf("outgoing %d bad %d truncated %d frames %d", c.rxOutgoing.Load(), c.rxBadSlots.Load(),
			c.rxTruncated.Load(), c.rxFrames.Load())
	}
}

// openRingPair opens a Device with a receive ring on air0 and a raw socket
// on its peer air1.
func openRingPair(tb testing.TB, readBuffer int) (*Device, *rawSocket) {
	tb.Helper()
	netnstest.Enter(tb)
	vethPair(tb, "air0", "air1")
	d, err := Open("air0", Options{ReadBuffer: readBuffer})
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { d.Close() })
	if slots, why := d.Ring(); slots == 0 {
		tb.Fatalf("no receive ring: %v", why)
	}
	netnstest.WaitRunning(tb, "air0", "air1")
	return d, openRaw(tb, "air1")
}

// readViews reads views until it has want test frames, releasing the rest.
func readViews(tb testing.TB, d *Device, want int) [][]byte {
	tb.Helper()
	views, sizes := make([][]byte, 8), make([]int, 8)
	var out [][]byte
	for len(out) < want {
		n, err := d.ReadViews(views, sizes)
		if err != nil {
			tb.Fatalf("ReadViews: %v", err)
		}
		for i := range n {
			if len(views[i]) != sizes[i] {
				tb.Fatalf("view %d of %d bytes, size %d", i, len(views[i]), sizes[i])
			}
			if isTest(views[i]) {
				out = append(out, views[i])
			}
		}
	}
	return out
}

// TestIntegrationRingViews: frames read as views of the ring stay intact
// while held, whatever arrives after them, and the ring takes frames again
// once they are released.
func TestIntegrationRingViews(t *testing.T) {
	d, peer := openRingPair(t, 1<<20) // 16 blocks, 80 slots
	slots, _ := d.Ring()
	if slots != 80 {
		t.Fatalf("%d slots, want 80", slots)
	}
	first := [][]byte{testFrame('h', 1, 60), testFrame('h', 2, 1500)}
	for _, f := range first {
		peer.send(t, f)
	}
	held := readViews(t, d, len(first))
	for i := range 20 {
		peer.send(t, testFrame('n', uint16(i), 1500))
	}
	if got := readViews(t, d, 20); got[19][14] != 'n' {
		t.Fatalf("frame after the held ones: tag %q", got[19][14])
	}
	for i := range first {
		if !bytes.Equal(held[i], first[i]) {
			t.Fatalf("held view %d changed: %x...", i, held[i][:17])
		}
	}
	d.Release(slots) // everything read so far
	// Several laps of the ring, released batch by batch.
	for i := range 3 * slots {
		peer.send(t, testFrame('l', uint16(i), 200))
		got := readViews(t, d, 1)
		if binary.BigEndian.Uint16(got[0][15:]) != uint16(i) {
			t.Fatalf("lap frame %d: got seq %d", i, binary.BigEndian.Uint16(got[0][15:]))
		}
		d.Release(slots)
	}
	if s := d.Stats(); s.KernelDrops != 0 || s.RxBadSlots != 0 {
		t.Errorf("stats %+v", s)
	}
}

// TestIntegrationNoRing: without a ring, Ring says why and ReadViews refuses.
func TestIntegrationNoRing(t *testing.T) {
	netnstest.Enter(t)
	vethPair(t, "air0", "air1")
	d, err := Open("air0", Options{NoRing: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if slots, why := d.Ring(); slots != 0 || why == nil {
		t.Fatalf("Ring() = %d, %v; want 0 and a reason", slots, why)
	}
	if _, err := d.ReadViews(make([][]byte, 1), make([]int, 1)); !errors.Is(err, ErrNoRing) {
		t.Fatalf("ReadViews = %v, want ErrNoRing", err)
	}
}

// TestIntegrationRingAllocs: a frame written, read as a view and released
// costs no allocation.
func TestIntegrationRingAllocs(t *testing.T) {
	tx, _ := openRingPair(t, 0)
	rx, err := Open("air1", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rx.Close()
	out := [][]byte{testFrame('a', 1, 256)}
	views, sizes := make([][]byte, 1), make([]int, 1)
	n := testing.AllocsPerRun(200, func() {
		if n, err := tx.WriteBatch(out); n != 1 || err != nil {
			t.Fatalf("WriteBatch = %d, %v", n, err)
		}
		if n, err := rx.ReadViews(views, sizes); n != 1 || err != nil {
			t.Fatalf("ReadViews = %d, %v", n, err)
		}
		rx.Release(1)
	})
	if n != 0 {
		t.Errorf("%v allocations per frame written, read as a view and released", n)
	}
}

// TestIntegrationRingInterfaceDown: the interface going down ends a read
// from the ring with the socket's error, waiting or not, as recvmmsg's
// would; an empty ring alone does not show it.
func TestIntegrationRingInterfaceDown(t *testing.T) {
	d, _ := openRingPair(t, 0)
	errc := make(chan error, 1)
	go func() {
		views, sizes := make([][]byte, 8), make([]int, 8)
		for {
			n, err := d.ReadViews(views, sizes)
			if err != nil {
				errc <- err
				return
			}
			d.Release(n)
		}
	}()
	netnstest.IP(t, "link", "set", "air0", "down")
	select {
	case err := <-errc:
		if !errors.Is(err, unix.ENETDOWN) {
			t.Fatalf("ReadViews = %v, want ENETDOWN", err)
		}
	case <-time.After(timeout):
		t.Fatal("ReadViews still waiting after the interface went down")
	}
}

// TestRingSlotHoldsMaxFrame: a slot holds the longest frame a radio hands
// over after the header, the address and the alignment the kernel puts
// before a monitor's frames, and the blocks hold whole slots.
func TestRingSlotHoldsMaxFrame(t *testing.T) {
	const macOffset = 80 // TPACKET_ALIGN(TPACKET2_HDRLEN + 16)
	if ringFrameSize-macOffset < radio.MaxFrame || ringFrameSize%16 != 0 || ringBlockSize < ringFrameSize {
		t.Fatalf("slot %d bytes, block %d: radio.MaxFrame %d does not fit", ringFrameSize, ringBlockSize, radio.MaxFrame)
	}
}
