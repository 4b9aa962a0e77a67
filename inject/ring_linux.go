package inject

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/mdlayher/socket"
	"golang.org/x/sys/unix"
)

const (
	// ringFrameSize is a slot: the tpacket2 header, the address and the
	// frame, which starts at most 80 bytes in for a monitor's frames
	// (TPACKET_ALIGN(TPACKET2_HDRLEN + 16)), so radio.MaxFrame fits whole.
	ringFrameSize = 12288
	// ringBlockSize holds five slots; the kernel allocates the ring in
	// blocks of contiguous pages.
	ringBlockSize = 64 << 10
)

// ErrNoRing is returned by ReadViews on a device without a receive ring.
var ErrNoRing = errors.New("inject: no receive ring")

// errRingHeld: every slot up to the next frame is held as a view.
var errRingHeld = errors.New("receive ring: every slot is held; release views first")

// setupRing switches c to TPACKET_V2 and maps a receive ring of about
// bytes. On an error the socket is left as it was, for recvmmsg.
func setupRing(c *socket.Conn, bytes int) (*ring, error) {
	if os.Getpagesize() > ringBlockSize {
		return nil, fmt.Errorf("page size %d above the ring's block", os.Getpagesize())
	}
	rc, err := c.SyscallConn()
	if err != nil {
		return nil, err
	}
	blocks := max(bytes/ringBlockSize, 1)
	perBlock := ringBlockSize / ringFrameSize
	req := unix.TpacketReq{Block_size: ringBlockSize, Block_nr: uint32(blocks),
		Frame_size: ringFrameSize, Frame_nr: uint32(blocks * perBlock)}
	var mem []byte
	cerr := rc.Control(func(fd uintptr) {
		s := int(fd)
		if err = unix.SetsockoptInt(s, unix.SOL_PACKET, unix.PACKET_VERSION, unix.TPACKET_V2); err != nil {
			err = fmt.Errorf("PACKET_VERSION TPACKET_V2: %w", err)
			return
		}
		if err = unix.SetsockoptTpacketReq(s, unix.SOL_PACKET, unix.PACKET_RX_RING, &req); err != nil {
			err = fmt.Errorf("PACKET_RX_RING of %d bytes: %w", blocks*ringBlockSize, err)
			return
		}
		mem, err = unix.Mmap(s, 0, blocks*ringBlockSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
		if err != nil {
			err = fmt.Errorf("mmap of the receive ring: %w", err)
			// No blocks: the kernel frees the ring and queues to the socket again.
			_ = unix.SetsockoptTpacketReq(s, unix.SOL_PACKET, unix.PACKET_RX_RING, &unix.TpacketReq{})
		}
	})
	if err = errors.Join(cerr, err); err != nil {
		return nil, err
	}
	return newRing(mem, ringFrameSize, ringBlockSize, blocks), nil
}

// Ring reports the receive ring's slots, or 0 and why the device reads with
// recvmmsg instead.
func (d *Device) Ring() (slots int, why error) {
	if d.ring == nil {
		return 0, d.ringErr
	}
	return d.ring.slots, nil
}

// ReadViews is ReadBatch without the copy: views[i] is set to frame i in
// the receive ring, where it stays valid and unchanged until Release hands
// its slot back, oldest first. Held slots are slots the kernel cannot fill:
// hold fewer than Ring's slots by at least a batch, or ReadViews fails.
// Views are invalid after Close. Without a ring it returns ErrNoRing.
func (d *Device) ReadViews(views [][]byte, sizes []int) (int, error) {
	if d.ring == nil {
		return 0, ErrNoRing
	}
	return d.readRing(views, sizes, true)
}

// Release hands the n oldest frames ReadViews returned back to the kernel.
// It may run beside a ReadViews in another goroutine.
func (d *Device) Release(n int) {
	if d.ring == nil {
		return
	}
	d.ringMu.Lock()
	if !d.closed.Load() {
		d.ring.release(n)
	}
	d.ringMu.Unlock()
}

func (d *Device) readRing(bufs [][]byte, sizes []int, views bool) (int, error) {
	n := min(len(bufs), len(sizes), MaxBatch)
	if d.closed.Load() {
		return 0, d.ioError("read", nil)
	}
	if n == 0 {
		return 0, nil
	}
	d.rxMu.Lock()
	defer d.rxMu.Unlock()
	if d.closed.Load() { // Close may have unmapped the ring meanwhile
		return 0, d.ioError("read", nil)
	}
	t := &d.rt
	t.bufs, t.sizes, t.views, t.kept, t.blocked = bufs[:n], sizes[:n], views, 0, false
	err := d.rxRC.Read(t.pollFn)
	for errors.Is(err, os.ErrDeadlineExceeded) {
		if err = d.socketError(); err == nil {
			err = d.rx.SetReadDeadline(time.Now().Add(ringErrorCheck))
		}
		if err == nil {
			err = d.rxRC.Read(t.pollFn)
		}
	}
	k := t.kept
	t.bufs, t.sizes = nil, nil
	if err == nil && k == 0 && t.blocked {
		err = errRingHeld
	}
	if err != nil {
		return 0, d.ioError("read", err)
	}
	return k, nil
}

// ringTake holds one ReadViews or ReadBatch call's arguments, for the
// netpoller's callback bound once.
type ringTake struct {
	r       *ring
	c       *counters
	bufs    [][]byte
	sizes   []int
	views   bool
	kept    int
	blocked bool
	pollFn  func(fd uintptr) bool
	soError sockopt // SO_ERROR of the receive socket (Device.socketError)
}

func (t *ringTake) init(r *ring, c *counters) {
	t.r, t.c = r, c
	t.pollFn = t.poll
	t.soError.init(unix.SOL_SOCKET, unix.SO_ERROR)
}

// poll is the netpoller's callback: done once a frame was taken (or the
// ring is blocked by held views); otherwise the netpoller waits for the
// kernel's wake-up, which comes with every frame it puts in the ring.
func (t *ringTake) poll(uintptr) bool {
	t.kept, t.blocked = t.take()
	return t.kept > 0 || t.blocked
}

// ringErrorCheck is how often a ring reader asks the socket for its error.
// The ring says nothing of the socket itself: when the interface goes down
// or away the kernel only sets the socket's error (which recvmmsg would
// return) and wakes the reader once, a wake-up that a reader busy with the
// core's batch misses. Asking on every empty ring would cost a system call
// per wake-up; a read deadline, moved on each time it passes, asks once per
// period instead, and the error ends the read within it.
const ringErrorCheck = time.Second

// socketError returns the receive socket's pending error (SO_ERROR, which
// reading clears), as a read would have.
func (d *Device) socketError() error {
	v, err := d.rt.soError.read(d.rxRC)
	if err == nil && len(v) >= 4 {
		if e := int32(binary.NativeEndian.Uint32(v)); e != 0 {
			err = unix.Errno(e)
		}
	}
	if err != nil {
		return os.NewSyscallError("receive ring", err)
	}
	return nil
}

// take walks the ring from its head for up to len(t.bufs) frames. Views
// are held; copies hand their slot straight back. Outgoing copies and slots
// whose header points outside them are handed back and counted. blocked
// means the head waits on a slot still held.
func (t *ringTake) take() (k int, blocked bool) {
	var bytes, trunc, outgoing, bad uint64
	r := t.r
	for k < len(t.bufs) {
		s, held := r.next()
		if s == nil {
			blocked = held
			break
		}
		frame, pkttype, cut, ok := slotFrame(s)
		switch {
		case !ok:
			bad++
			r.skip(s)
			continue
		case pkttype == pkttypeOutgoing:
			outgoing++
			r.skip(s)
			continue
		}
		if t.views {
			t.bufs[k] = frame
			r.hold()
		} else {
			b := t.bufs[k][:cap(t.bufs[k])]
			cut = cut || len(frame) > len(b)
			frame = frame[:copy(b, frame)]
			r.skip(s)
		}
		if cut {
			trunc++
		}
		t.sizes[k] = len(frame)
		bytes += uint64(len(frame))
		k++
	}
	t.c.received(uint64(k), bytes, trunc, outgoing)
	if bad > 0 {
		t.c.rxBadSlots.Add(bad)
	}
	return k, blocked
}
