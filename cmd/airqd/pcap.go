package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/airq/airq/radio"
)

// The classic pcap format (not pcapng): a 24-byte file header, then a
// 16-byte header before each frame; Wireshark, tcpdump and gopacket's
// pcapgo read it. Frames keep their radiotap header: received ones as
// mac80211 wrote it, sent ones with airq's TX header, so the TX flags and
// rate of each injected frame show in Wireshark.
const (
	pcapMagic        = 0xa1b2c3d4 // microsecond timestamps, written little-endian
	pcapLinkRadiotap = 127        // LINKTYPE_IEEE802_11_RADIOTAP
	pcapSnapLen      = 65535
	pcapFileHeader   = 24
	pcapRecordHeader = 16
)

// pcapWriter appends frames to a capture file until it reaches its size
// bound; then it drops them and counts them. The radio reader and the loop
// write concurrently, so a mutex orders the records. Frames are buffered;
// Close flushes.
//
// Lock order: mu only.
type pcapWriter struct {
	mu      sync.Mutex
	f       *os.File      // guarded by mu
	w       *bufio.Writer // guarded by mu
	size    int64         // guarded by mu
	limit   int64
	err     error // guarded by mu: the first write error stops the capture
	written atomic.Uint64
	dropped atomic.Uint64 // over the size bound or after an error
	now     func() time.Time
}

// openPcap creates (or truncates) path, mode 0640, and writes the header.
func openPcap(path string, limit int64) (*pcapWriter, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o640)
	if err != nil {
		return nil, fmt.Errorf("-pcap: %w", err)
	}
	p := &pcapWriter{f: f, w: bufio.NewWriterSize(f, 64<<10), limit: limit, now: time.Now}
	var h [pcapFileHeader]byte
	binary.LittleEndian.PutUint32(h[0:], pcapMagic)
	binary.LittleEndian.PutUint16(h[4:], 2) // version 2.4
	binary.LittleEndian.PutUint16(h[6:], 4)
	binary.LittleEndian.PutUint32(h[16:], pcapSnapLen)
	binary.LittleEndian.PutUint32(h[20:], pcapLinkRadiotap)
	p.w.Write(h[:])
	p.size = pcapFileHeader
	return p, nil
}

// write records frames with the current time.
func (p *pcapWriter) write(frames [][]byte) {
	t := p.now()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, fr := range frames {
		n := min(len(fr), pcapSnapLen)
		if p.err != nil || p.size+pcapRecordHeader+int64(n) > p.limit {
			p.dropped.Add(1)
			continue
		}
		var h [pcapRecordHeader]byte
		binary.LittleEndian.PutUint32(h[0:], uint32(t.Unix()))
		binary.LittleEndian.PutUint32(h[4:], uint32(t.Nanosecond()/1000))
		binary.LittleEndian.PutUint32(h[8:], uint32(n))
		binary.LittleEndian.PutUint32(h[12:], uint32(len(fr)))
		p.w.Write(h[:])
		if _, err := p.w.Write(fr[:n]); err != nil {
			p.err = err
			p.dropped.Add(1)
			continue
		}
		p.size += pcapRecordHeader + int64(n)
		p.written.Add(1)
	}
}

// Close flushes and closes the file; it may be called twice.
func (p *pcapWriter) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.f == nil {
		return p.err
	}
	err := p.w.Flush()
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	p.f = nil
	if p.err == nil && err != nil {
		p.err = err
	}
	if err != nil {
		return fmt.Errorf("-pcap: %w", err)
	}
	return nil
}

// pcapDevice captures what passes through a radio device.
type pcapDevice struct {
	radio.Device
	p  *pcapWriter
	rx [][]byte // ReadBatch's, which one goroutine calls
}

func (d *pcapDevice) ReadBatch(bufs [][]byte, sizes []int) (int, error) {
	n, err := d.Device.ReadBatch(bufs, sizes)
	if n > 0 {
		d.rx = d.rx[:0]
		for i := range n {
			d.rx = append(d.rx, bufs[i][:sizes[i]])
		}
		d.p.write(d.rx)
	}
	return n, err
}

func (d *pcapDevice) WriteBatch(bufs [][]byte) (int, error) {
	n, err := d.Device.WriteBatch(bufs)
	d.p.write(bufs[:n]) // what the kernel took
	return n, err
}

// capture wraps dev when -pcap is on.
func (o *options) capture(dev radio.Device) radio.Device {
	if o.pcapOut == nil {
		return dev
	}
	return &pcapDevice{Device: dev, p: o.pcapOut}
}
