package shell

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"syscall"
	"time"

	"github.com/airq/airq/radio"
	"golang.org/x/sys/unix"
)

// The polled loop: one goroutine reads the radio and the wired side without
// blocking until each has nothing left, hands the frames to the core as it
// reads them, and then waits on one epoll set of its own (the radio's
// descriptor, the TAP's, an eventfd) with the core's next deadline as the
// timeout. No reader goroutines, no channel
// hand-offs, no wake of a second goroutine per batch: the scheduler's share
// of the datapath goes. Control requests and finished SAE jobs come from
// other goroutines; those write the eventfd, and the loop serves them
// between batches, so a control request never holds the core longer than
// the request itself.

// pollDevice is a device the polled loop can read without blocking and
// wait on itself (inject.Device, tap.Device).
type pollDevice interface {
	PollFd() int
	ReadNow(bufs [][]byte, sizes []int) (int, error)
}

// ringPollDevice is a radio whose ring the loop reads in place.
type ringPollDevice interface {
	pollDevice
	Ring() (slots int, why error)
	ReadViewsNow(views [][]byte, sizes []int) (int, error)
	Release(n int)
}

// pollSource is one device's side of the loop: its batch, its reading,
// and whether it may have frames (it had a full batch, or epoll said so).
type pollSource struct {
	name    string
	fd      int
	read    func(bufs [][]byte, sizes []int) (int, error)
	release func(n int) // views only
	b       *batch
	ready   bool
}

type poller struct {
	epfd, efd int
	f         *os.File        // epfd, registered with the netpoller
	rc        syscall.RawConn // f's
	collectFn func(uintptr) bool
	err       error // the last collect's
	rx, wx    pollSource
	events    [3]unix.EpollEvent
	kickBuf   [8]byte
}

// newPoller returns the polled loop's devices and epoll set, or nil when a
// device cannot be polled (a capture wraps the radio, a fake) or the set
// cannot be made: Run then runs reader goroutines.
func newPoller(dev radio.Device, wired Wired, log *slog.Logger) *poller {
	rd, ok1 := dev.(pollDevice)
	wd, ok2 := wired.(pollDevice)
	if !ok1 || !ok2 {
		return nil
	}
	p := &poller{epfd: -1, efd: -1,
		rx: pollSource{name: "radio", fd: rd.PollFd(), read: rd.ReadNow, b: newBatch(radio.MaxFrame), ready: true},
		wx: pollSource{name: "wired", fd: wd.PollFd(), read: wd.ReadNow, b: newBatch(wiredMax), ready: true}}
	if r, ok := dev.(ringPollDevice); ok {
		if slots, why := r.Ring(); slots >= 2*batchSize {
			// One batch is held at a time: the loop releases it before
			// it reads again.
			p.rx.read, p.rx.release, p.rx.b = r.ReadViewsNow, r.Release, newBatch(0)
			log.Info("radio reads in place from its receive ring", "slots", slots)
		} else {
			log.Info("radio reads without a receive ring", "slots", slots, "why", why)
		}
	}
	if err := p.open(); err != nil {
		log.Warn("datapath: no epoll set; reading with a goroutine per device", "err", err)
		p.close()
		return nil
	}
	return p
}

func (p *poller) open() error {
	var err error
	if p.epfd, err = unix.EpollCreate1(unix.EPOLL_CLOEXEC); err != nil {
		return fmt.Errorf("epoll_create1: %w", err)
	}
	if p.efd, err = unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC); err != nil {
		return fmt.Errorf("eventfd: %w", err)
	}
	// Level-triggered: a device is read until it has nothing left or a
	// batch is full; what is still pending at the wait wakes it at once.
	for i, fd := range []int{p.rx.fd, p.wx.fd, p.efd} {
		if err := unix.EpollCtl(p.epfd, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(i)}); err != nil {
			return fmt.Errorf("epoll_ctl: %w", err)
		}
	}
	// Non-blocking, os.NewFile registers it with the netpoller.
	if err := unix.SetNonblock(p.epfd, true); err != nil {
		return fmt.Errorf("epoll set non-blocking: %w", err)
	}
	p.f = os.NewFile(uintptr(p.epfd), "epoll")
	p.collectFn = p.collect
	p.rc, err = p.f.SyscallConn()
	return err
}

func (p *poller) close() {
	if p.f != nil {
		p.f.Close()
	} else if p.epfd >= 0 {
		unix.Close(p.epfd)
	}
	if p.efd >= 0 {
		unix.Close(p.efd)
	}
}

