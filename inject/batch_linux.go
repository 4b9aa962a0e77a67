package inject

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// ReadBatch blocks until at least one frame is available, then reads up to
// min(len(bufs), len(sizes), MaxBatch) frames without blocking further: frame
// i goes to bufs[i][:cap(bufs[i])] and its length to sizes[i]. Frames longer
// than the buffer are truncated and counted. Outgoing copies are discarded.
func (d *Device) ReadBatch(bufs [][]byte, sizes []int) (int, error) {
	n := min(len(bufs), len(sizes), MaxBatch)
	if d.closed.Load() {
		return 0, d.ioError("read", nil)
	}
	if n == 0 {
		return 0, nil
	}
	if d.ring != nil {
		return d.readRing(bufs, sizes, false)
	}
	d.rxMu.Lock()
	defer d.rxMu.Unlock()
	r := &d.rb
	r.start(bufs[:n], sizes[:n], &d.c)
	err := d.rxRC.Read(r.pollFn)
	if err == nil && r.err != nil {
		err = os.NewSyscallError("recvmmsg", r.err)
	}
	k := r.kept
	r.finish()
	if err != nil {
		return 0, d.ioError("read", err)
	}
	return k, nil
}

// rxBatch holds the recvmmsg arguments, allocated once per device.
type rxBatch struct {
	hdrs  [MaxBatch]unix.Mmsghdr
	iovs  [MaxBatch]unix.Iovec
	addrs [MaxBatch]unix.RawSockaddrLinklayer

	// Set for the duration of one ReadBatch.
	bufs  [][]byte
	sizes []int
	c     *counters
	kept  int

	err    error
	pollFn func(fd uintptr) bool // r.poll, bound once: a call allocates nothing
}

func (r *rxBatch) init() {
	for i := range r.hdrs {
		r.hdrs[i].Hdr.Name = (*byte)(unsafe.Pointer(&r.addrs[i]))
		r.hdrs[i].Hdr.Iov = &r.iovs[i]
		r.hdrs[i].Hdr.Iovlen = 1
	}
	r.pollFn = r.poll
}

// poll is the netpoller's callback: done unless the socket has nothing yet.
func (r *rxBatch) poll(fd uintptr) bool {
	r.err = r.read(int(fd))
	return !retry(r.err)
}

// retry reports an error after which the netpoller waits and calls again.
func retry(err error) bool { return err == unix.EAGAIN || err == unix.EINTR }

func (r *rxBatch) start(bufs [][]byte, sizes []int, c *counters) {
	r.bufs, r.sizes, r.c, r.kept, r.err = bufs, sizes, c, 0, nil
	for i, b := range bufs {
		b = b[:cap(b)]
		r.iovs[i].Base = nil
		if len(b) > 0 {
			r.iovs[i].Base = &b[0]
		}
		r.iovs[i].SetLen(len(b))
	}
}

// finish drops the references to the caller's buffers.
func (r *rxBatch) finish() {
	for i := range r.bufs {
		r.iovs[i].Base = nil
	}
	r.bufs, r.sizes, r.c = nil, nil, nil
}

// read is called by the netpoller until it returns something other than
// EAGAIN: one non-blocking recvmmsg, repeated while it yields only outgoing
// copies. Raw: the call never sleeps (see the package comment).
func (r *rxBatch) read(fd int) error {
	for {
		n := len(r.bufs)
		for i := range n {
			r.hdrs[i].Hdr.Namelen = unix.SizeofSockaddrLinklayer
			r.hdrs[i].Hdr.Flags = 0
			r.hdrs[i].Len = 0
		}
		got, _, errno := unix.RawSyscall6(unix.SYS_RECVMMSG, uintptr(fd), uintptr(unsafe.Pointer(&r.hdrs[0])),
			uintptr(n), unix.MSG_DONTWAIT|unix.MSG_TRUNC, 0, 0)
		if errno != 0 {
			return errno
		}
		if r.kept = r.collect(int(got)); r.kept > 0 {
			return nil
		}
	}
}

