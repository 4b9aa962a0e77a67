package inject

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/airq/airq/internal/link"
	"github.com/airq/airq/radio"
	"github.com/mdlayher/socket"
	"golang.org/x/sys/unix"
)

var _ radio.Device = (*Device)(nil)

// Device is a monitor interface opened for reading and injecting frames.
//
// One goroutine may call ReadBatch while another calls WriteBatch; calls of
// the same method are serialised. Stats and Close may be called at any time.
type Device struct {
	name    string
	ifindex int
	rx, tx  *socket.Conn
	// rxRC and txRC are rx's and tx's raw connections: ReadBatch and
	// WriteBatch poll through them with callbacks bound once, where
	// socket.Conn's ReadFunc would allocate a few closures per call.
	rxRC, txRC syscall.RawConn
	closed     atomic.Bool
	addr       [6]byte   // the filter's address; zero: no filter
	others     [][6]byte // the radio's other BSSIDs the filter keeps
	echoLen    uint32    // what the filter keeps of an echo after its radiotap header

	// ring is the receive ring (nil: recvmmsg into the caller's buffers,
	// ringErr says why); rt walks it for ReadBatch and ReadViews.
	ring    *ring
	ringErr error
	ringMu  sync.Mutex // guards the mapping against Release after Close

	rxMu sync.Mutex // guards rb and rt
	rb   rxBatch
	rt   ringTake
	txMu sync.Mutex // guards tb
	tb   txBatch

	c counters

	kmu    sync.Mutex // guards kstats and kopt: reading PACKET_STATISTICS resets it
	kstats [2]uint64  // packets, drops
	kopt   sockopt    // PACKET_STATISTICS of rx

	// ifStats reads the interface's counters in its network namespace
	// (FilterCounts, every second from the shell) without allocating;
	// nil when rtnetlink would not open
	ifStats *link.StatsReader
	rxBase  uint64 // the interface's rx_packets once the receive socket was bound
	rxOK    bool   // rxBase was read
}

type counters struct {
	rxFrames, rxBytes, rxTruncated, rxOutgoing atomic.Uint64
	rxBadSlots                                 atomic.Uint64
	txFrames, txBytes, txErrors                atomic.Uint64
}

// received counts what one read took: frames kept, their bytes, how many
// of them were cut, and outgoing copies discarded.
func (c *counters) received(frames, bytes, trunc, outgoing uint64) {
	c.rxFrames.Add(frames)
	c.rxBytes.Add(bytes)
	if trunc > 0 {
		c.rxTruncated.Add(trunc)
	}
	if outgoing > 0 {
		c.rxOutgoing.Add(outgoing)
	}
}

// Open brings the interface called ifname up (setting opt.MTU first when
// non-zero) and opens it for reading and injection.
func Open(ifname string, opt Options) (*Device, error) {
	index, err := prepare(ifname, opt.MTU)
	if err != nil {
		return nil, fmt.Errorf("inject: open %s: %w", ifname, err)
	}
	d := &Device{name: ifname, ifindex: index, addr: opt.Address, others: opt.Others, echoLen: echoLen(opt)}
	d.ifStats, _ = link.OpenStats() // without it FilterCounts says it cannot tell
	if d.rx, d.ring, d.ringErr, err = openRx(index, opt); err != nil {
		d.closeIfStats()
		return nil, fmt.Errorf("inject: open %s: receive socket: %w", ifname, err)
	}
	d.rxBase, d.rxOK = d.ifRxPackets() // after bind: what comes in between counts as passed only
	if d.tx, err = openTx(index, opt); err != nil {
		d.rx.Close()
		d.closeIfStats()
		return nil, fmt.Errorf("inject: open %s: send socket: %w", ifname, err)
	}
	if d.rxRC, err = d.rx.SyscallConn(); err == nil {
		d.txRC, err = d.tx.SyscallConn()
	}
	if err != nil {
		d.rx.Close()
		d.tx.Close()
		d.closeIfStats()
		return nil, fmt.Errorf("inject: open %s: %w", ifname, err)
	}
	d.rb.init()
	d.tb.init()
	d.kopt.init(unix.SOL_PACKET, unix.PACKET_STATISTICS)
	if d.ring != nil {
		d.rt.init(d.ring, &d.c)
		if err = d.rx.SetReadDeadline(time.Now().Add(ringErrorCheck)); err != nil {
			d.Close()
			return nil, fmt.Errorf("inject: open %s: %w", ifname, err)
		}
	}
	return d, nil
}

// prepare returns the interface's index after setting the MTU (when mtu >
// 0) and bringing it up.
func prepare(name string, mtu int) (int, error) {
	index, err := link.Index(name)
	if err != nil {
		return 0, err
	}
	if mtu > 0 {
		if err := link.SetMTU(name, mtu); err != nil {
			return 0, err
		}
	}
	return index, link.Up(name)
}

