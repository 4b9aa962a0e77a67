package tap

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// ReadBatch blocks until the host sends at least one frame, then reads up to
// min(len(bufs), len(sizes), MaxBatch) frames without blocking further: frame
// i goes to bufs[i][:cap(bufs[i])] and its length to sizes[i]. Give buffers
// of at least MTU+18 bytes (Ethernet header and a VLAN tag); longer frames
// are truncated and counted.
func (d *Device) ReadBatch(bufs [][]byte, sizes []int) (int, error) {
	n := min(len(bufs), len(sizes), MaxBatch)
	if d.closed.Load() {
		return 0, ErrClosed
	}
	if n == 0 {
		return 0, nil
	}
	d.rxMu.Lock()
	defer d.rxMu.Unlock()
	r := &d.rd
	r.bufs, r.sizes, r.got, r.err = bufs[:n], sizes[:n], 0, nil
	err := d.rc.Read(r.readFn)
	got, rerr := r.got, r.err
	r.bufs, r.sizes = nil, nil
	if r.gso > 0 || r.bad > 0 {
		d.c.rxGSO.Add(r.gso)
		d.c.rxBadOffload.Add(r.bad)
		r.gso, r.bad = 0, 0
	}
	if err == nil {
		err = rerr
	}
	if got > 0 {
		d.account(sizes[:got], bufs[:got])
		return got, nil // a read error after frames surfaces on the next call
	}
	if err != nil {
		return 0, d.ioError("read", err)
	}
	return 0, nil
}

func (d *Device) account(sizes []int, bufs [][]byte) {
	var bytes, trunc uint64
	for i, s := range sizes {
		if c := cap(bufs[i]); s > c {
			sizes[i] = c
			trunc++
		}
		bytes += uint64(sizes[i])
	}
	d.c.rxFrames.Add(uint64(len(sizes)))
	d.c.rxBytes.Add(bytes)
	if trunc > 0 {
		d.c.rxTruncated.Add(trunc)
	}
}

// reader holds one ReadBatch's state for the netpoller callback, and, with
// vnet headers, the GSO frame being cut, which may span calls.
type reader struct {
	bufs   [][]byte
	sizes  []int
	got    int
	err    error
	readFn func(fd uintptr) bool // r.read, bound once

	vnet     bool
	hdr      [vnetHdrLen]byte
	iovs     [3]unix.Iovec
	spill    []byte // a GSO frame is gathered here: up to 64 KiB and headers
	seg      segmenter
	gso, bad uint64 // counted during one call
}

// spillLen holds the largest frame tun hands over with TSO.
const spillLen = 65536 + 256

func (r *reader) init(vnet bool) {
	r.readFn = r.read
	r.vnet = vnet
	if vnet {
		r.spill = make([]byte, spillLen)
		r.iovs[0].Base = &r.hdr[0]
		r.iovs[0].SetLen(vnetHdrLen)
	}
}

// read reads frames until the batch is full or the queue is empty. It asks
// the netpoller to wait only when it has read nothing.
func (r *reader) read(fd uintptr) bool {
	for r.got < len(r.bufs) {
		b := r.bufs[r.got]
		b = b[:cap(b)]
		if r.seg.pending {
			r.sizes[r.got], _ = r.seg.next(b)
			r.got++
			continue
		}
		var n int
		var err error
		if r.vnet {
			n, err = r.readv(int(fd), b)
		} else {
			n, err = unix.Read(int(fd), b)
		}
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			return r.got > 0
		case err != nil:
			r.err = err
			return true
		}
		if !r.vnet {
			// tun reports a frame's full length even when it copied less.
			r.sizes[r.got] = n
			r.got++
			continue
		}
		r.take(b, n-vnetHdrLen)
	}
	return true
}