// collect records the got frames just received, moving frames down over
// discarded outgoing copies, and returns how many it kept.
func (r *rxBatch) collect(got int) int {
	k := 0
	var bytes, trunc, outgoing uint64
	for i := range got {
		if r.addrs[i].Pkttype == unix.PACKET_OUTGOING {
			outgoing++
			continue
		}
		size := int(r.hdrs[i].Len) // the frame's full length: MSG_TRUNC
		room := int(r.iovs[i].Len)
		if size > room || r.hdrs[i].Hdr.Flags&unix.MSG_TRUNC != 0 {
			size = room
			trunc++
		}
		if k != i {
			size = copy(r.bufs[k][:cap(r.bufs[k])], r.bufs[i][:size])
		}
		r.sizes[k] = size
		bytes += uint64(size)
		k++
	}
	r.c.received(uint64(k), bytes, trunc, outgoing)
	return k
}

// WriteBatch injects bufs in order, up to MaxBatch frames, and returns how
// many the kernel accepted. On an error the frames from the returned count on
// were not sent; the error names the failing frame's cause (EMSGSIZE for a
// frame above the MTU, ENETDOWN, ...). It does not retain bufs.
func (d *Device) WriteBatch(bufs [][]byte) (int, error) {
	n := min(len(bufs), MaxBatch)
	if d.closed.Load() {
		return 0, d.ioError("write", nil)
	}
	if n == 0 {
		return 0, nil
	}
	d.txMu.Lock()
	defer d.txMu.Unlock()
	t := &d.tb
	t.start(bufs[:n])
	err := d.txRC.Write(t.pollFn)
	if err == nil && t.err != nil {
		err = os.NewSyscallError("sendmmsg", t.err)
	}
	sent := t.sent
	var bytes uint64
	for _, b := range bufs[:sent] {
		bytes += uint64(len(b))
	}
	t.finish()
	d.c.txFrames.Add(uint64(sent))
	d.c.txBytes.Add(bytes)
	if err != nil {
		d.c.txErrors.Add(1)
		return sent, d.ioError("write", err)
	}
	return sent, nil
}

// txBatch holds the sendmmsg arguments, allocated once per device.
type txBatch struct {
	hdrs    [MaxBatch]unix.Mmsghdr
	iovs    [MaxBatch]unix.Iovec
	n, sent int
	err     error
	pollFn  func(fd uintptr) bool // t.poll, bound once: a call allocates nothing
}

func (t *txBatch) init() {
	for i := range t.hdrs {
		t.hdrs[i].Hdr.Iov = &t.iovs[i]
		t.hdrs[i].Hdr.Iovlen = 1
	}
	t.pollFn = t.poll
}

// poll is the netpoller's callback: done unless the socket is full.
func (t *txBatch) poll(fd uintptr) bool {
	t.err = t.write(int(fd))
	return !retry(t.err)
}

func (t *txBatch) start(bufs [][]byte) {
	t.n, t.sent, t.err = len(bufs), 0, nil
	for i, b := range bufs {
		t.iovs[i].Base = nil
		if len(b) > 0 {
			t.iovs[i].Base = &b[0]
		}
		t.iovs[i].SetLen(len(b))
	}
}

func (t *txBatch) finish() {
	for i := range t.n {
		t.iovs[i].Base = nil
	}
}

// write sends what is left of the batch; sendmmsg may stop early, and an
// error is reported only for the first message it could not send. Raw: the
// call never sleeps (see the package comment).
func (t *txBatch) write(fd int) error {
	for t.sent < t.n {
		got, _, errno := unix.RawSyscall6(unix.SYS_SENDMMSG, uintptr(fd), uintptr(unsafe.Pointer(&t.hdrs[t.sent])),
			uintptr(t.n-t.sent), unix.MSG_DONTWAIT, 0, 0)
		if errno != 0 {
			return errno
		}
		t.sent += int(got)
	}
	return nil
}
