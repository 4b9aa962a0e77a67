package shell

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/airq/airq/ctl/hostapd"
)

// HostapdServer is a BSS's hostapd control socket: a UNIX datagram
// socket at Dir/Iface, as hostapd's ctrl_interface. One goroutine reads
// the commands and answers each with one datagram, asking the core's loop
// through the ControlServer as airqctl's requests do: one command at a
// time, so a flood of commands queues in the socket (the kernel bounds
// it) and holds at most one request of the loop's. A second goroutine
// sends the events to the monitors.
type HostapdServer struct {
	h    *hostapdIface
	conn *net.UnixConn
	path string
	srv  *ControlServer
	raw  syscall.RawConn
	// answer replies to a datagram: a BSS's commands, or the global
	// socket's.
	answer func(b []byte, from string) []byte
	// deniedOnce: a reply was refused for permission, and logged.
	deniedOnce atomic.Bool
	cancel     context.CancelFunc
	wg         sync.WaitGroup
	once       sync.Once
	// answering: serve is answering a datagram; closeAfter: once it has
	// answered, serve closes the socket (CloseAfterReply). Guarded by mu.
	mu                    sync.Mutex
	answering, closeAfter bool
}

// ListenHostapd creates the socket, as hostapd does: the directory made
// with mode 0770 (less the umask) if it is missing and given to the group,
// the socket chmod 0770 and given to the group. A socket nobody answers on
// is a leftover and is replaced; a live one is an error. Events reach its
// monitors once Publish runs on the loop; Close removes it.
func ListenHostapd(srv *ControlServer, cfg HostapdConfig) (*HostapdServer, error) {
	return listenHostapd(srv, cfg, nil)
}