// openRx opens the receive socket and its receive ring, or says why it has
// none. It is created with protocol 0, so that it sees nothing until bind
// attaches it to the one interface with ETH_P_ALL.
func openRx(index int, opt Options) (c *socket.Conn, r *ring, why, err error) {
	c, err = socket.Socket(unix.AF_PACKET, unix.SOCK_RAW, 0, "packet", nil)
	if err != nil {
		return nil, nil, nil, err
	}
	size := opt.ReadBuffer
	if size <= 0 {
		size = DefaultReadBuffer
	}
	err = errors.Join(
		c.SetsockoptInt(unix.SOL_PACKET, unix.PACKET_IGNORE_OUTGOING, 1),
		c.SetReadBuffer(size),
	)
	if err == nil && opt.Address != ([6]byte{}) {
		// Before bind: no unfiltered frame may be queued in between.
		err = attachFilter(c, rxFilter(opt.Address, opt.Others, false, echoLen(opt)))
	}
	if err == nil {
		// Before bind too: frames queued to the socket before the ring
		// exists would never be read.
		if opt.NoRing {
			why = errors.New("Options.NoRing")
		} else {
			r, why = setupRing(c, size)
		}
		err = c.Bind(&unix.SockaddrLinklayer{Protocol: htons(unix.ETH_P_ALL), Ifindex: index})
	}
	if err != nil {
		if r != nil {
			unix.Munmap(r.mem)
		}
		c.Close()
		return nil, nil, nil, err
	}
	return c, r, why, nil
}

// echoLen is what the receive filter keeps of a TX-status echo after its
// radiotap header.
func echoLen(opt Options) uint32 {
	if opt.FullEchoes {
		return keepLen
	}
	return EchoKeep
}

// openTx opens the send socket: bound with protocol 0, it never receives.
func openTx(index int, opt Options) (*socket.Conn, error) {
	c, err := socket.Socket(unix.AF_PACKET, unix.SOCK_RAW, 0, "packet", nil)
	if err != nil {
		return nil, err
	}
	if !opt.UseQdisc {
		err = c.SetsockoptInt(unix.SOL_PACKET, unix.PACKET_QDISC_BYPASS, 1)
	}
	if err == nil {
		err = c.Bind(&unix.SockaddrLinklayer{Ifindex: index})
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// attachFilter installs (or atomically replaces) the socket's filter.
func attachFilter(c *socket.Conn, prog []unix.SockFilter) error {
	return c.SetsockoptSockFprog(unix.SOL_SOCKET, unix.SO_ATTACH_FILTER,
		&unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]})
}

// SetScanning swaps the receive filter: while scanning it also keeps other
// networks' beacons and probe responses. The kernel replaces the filter
// atomically. It fails if the device was opened without Options.Address.
func (d *Device) SetScanning(on bool) error {
	if d.addr == ([6]byte{}) {
		return fmt.Errorf("inject: %s: no receive filter (opened without an address)", d.name)
	}
	if d.closed.Load() {
		return d.ioError("set filter", nil)
	}
	if err := attachFilter(d.rx, rxFilter(d.addr, d.others, on, d.echoLen)); err != nil {
		return d.ioError("set filter", err)
	}
	return nil
}

// Name returns the interface name.
func (d *Device) Name() string { return d.name }

// Index returns the interface index.
func (d *Device) Index() int { return d.ifindex }

// Close closes both sockets and unblocks a pending ReadBatch, which returns
// radio.ErrClosed. It leaves the interface up. Close may be called more than
// once.
func (d *Device) Close() error {
	if d.closed.Swap(true) {
		return nil
	}
	err := errors.Join(d.rx.Close(), d.tx.Close(), d.closeIfStats())
	if d.ring != nil {
		// Closing woke a pending read; once it is out, nothing walks the
		// ring and Release sees closed.
		d.rxMu.Lock()
		d.ringMu.Lock()
		err = errors.Join(err, unix.Munmap(d.ring.mem))
		d.ring.mem = nil
		d.ringMu.Unlock()
		d.rxMu.Unlock()
	}
	return err
}

// Stats returns the counters since Open. It reads the kernel's receive
// statistics unless the device is closed.
func (d *Device) Stats() Stats {
	d.kmu.Lock()
	if !d.closed.Load() {
		// struct tpacket_stats: tp_packets, tp_drops
		if v, err := d.kopt.read(d.rxRC); err == nil && len(v) == 8 {
			d.kstats[0] += uint64(binary.NativeEndian.Uint32(v))
			d.kstats[1] += uint64(binary.NativeEndian.Uint32(v[4:]))
		}
	}
	kp, kd := d.kstats[0], d.kstats[1]
	d.kmu.Unlock()
	return Stats{
		RxFrames:      d.c.rxFrames.Load(),
		RxBytes:       d.c.rxBytes.Load(),
		RxTruncated:   d.c.rxTruncated.Load(),
		RxOutgoing:    d.c.rxOutgoing.Load(),
		RxBadSlots:    d.c.rxBadSlots.Load(),
		TxFrames:      d.c.txFrames.Load(),
		TxBytes:       d.c.txBytes.Load(),
		TxErrors:      d.c.txErrors.Load(),
		KernelPackets: kp,
		KernelDrops:   kd,
	}
}

// FilterCounts reports what the interface received since Open (its
// rx_packets, asked of rtnetlink) and what the receive filter passed to the
// socket since (Stats.KernelPackets): the difference is what the filter
// shed, apart from frames the interface does not count as received (a
// monitor's TX-status echoes). The interface is read first, so a frame
// arriving between the two readings counts as passed only and the
// difference is never too large. ok is false when rtnetlink does not tell.
func (d *Device) FilterCounts() (received, passed uint64, ok bool) {
	n, ok := d.ifRxPackets()
	passed = d.Stats().KernelPackets
	if !ok || !d.rxOK || n < d.rxBase {
		return 0, passed, false
	}
	return n - d.rxBase, passed, true
}

// ioError maps an I/O error to radio.ErrClosed after Close.
func (d *Device) ioError(op string, err error) error {
	if d.closed.Load() {
		return radio.ErrClosed
	}
	return fmt.Errorf("inject: %s %s: %w", op, d.name, err)
}
