package tap

import (
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

// reader holds one ReadBatch's state for the netpoller callback.
type reader struct {
	bufs   [][]byte
	sizes  []int
	got    int
	err    error
	readFn func(fd uintptr) bool // r.read, bound once
}

// read reads frames until the batch is full or the queue is empty. It asks
// the netpoller to wait only when it has read nothing.
func (r *reader) read(fd uintptr) bool {
	for r.got < len(r.bufs) {
		b := r.bufs[r.got]
		n, err := unix.Read(int(fd), b[:cap(b)])
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			return r.got > 0
		case err != nil:
			r.err = err
			return true
		}
		// tun reports a frame's full length even when it copied less.
		r.sizes[r.got] = n
		r.got++
	}
	return true
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
	w.bufs, w.sent, w.err = bufs, 0, nil
	if w.writeFn == nil {
		w.writeFn = w.write
	}
	err := d.rc.Write(w.writeFn)
	sent, werr := w.sent, w.err
	var bytes uint64
	for _, b := range bufs[:sent] {
		bytes += uint64(len(b))
	}
	w.bufs = nil
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
}

func (w *writer) write(fd uintptr) bool {
	for w.sent < len(w.bufs) {
		_, err := unix.Write(int(fd), w.bufs[w.sent])
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			return false
		case err != nil:
			w.err = err
			return true
		}
		w.sent++
	}
	return true
}
