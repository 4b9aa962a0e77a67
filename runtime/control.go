package runtime

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/airq/airq/ctl"
)

// MaxControlConns bounds the control connections served at once; more are
// answered EBUSY and closed, so a runaway script cannot grow the daemon.
const MaxControlConns = 16

// ControlServer serves the control protocol on a unix socket. One goroutine
// accepts and one per connection reads request lines; each request is handed
// to Run's loop over calls and answered there, because only the loop may
// touch the core.
//
// Lock order: mu only; nothing else is held with it.
type ControlServer struct {
	ln    *net.UnixListener
	path  string
	calls chan *ControlCall
	done  chan struct{} // closed by Close: stop waiting for the loop
	wg    sync.WaitGroup
	once  sync.Once

	mu     sync.Mutex
	conns  map[net.Conn]struct{} // guarded by mu
	closed bool                  // guarded by mu
}

// ControlCall is one request on its way to the loop that owns the core;
// reply has room for the answer, so the loop never blocks on a slow client.
type ControlCall struct {
	req   ctl.Request
	reply chan ctl.Reply
}

// Request is what the client asked.
func (c *ControlCall) Request() ctl.Request { return c.req }

// Answer hands the reply back to the connection; call it exactly once.
func (c *ControlCall) Answer(r ctl.Reply) { c.reply <- r }

// Calls is the channel of requests for a loop other than Run's (the
// simulator's, say), which must answer each one from the goroutine that
// owns the core. Run reads it itself when given WithControl.
func (s *ControlServer) Calls() <-chan *ControlCall { return s.calls }

// ListenControl creates the control socket at path (mode 0660, the directory
// created 0750 if missing) and starts accepting. A socket file nobody
// listens on is a leftover of a crash and is removed; a live one means
// another daemon owns the path, and any other file is left alone: both are
// errors. Requests are answered once the server is passed to Run
// (WithControl); Close stops it.
func ListenControl(path string) (*ControlServer, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, fmt.Errorf("control socket %s: %w", path, err)
	}
	if err := removeStale(path); err != nil {
		return nil, err
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	// The umask decides the mode bind gives; the group (RuntimeDirectory's)
	// must be able to connect, others not.
	if err := os.Chmod(path, 0o660); err != nil {
		ln.Close()
		return nil, fmt.Errorf("control socket %s: %w", path, err)
	}
	s := &ControlServer{ln: ln, path: path, calls: make(chan *ControlCall), done: make(chan struct{}),
		conns: map[net.Conn]struct{}{}}
	s.wg.Go(s.accept)
	return s, nil
}

func removeStale(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("control socket %s: %w", path, err)
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return fmt.Errorf("control socket %s: exists and is not a socket; remove it or choose another -control path", path)
	}
	if c, err := net.Dial("unix", path); err == nil {
		c.Close()
		return fmt.Errorf("control socket %s: another process is listening on it (is airqd already running?)", path)
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("control socket %s: removing the stale socket: %w", path, err)
	}
	return nil
}

// Addr is the socket's path.
func (s *ControlServer) Addr() string { return s.path }

func (s *ControlServer) accept() {
	for {
		c, err := s.ln.Accept()
		if errors.Is(err, net.ErrClosed) {
			return // Close closed the listener
		}
		if err != nil {
			// Out of descriptors and the like: the daemon keeps
			// serving the radio; try again without spinning.
			select {
			case <-s.done:
				return
			case <-time.After(100 * time.Millisecond):
			}
			continue
		}
		if busy := !s.track(c); busy {
			// Refused: say why, without letting a client that never
			// reads hold up the accept loop.
			c.SetWriteDeadline(time.Now().Add(time.Second))
			r := ctl.Errorf(ctl.EBUSY, "more than %d control connections, or shutting down", MaxControlConns)
			r.WriteTo(c)
			c.Close()
			continue
		}
		s.wg.Go(func() {
			defer s.untrack(c)
			ctl.Serve(c, ctl.HandlerFunc(s.ask))
		})
	}
}

// track registers c, or refuses it when closing or full.
func (s *ControlServer) track(c net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || len(s.conns) == MaxControlConns {
		return false
	}
	s.conns[c] = struct{}{}
	return true
}

func (s *ControlServer) untrack(c net.Conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
	c.Close()
}

// ask hands req to the loop and waits for its answer.
func (s *ControlServer) ask(req ctl.Request) ctl.Reply {
	call := &ControlCall{req: req, reply: make(chan ctl.Reply, 1)}
	select {
	case s.calls <- call:
	case <-s.done:
		return ctl.Errorf(ctl.EBUSY, "airqd is shutting down")
	}
	select {
	case r := <-call.reply:
		return r
	case <-s.done:
		return ctl.Errorf(ctl.EBUSY, "airqd is shutting down")
	}
}

// closeGrace bounds how long Close lets a connection write its last reply.
const closeGrace = time.Second

// Close stops accepting, removes the socket file, ends every connection and
// waits for the goroutines. A request still waiting for the loop is
// answered EBUSY: connections are shut for reading (which wakes blocked
// reads with EOF) rather than closed, so that reply is still written, and a
// deadline bounds a client that does not read. It may be called more than
// once.
func (s *ControlServer) Close() error {
	var err error
	s.once.Do(func() {
		s.mu.Lock()
		s.closed = true
		close(s.done)
		err = s.ln.Close() // unlinks the socket file
		for c := range s.conns {
			c.SetDeadline(time.Now().Add(closeGrace))
			if uc, ok := c.(*net.UnixConn); ok {
				uc.CloseRead()
			}
		}
		s.mu.Unlock()
		s.wg.Wait()
	})
	return err
}

// Option configures Run.
type Option func(*runOptions)

type runOptions struct {
	control *ControlServer
}

// WithControl makes Run answer the control requests s receives, from its
// loop, and close s on the way out (before the stations are
// deauthenticated, so no request sees a core that is shutting down).
func WithControl(s *ControlServer) Option {
	return func(o *runOptions) { o.control = s }
}

// controlCalls is the channel the loop selects on: nil, never ready,
// without a control server.
func (o *runOptions) controlCalls() <-chan *ControlCall {
	if o.control == nil {
		return nil
	}
	return o.control.calls
}

func (o *runOptions) closeControl() {
	if o.control != nil {
		o.control.Close()
	}
}