// kick wakes the loop's wait; any goroutine may call it.
func (p *poller) kick() {
	var one [8]byte
	one[0] = 1 // eventfd counters are host-endian; any non-zero value wakes
	unix.Write(p.efd, one[:])
}

// wait parks the loop until a device or the eventfd is readable or timeout
// passes (not at all when it is not positive), and marks the readable
// devices. The set's own descriptor is readable when a member is, so the Go
// netpoller waits on it: the goroutine parks as on any socket, no thread
// blocks, and the timeout is a netpoller deadline, as precise as a timer.
func (p *poller) wait(timeout time.Duration) error {
	p.err = nil
	if timeout <= 0 {
		p.collect(0)
		return p.err
	}
	if err := p.f.SetReadDeadline(time.Now().Add(timeout)); err != nil {
		return err
	}
	if err := p.rc.Read(p.collectFn); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		return err
	}
	return p.err
}

// collect takes the set's events without waiting and marks the readable
// devices; false (nothing yet) has the netpoller wait.
func (p *poller) collect(uintptr) bool {
	n, err := unix.EpollWait(p.epfd, p.events[:], 0)
	if err != nil {
		if err != unix.EINTR {
			p.err = fmt.Errorf("epoll_wait: %w", err)
		}
		return p.err != nil
	}
	for _, e := range p.events[:n] {
		switch e.Fd {
		case 0:
			p.rx.ready = true
		case 1:
			p.wx.ready = true
		case 2:
			unix.Read(p.efd, p.kickBuf[:]) // resets the counter
		}
	}
	return n > 0
}

// drain reads s once if it may have frames and hands them to handle; a
// short batch means the device had no more.
func (s *pollSource) drain(at func() time.Duration, handle func(time.Duration, []byte)) error {
	if !s.ready {
		return nil
	}
	b := s.b
	n, err := s.read(b.bufs, b.sizes)
	if err != nil {
		return fmt.Errorf("%s read: %w", s.name, err)
	}
	s.ready = n == len(b.bufs)
	if n > 0 {
		t := at()
		for i := range n {
			handle(t, b.bufs[i][:b.sizes[i]])
		}
		if s.release != nil {
			s.release(n)
		}
	}
	return nil
}

// runPolled is Run's loop on one locked thread (see the top of this file).
func (d *driver) runPolled(ctx context.Context, p *poller, ready func()) error {
	core, o := d.core, d.o
	d.kick = p.kick

	// The bridge: requests from channels become a wake of the epoll set.
	calls := make(chan *ControlCall)
	stop, bridged := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(bridged)
		in := o.controlCalls()
		for {
			select {
			case <-ctx.Done():
				p.kick()
				<-stop
				return
			case <-stop:
				return
			case c, ok := <-in:
				if !ok {
					in = nil
					continue
				}
				p.kick()
				select {
				case calls <- c:
				case <-stop:
					return
				}
			}
		}
	}()
	defer func() {
		o.closeControl() // first: no request may reach a core being shut down
		close(stop)
		<-bridged
		d.wired.Close()
		d.shutdown()
		d.dev.Close()
		p.close()
		d.stopped()
	}()

	d.begin(ready)
	nextDrops := d.now() + dropsEvery
	for {
		if ctx.Err() != nil {
			return nil
		}
		if err := p.rx.drain(d.now, core.HandleRadio); err != nil {
			return err
		}
		if err := p.wx.drain(d.now, core.HandleWired); err != nil {
			return err
		}
		select {
		case c := <-calls:
			d.serve(c)
		default:
		}
		select {
		case <-d.sae.readyChan():
			d.saeDone()
		default:
		}
		if now := d.now(); now >= nextDrops {
			readDrops(core, d.dev, d.wired)
			nextDrops = now + dropsEvery
		}
		core.Tick(d.now())
		core.Flush(d.now(), d)
		var timeout time.Duration
		switch {
		case p.rx.ready && p.wx.ready:
			continue
		case p.rx.ready || p.wx.ready:
			// A side that keeps filling batches must not hide the other:
			// ask the set without waiting.
		default: // both read dry: wait, woken at once by what came meanwhile
			timeout = min(core.Deadline(), nextDrops) - d.now()
		}
		if err := p.wait(timeout); err != nil {
			return errors.Join(err, ctx.Err())
		}
	}
}
