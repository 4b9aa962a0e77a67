package hwsimnl

import (
	"errors"
	"fmt"
	"syscall"
	"time"
	"unsafe"
)

const (
	solNetlink      = 270 // SOL_NETLINK
	netlinkNoENOBUF = 5   // NETLINK_NO_ENOBUFS
	rcvBuf          = 8 << 20
)

// Conn is a generic netlink socket bound to mac80211_hwsim's family.
// Send may be called from any goroutine; Wait and Recv from one.
type Conn struct {
	fd     int
	Family uint16
	seq    uint32
}

// Dial opens the socket and resolves the family. A large receive buffer
// keeps the driver's frames from being dropped while the medium is busy
// (the driver frees a frame it cannot send to userspace).
func Dial() (*Conn, error) {
	fd, err := syscall.Socket(syscall.AF_NETLINK, syscall.SOCK_RAW|syscall.SOCK_CLOEXEC, syscall.NETLINK_GENERIC)
	if err != nil {
		return nil, fmt.Errorf("hwsimnl: socket: %w", err)
	}
	c := &Conn{fd: fd}
	if err := syscall.Bind(fd, &syscall.SockaddrNetlink{Family: syscall.AF_NETLINK}); err != nil {
		c.Close()
		return nil, fmt.Errorf("hwsimnl: bind: %w", err)
	}
	if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_RCVBUFFORCE, rcvBuf); err != nil {
		_ = syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_RCVBUF, rcvBuf)
	}
	_ = syscall.SetsockoptInt(fd, solNetlink, netlinkNoENOBUF, 1)
	if err := c.Send(AppendGetFamily(nil, c.next())); err != nil {
		c.Close()
		return nil, err
	}
	buf := make([]byte, 1<<16)
	for {
		b, err := c.Recv(buf, -1)
		if err != nil {
			c.Close()
			return nil, err
		}
		for len(b) > 0 {
			var m Message
			if m, b, err = Split(b); err != nil {
				break
			}
			if e, ok := m.Error(); ok && e != 0 {
				c.Close()
				return nil, fmt.Errorf("hwsimnl: family %s: %w (is mac80211_hwsim loaded?)", FamilyName, syscall.Errno(e))
			}
			if id, err := DecodeFamilyID(m); err == nil {
				c.Family = id
				return c, nil
			}
		}
	}
}

func (c *Conn) next() uint32 { c.seq++; return c.seq }

// Register sends HWSIM_CMD_REGISTER and waits for its acknowledgement:
// from then on the radios of this network namespace transmit through c.
// Frames that arrive meanwhile are handed to onOther.
func (c *Conn) Register(onOther func(Message)) error {
	seq := c.next()
	if err := c.Send(AppendRegister(nil, c.Family, seq)); err != nil {
		return err
	}
	buf := make([]byte, 1<<16)
	for {
		b, err := c.Recv(buf, -1)
		if err != nil {
			return err
		}
		for len(b) > 0 {
			var m Message
			if m, b, err = Split(b); err != nil {
				break
			}
			if e, ok := m.Error(); ok && m.Seq == seq {
				if e != 0 {
					return fmt.Errorf("hwsimnl: register: %w", syscall.Errno(e))
				}
				return nil
			}
			onOther(m)
		}
	}
}

// Send writes one or more encoded messages.
func (c *Conn) Send(b []byte) error {
	for {
		err := syscall.Sendto(c.fd, b, 0, &syscall.SockaddrNetlink{Family: syscall.AF_NETLINK})
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// Recv waits up to timeout (forever if negative) for a datagram and
// returns it in buf; nil, nil on timeout. The wait is ppoll's, precise to
// the kernel's timer slack: Go's timers round waits below a millisecond up
// to one, far coarser than a frame's airtime.
func (c *Conn) Recv(buf []byte, timeout time.Duration) ([]byte, error) {
	if timeout >= 0 {
		ready, err := c.wait(timeout)
		if err != nil || !ready {
			return nil, err
		}
	}
	for {
		n, _, err := syscall.Recvfrom(c.fd, buf, 0)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("hwsimnl: recv: %w", err)
		}
		return buf[:n], nil
	}
}

// RecvNow returns a datagram already queued, or nil.
func (c *Conn) RecvNow(buf []byte) ([]byte, error) {
	n, _, err := syscall.Recvfrom(c.fd, buf, syscall.MSG_DONTWAIT)
	if errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EINTR) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("hwsimnl: recv: %w", err)
	}
	return buf[:n], nil
}

type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

func (c *Conn) wait(d time.Duration) (bool, error) {
	pfd := pollFd{fd: int32(c.fd), events: 1} // POLLIN
	ts := syscall.NsecToTimespec(int64(d))
	n, _, e := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
	if e == syscall.EINTR {
		return false, nil // a signal: the caller looks at the clock again
	}
	if e != 0 {
		return false, fmt.Errorf("hwsimnl: ppoll: %w", e)
	}
	return n > 0, nil
}

// Close closes the socket; the driver then falls back to its own medium.
func (c *Conn) Close() error { return syscall.Close(c.fd) }

// TightTimers sets the calling thread's timer slack to 1 ns (the default
// 50 µs would be most of a short frame's airtime).
func TightTimers() error {
	const prSetTimerSlack = 29
	if _, _, e := syscall.Syscall(syscall.SYS_PRCTL, prSetTimerSlack, 1, 0); e != 0 {
		return fmt.Errorf("hwsimnl: PR_SET_TIMERSLACK: %w", e)
	}
	return nil
}