// listenHostapd opens a socket that answers with answer (nil: a BSS's
// commands).
func listenHostapd(srv *ControlServer, cfg HostapdConfig, answer func(b []byte, from string) []byte) (*HostapdServer, error) {
	if cfg.Iface == "" || filepath.Base(cfg.Iface) != cfg.Iface {
		return nil, fmt.Errorf("ctrl_interface: interface name %q: want a file name", cfg.Iface)
	}
	if err := os.Mkdir(cfg.Dir, 0o770); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("ctrl_interface=%s: %w", cfg.Dir, err)
	}
	if cfg.Group >= 0 {
		if err := os.Lchown(cfg.Dir, -1, cfg.Group); err != nil {
			return nil, fmt.Errorf("ctrl_interface_group=%d: %w", cfg.Group, err)
		}
	}
	path := filepath.Join(cfg.Dir, cfg.Iface)
	if len(path) >= 108 { // sun_path
		return nil, fmt.Errorf("ctrl_interface: socket path %s is longer than a UNIX socket's 107 bytes", path)
	}
	conn, err := listenDatagram(path)
	if err != nil {
		return nil, err
	}
	if err := chownChmod(path, cfg.Group); err != nil {
		conn.Close()
		os.Remove(path)
		return nil, err
	}
	raw, err := conn.SyscallConn()
	if err != nil {
		conn.Close()
		os.Remove(path)
		return nil, fmt.Errorf("ctrl_interface socket %s: %w", path, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &HostapdServer{h: newHostapdIface(srv, cfg), conn: conn, path: path, srv: srv, raw: raw, cancel: cancel}
	s.h.ctx = ctx
	s.answer = answer
	if answer == nil {
		s.answer = s.h.answer
	}
	srv.addHostapd(s.h)
	s.wg.Go(s.serve)
	s.wg.Go(s.sendEvents)
	return s, nil
}

// listenDatagram binds path, replacing a leftover socket.
func listenDatagram(path string) (*net.UnixConn, error) {
	addr := &net.UnixAddr{Name: path, Net: "unixgram"}
	conn, err := net.ListenUnixgram("unixgram", addr)
	if err == nil || !errors.Is(err, syscall.EADDRINUSE) {
		if err != nil {
			err = fmt.Errorf("ctrl_interface socket %s: %w", path, err)
		}
		return conn, err
	}
	if c, derr := net.DialUnix("unixgram", nil, addr); derr == nil {
		c.Close()
		return nil, fmt.Errorf("ctrl_interface socket %s: in use by another process (hostapd, or another airqd); "+
			"delete it if it is not used any more", path)
	}
	if err := os.Remove(path); err != nil {
		return nil, fmt.Errorf("ctrl_interface socket %s: removing the leftover: %w", path, err)
	}
	conn, err = net.ListenUnixgram("unixgram", addr)
	if err != nil {
		return nil, fmt.Errorf("ctrl_interface socket %s: %w", path, err)
	}
	return conn, nil
}

func chownChmod(path string, group int) error {
	if group >= 0 {
		if err := os.Lchown(path, -1, group); err != nil {
			return fmt.Errorf("ctrl_interface_group=%d: %w", group, err)
		}
	}
	if err := os.Chmod(path, 0o770); err != nil {
		return fmt.Errorf("ctrl_interface socket %s: %w", path, err)
	}
	return nil
}

// Addr is the socket's path.
func (s *HostapdServer) Addr() string { return s.path }

// serve answers datagrams until Close. A datagram longer than hostapd
// reads is answered FAIL; one from an unbound client (no address to
// answer to) is dropped.
func (s *HostapdServer) serve() {
	buf := make([]byte, hostapd.MaxRequest+1)
	for {
		n, _, flags, from, err := s.conn.ReadMsgUnix(buf, nil)
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil || from == nil || from.Name == "" {
			continue
		}
		s.setAnswering(true)
		reply := hostapd.ReplyFail
		if flags&syscall.MSG_TRUNC == 0 && n <= hostapd.MaxRequest {
			reply = s.answer(buf[:n], from.Name)
		}
		// A client gone or not reading loses its reply; one whose socket
		// airqd may not write (a root client of a non-root airqd) is told
		// about in the log, once.
		if _, err := s.sendTo(from.Name, reply); errors.Is(err, syscall.EACCES) && s.deniedOnce.CompareAndSwap(false, true) &&
			s.h.cfg.Log != nil {
			s.h.cfg.Log.Warn("hostapd control: no permission to answer a client: its socket belongs to another user "+
				"(run hostapd_cli as airqd's user)", "socket", s.path, "client", from.Name)
		}
		if s.setAnswering(false) {
			go s.Close() // Close waits for serve
			return
		}
	}
}

// setAnswering marks serve answering a datagram or done with it; done,
// it reports whether CloseAfterReply asked to close meanwhile.
func (s *HostapdServer) setAnswering(on bool) (closeNow bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answering = on
	return !on && s.closeAfter
}

// CloseAfterReply is Close, but for a socket answering a command (a
// RELOAD whose file no longer has the socket's BSS), which would wait for
// itself: the socket closes once the command is answered.
func (s *HostapdServer) CloseAfterReply() {
	s.mu.Lock()
	if s.answering {
		s.closeAfter = true
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	s.Close()
}

// sendTo sends one datagram without waiting: a client whose socket is
// full (it does not read) fails at once, so it holds up no one. gone
// reports that its socket no longer exists.
func (s *HostapdServer) sendTo(to string, b []byte) (gone bool, err error) {
	sa := &syscall.SockaddrUnix{Name: to}
	if cerr := s.raw.Write(func(fd uintptr) bool {
		err = syscall.Sendto(int(fd), b, syscall.MSG_DONTWAIT, sa)
		return true // one attempt: EAGAIN is the client's problem
	}); cerr != nil {
		err = cerr
	}
	return errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED), err
}

func (s *HostapdServer) sendEvents() {
	for {
		select {
		case <-s.h.ctx.Done():
			return
		case q := <-s.h.events:
			s.h.sendEventTo(q.ev, q.to, s.sendTo)
		}
	}
}

// Close tells the monitors CTRL-EVENT-TERMINATING, stops the goroutines
// and removes the socket, and the directory if nothing else is in it,
// as hostapd does. It may be called more than once.
func (s *HostapdServer) Close() error {
	var err error
	s.once.Do(func() {
		s.srv.removeHostapd(s.h)
		s.h.closeTest()
		s.cancel()
		s.h.sendEvent(hostapd.AppendEvent(nil, hostapd.EventTerminating, nil), s.sendTo)
		s.h.mu.Lock()
		if lost := s.h.lost; lost > 0 && s.h.cfg.Log != nil {
			s.h.cfg.Log.Info("hostapd control: events lost to monitors that fell behind", "socket", s.path, "events", lost)
		}
		s.h.mu.Unlock()
		err = s.conn.Close()
		s.wg.Wait()
		os.Remove(s.path)
		os.Remove(filepath.Dir(s.path)) // fails, as meant, while other sockets are there
	})
	return err
}

// ListenHostapdGlobal opens hostapd's global socket (hostapd -g PATH) at
// path, its directory made and given to group as ListenHostapd's; g
// carries out ADD and REMOVE. Close it before the BSSes' sockets' owner
// goes.
func ListenHostapdGlobal(srv *ControlServer, path string, group int, g HostapdGlobal, log *slog.Logger) (*HostapdServer, error) {
	gi := &globalIface{g: g}
	s, err := listenHostapd(srv, HostapdConfig{Dir: filepath.Dir(path), Group: group, Iface: filepath.Base(path), Log: log},
		func(b []byte, from string) []byte { return gi.answer(b, from) })
	if err != nil {
		return nil, err
	}
	gi.h = s.h
	gi.changed("start", nil)
	return s, nil
}