// readv reads the vnet header, then the frame into b and what does not fit
// into the spill buffer past len(b), so that a frame that fits costs no copy.
// Raw: the descriptor is non-blocking (see the package comment).
func (r *reader) readv(fd int, b []byte) (int, error) {
	iov := r.iovs[:2]
	r.iovs[1].Base = nil
	if len(b) > 0 {
		r.iovs[1].Base = &b[0]
	}
	r.iovs[1].SetLen(len(b))
	if len(b) < len(r.spill) {
		r.iovs[2].Base = &r.spill[len(b)]
		r.iovs[2].SetLen(len(r.spill) - len(b))
		iov = r.iovs[:3]
	}
	n, _, errno := unix.RawSyscall(unix.SYS_READV, uintptr(fd), uintptr(unsafe.Pointer(&iov[0])), uintptr(len(iov)))
	r.iovs[1].Base, r.iovs[2].Base = nil, nil
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

// take accepts the frame of m bytes just read into b (and the spill): a
// plain frame is returned as it is, its checksum finished if tun left it
// partial; a GSO frame is gathered in the spill buffer for the segmenter.
func (r *reader) take(b []byte, m int) {
	h := decodeVnetHdr(r.hdr[:])
	switch {
	case m < 0:
		r.bad++
	case h.gsoType&^gsoECN == gsoNone:
		if m <= len(b) {
			if checkCsum(h, b[:m]) != nil {
				r.bad++
				return
			}
			finishCsum(h, b[:m])
		}
		r.sizes[r.got] = m
		r.got++
	case m > len(r.spill):
		r.bad++
	default:
		copy(r.spill[:m], b[:min(m, len(b))])
		if r.seg.reset(h, r.spill[:m]) != nil {
			r.bad++
			return
		}
		r.gso++
	}
}

// WriteBatch sends each frame in bufs to the host's network stack and returns
// how many the kernel accepted; on an error the frames from that count on
// were not sent. It does not retain bufs.
func (d *Device) WriteBatch(bufs [][]byte) (int, error) {
	if d.closed.Load() {
		return 0, ErrClosed
	}
	d.txMu.Lock()
	defer d.txMu.Unlock()
	w := &d.wr
	w.bufs, w.sent, w.err, w.plain = bufs, 0, nil, 0
	err := d.rc.Write(w.writeFn)
	sent, werr := w.sent, w.err
	var bytes uint64
	for _, b := range bufs[:sent] {
		bytes += uint64(len(b))
	}
	w.bufs = nil
	if w.merged > 0 {
		d.c.txGSO.Add(w.merged)
		w.merged = 0
	}
	d.c.txFrames.Add(uint64(sent))
	d.c.txBytes.Add(bytes)
	if err == nil {
		err = werr
	}
	if err != nil {
		d.c.txErrors.Add(1)
		return sent, d.ioError("write", err)
	}
	return sent, nil
}

type writer struct {
	bufs    [][]byte
	sent    int
	err     error
	writeFn func(fd uintptr) bool

	vnet   bool
	gro    bool             // merge TCP segments (the kernel takes GSO frames)
	zero   [vnetHdrLen]byte // no offload asked of the kernel
	iovs   [2]unix.Iovec
	co     coalescer
	plain  int    // frames before this index go unmerged: a merged write failed
	merged uint64 // merged frames written during one call
}

func (w *writer) init(vnet bool) {
	w.writeFn = w.write
	w.vnet, w.gro = vnet, vnet
	if vnet {
		w.co = newCoalescer()
	}
}

func (w *writer) write(fd uintptr) bool {
	for w.sent < len(w.bufs) {
		var err error
		k := 1
		switch {
		case !w.vnet:
			_, err = unix.Write(int(fd), w.bufs[w.sent])
		case w.gro && w.sent >= w.plain:
			var merged []byte
			if k, merged = w.co.merge(w.bufs[w.sent:]); k > 1 {
				err = w.writev(int(fd), w.co.hdr[:], merged)
				break
			}
			fallthrough
		default:
			err = w.writev(int(fd), w.zero[:], w.bufs[w.sent])
		}
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			return false
		case err != nil && k > 1:
			w.plain = w.sent + k // try those one by one
			continue
		case err != nil:
			w.err = err
			return true
		}
		if k > 1 {
			w.merged++
		}
		w.sent += k
	}
	return true
}

// writev writes frame b behind the vnet header h in one call. Raw: the
// descriptor is non-blocking (see the package comment).
func (w *writer) writev(fd int, h, b []byte) error {
	w.iovs[0].Base = &h[0]
	w.iovs[0].SetLen(len(h))
	w.iovs[1].Base = nil
	if len(b) > 0 {
		w.iovs[1].Base = &b[0]
	}
	w.iovs[1].SetLen(len(b))
	_, _, errno := unix.RawSyscall(unix.SYS_WRITEV, uintptr(fd), uintptr(unsafe.Pointer(&w.iovs[0])), 2)
	w.iovs[0].Base, w.iovs[1].Base = nil, nil
	if errno != 0 {
		return errno
	}
	return nil
}
