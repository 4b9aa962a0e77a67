package tap

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/mdlayher/netlink"
	"golang.org/x/sys/unix"

	"github.com/airq/airq/internal/link"
)

// Device is an open TAP interface.
//
// One goroutine may call ReadBatch while another calls WriteBatch; calls of
// the same method are serialised. Stats, MTU and Close may be called at any
// time.
type Device struct {
	name  string
	index int
	f     *os.File
	rc    syscall.RawConn
	rtnl  *netlink.Conn // link queries, in the TAP's network namespace
	// ifStats reads the interface's counters (Stats, every second from
	// the shell) without allocating, in the same namespace
	ifStats *link.StatsReader
	closed  atomic.Bool

	offloads uint // TUN_F_* the kernel accepted, or vnetOnly; 0: plain frames, no vnet header

	rxMu sync.Mutex // guards rd
	rd   reader
	txMu sync.Mutex // guards wr
	wr   writer

	c counters
}

type counters struct {
	rxFrames, rxBytes, rxTruncated atomic.Uint64
	rxGSO, rxBadOffload            atomic.Uint64
	txFrames, txBytes, txErrors    atomic.Uint64
	txGSO                          atomic.Uint64
}

// Open creates the TAP interface called name (a pattern such as "airq%d" or
// "" lets the kernel choose) and brings it up. The interface is not
// persistent: Close removes it. It needs CAP_NET_ADMIN.
func Open(name string, o Options) (*Device, error) {
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("tap: open %s: %w", name, err)
	}
	d, err := setup(fd, name, o.Offload)
	if err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("tap: open %s: %w", name, err)
	}
	return d, nil
}

func setup(fd int, name string, offload Offload) (*Device, error) {
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		return nil, err
	}
	flags := uint16(unix.IFF_TAP | unix.IFF_NO_PI)
	if offload != OffloadOff {
		flags |= unix.IFF_VNET_HDR
	}
	ifr.SetUint16(flags)
	if err := unix.IoctlIfreq(fd, unix.TUNSETIFF, ifr); err != nil {
		return nil, fmt.Errorf("TUNSETIFF: %w", err)
	}
	d := &Device{name: ifr.Name()}
	switch offload {
	case OffloadTSO:
		d.offloads = setOffload(fd)
	case OffloadGRO:
		d.offloads = vnetOnly
	}
	if d.index, err = linkUp(d.name); err != nil {
		return nil, err
	}
	if d.rtnl, err = netlink.Dial(unix.NETLINK_ROUTE, nil); err != nil {
		return nil, fmt.Errorf("rtnetlink: %w", err)
	}
	if d.ifStats, err = link.OpenStats(); err != nil {
		d.rtnl.Close()
		return nil, err
	}
	// os.NewFile sees the non-blocking flag and registers the descriptor
	// with the netpoller.
	d.f = os.NewFile(uintptr(fd), "/dev/net/tun")
	if d.rc, err = d.f.SyscallConn(); err != nil {
		d.rtnl.Close()
		d.ifStats.Close()
		return nil, err
	}
	d.rd.init(d.offloads != 0)
	d.wr.init(d.offloads != 0)
	return d, nil
}

// TUN_F_* of linux/if_tun.h: what the kernel may leave for us to do.
const (
	tunFCsum = 0x01
	tunFTSO4 = 0x02
	tunFTSO6 = 0x04
	tunFUSO4 = 0x20 // Linux 6.2
	tunFUSO6 = 0x40
)

// setOffload asks for partial checksums and TCP (and, where the kernel has
// it, UDP) segmentation offload, and returns what the kernel took; 0 when
// it refused them all. Then the host's TCP hands us one frame per send of
// up to 64 KiB instead of one per segment, and we cut it.
func setOffload(fd int) uint {
	for _, f := range []uint{tunFCsum | tunFTSO4 | tunFTSO6 | tunFUSO4 | tunFUSO6, tunFCsum | tunFTSO4 | tunFTSO6, tunFCsum} {
		if unix.IoctlSetInt(fd, unix.TUNSETOFFLOAD, int(f)) == nil {
			return f
		}
	}
	// Without offloads the vnet header still comes and goes, all zero.
	return vnetOnly
}

// vnetOnly marks a device that exchanges vnet headers with no offload
// towards airq: OffloadGRO, or OffloadTSO on a kernel that refused it.
const vnetOnly = 1 << 31

// Offloads names the offloads the kernel accepted at Open ("csum tso4
// tso6 uso4 uso6"), "" when there are none.
func (d *Device) Offloads() string {
	var s []byte
	for _, o := range []struct {
		f    uint
		name string
	}{{tunFCsum, "csum"}, {tunFTSO4, "tso4"}, {tunFTSO6, "tso6"}, {tunFUSO4, "uso4"}, {tunFUSO6, "uso6"}} {
		if d.offloads&o.f != 0 {
			if len(s) > 0 {
				s = append(s, ' ')
			}
			s = append(s, o.name...)
		}
	}
	return string(s)
}

// linkUp brings the interface up and returns its index.
func linkUp(name string) (int, error) {
	index, err := link.Index(name)
	if err != nil {
		return 0, err
	}
	return index, link.Up(name)
}

// Name returns the interface name.
func (d *Device) Name() string { return d.name }

// Index returns the interface index.
func (d *Device) Index() int { return d.index }

// Close removes the interface and unblocks a pending ReadBatch, which returns
// ErrClosed. Close may be called more than once.
func (d *Device) Close() error {
	if d.closed.Swap(true) {
		return nil
	}
	return errors.Join(d.f.Close(), d.rtnl.Close(), d.ifStats.Close())
}

// ioError maps an I/O error to ErrClosed after Close.
func (d *Device) ioError(op string, err error) error {
	if d.closed.Load() || errors.Is(err, os.ErrClosed) {
		return ErrClosed
	}
	return fmt.Errorf("tap: %s %s: %w", op, d.name, err)
}
