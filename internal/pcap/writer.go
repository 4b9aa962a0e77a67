package pcap

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

const (
	magic        = 0xa1b2c3d4 // microsecond timestamps, written little-endian
	linkRadiotap = 127        // LINKTYPE_IEEE802_11_RADIOTAP
	// SnapLen is the longest frame recorded whole; longer ones are cut.
	SnapLen = 65535
	// FileHeader and RecordHeader are the format's fixed overheads, for
	// sizing a bound.
	FileHeader   = 24
	RecordHeader = 16
)

// Writer appends frames to a capture until it reaches its size bound; then
// it drops them and counts them, or, made by NewRotating, goes on in the
// next file of a ring. Write may be called from several goroutines (a
// radio's reader and its writer): a mutex orders the records. Frames are
// buffered; Close flushes.
//
// Lock order: mu only.
type Writer struct {
	mu      sync.Mutex
	out     io.WriteCloser // guarded by mu; nil once closed
	w       *bufio.Writer  // guarded by mu
	size    int64          // guarded by mu
	limit   int64
	err     error              // guarded by mu: the first write error stops the capture
	hdr     [RecordHeader]byte // guarded by mu: a local would escape through bufio
	written atomic.Uint64
	dropped atomic.Uint64 // over the size bound, after an error or after Close

	ring    ring   // NewRotating's files; zero: one file
	full    func() // guarded by mu: OnFull's, called once
	wasFull bool   // guarded by mu
}

// NewWriter writes the file header to out and returns a Writer that keeps
// the capture, headers included, within limit bytes. Close closes out.
func NewWriter(out io.WriteCloser, limit int64) (*Writer, error) {
	if limit < FileHeader {
		return nil, fmt.Errorf("pcap: a bound of %d bytes leaves no room for the %d-byte file header", limit, FileHeader)
	}
	p := &Writer{out: out, w: bufio.NewWriterSize(out, 64<<10), limit: limit}
	if err := p.fileHeaderLocked(); err != nil {
		return nil, fmt.Errorf("pcap: %w", err)
	}
	return p, nil
}

// fileHeaderLocked starts the current file.
func (p *Writer) fileHeaderLocked() error {
	var h [FileHeader]byte
	binary.LittleEndian.PutUint32(h[0:], magic)
	binary.LittleEndian.PutUint16(h[4:], 2) // version 2.4
	binary.LittleEndian.PutUint16(h[6:], 4)
	binary.LittleEndian.PutUint32(h[16:], SnapLen)
	binary.LittleEndian.PutUint32(h[20:], linkRadiotap)
	_, err := p.w.Write(h[:])
	p.size = FileHeader
	return err
}

// OnFull sets f, called once, from the Write that first drops a frame
// because the capture reached its bound (a rotating capture never does):
// the daemon says so when it happens, not only at exit. Set it before the
// first Write; f must not call the Writer.
func (p *Writer) OnFull(f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.full = f
}

// Write records frames (radiotap + 802.11 each) stamped t. It does not
// retain them and allocates nothing.
func (p *Writer) Write(t time.Time, frames ...[]byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, fr := range frames {
		p.recordLocked(t, fr)
	}
}

func (p *Writer) recordLocked(t time.Time, fr []byte) {
	n := min(len(fr), SnapLen)
	if p.out != nil && p.err == nil && p.size+RecordHeader+int64(n) > p.limit {
		p.rotateLocked(int64(n))
	}
	if p.out == nil || p.err != nil || p.size+RecordHeader+int64(n) > p.limit {
		p.dropped.Add(1)
		if !p.wasFull && p.err == nil && p.out != nil && p.full != nil {
			p.wasFull = true
			p.full()
		}
		return
	}
	h := p.hdr[:]
	binary.LittleEndian.PutUint32(h[0:], uint32(t.Unix()))
	binary.LittleEndian.PutUint32(h[4:], uint32(t.Nanosecond()/1000))
	binary.LittleEndian.PutUint32(h[8:], uint32(n))
	binary.LittleEndian.PutUint32(h[12:], uint32(len(fr)))
	p.w.Write(h)
	if _, err := p.w.Write(fr[:n]); err != nil {
		p.err = err
		p.dropped.Add(1)
		return
	}
	p.size += RecordHeader + int64(n)
	p.written.Add(1)
}

// Written and Dropped count the frames recorded and those left out.
func (p *Writer) Written() uint64 { return p.written.Load() }
func (p *Writer) Dropped() uint64 { return p.dropped.Load() }

// Close flushes and closes the output; it may be called twice. Frames
// written after Close are dropped.
func (p *Writer) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.out == nil {
		return p.errLocked()
	}
	err := p.w.Flush()
	if cerr := p.out.Close(); err == nil {
		err = cerr
	}
	p.out = nil
	if p.err == nil {
		p.err = err
	}
	return p.errLocked()
}

func (p *Writer) errLocked() error {
	if p.err != nil {
		return fmt.Errorf("pcap: %w", p.err)
	}
	return nil
}
