package pcap

import (
	"fmt"
	"io"
	"strconv"
)

// ring is a rotating capture's files: file n of files, opened by open.
type ring struct {
	open  func(n int) (io.WriteCloser, error)
	files int // 0: not rotating
	n     int // the file being written
	turns uint64
}

// NewRotating returns a Writer over a ring of files, as tcpdump's -C and
// -W keep one: when a frame does not fit in limit bytes, the file is
// closed and the next one is opened (open(n), n from 0 to files-1, then 0
// again, overwriting the oldest), so a long run keeps its last
// files×limit bytes. files must be at least 2; Close closes the file being
// written.
func NewRotating(open func(n int) (io.WriteCloser, error), limit int64, files int) (*Writer, error) {
	if files < 2 {
		return nil, fmt.Errorf("pcap: a ring of %d files: want at least 2", files)
	}
	out, err := open(0)
	if err != nil {
		return nil, fmt.Errorf("pcap: %w", err)
	}
	p, err := NewWriter(out, limit)
	if err != nil {
		out.Close()
		return nil, err
	}
	p.ring = ring{open: open, files: files}
	return p, nil
}

// RingName is tcpdump's name for file n of a ring that starts at path:
// path itself, then path1, path2, ...
func RingName(path string, n int) string {
	if n == 0 {
		return path
	}
	return path + strconv.Itoa(n)
}

// rotateLocked closes the current file and opens the next of the ring when
// a frame of n bytes would fit in a fresh one; otherwise the frame is
// dropped as it would be without a ring. A failure stops the capture.
func (p *Writer) rotateLocked(n int64) {
	r := &p.ring
	if r.files == 0 || FileHeader+RecordHeader+n > p.limit {
		return
	}
	err := p.w.Flush()
	if cerr := p.out.Close(); err == nil {
		err = cerr
	}
	var out io.WriteCloser
	if err == nil {
		r.n = (r.n + 1) % r.files
		out, err = r.open(r.n)
	}
	if err != nil {
		p.err, p.out = err, nil // the old file is closed
		return
	}
	r.turns++
	p.out = out
	p.w.Reset(out)
	p.err = p.fileHeaderLocked()
}

// Rotations counts the files a rotating capture moved on to.
func (p *Writer) Rotations() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ring.turns
}
