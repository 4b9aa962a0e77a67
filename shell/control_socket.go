package shell

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"
)

// DefaultControlIdle is how long a control connection may stay without a
// request before the server closes it, so that clients that hang on to
// their connection cannot hold all MaxControlConns for good.
const DefaultControlIdle = time.Minute

// ControlOption configures ListenControl.
type ControlOption func(*ControlServer)

// ControlLog makes the server log each live change a connection asks for
// (aql set, aql threshold, station set), one line with the old and the new
// value, once the core has applied it.
func ControlLog(log *slog.Logger) ControlOption {
	return func(s *ControlServer) { s.log = log }
}

// ControlIdle sets how long a connection may go without a request; an
// events stream is exempt. Zero or less keeps DefaultControlIdle.
func ControlIdle(d time.Duration) ControlOption {
	return func(s *ControlServer) {
		if d > 0 {
			s.idle = d
		}
	}
}

// ListenControl creates the control socket at path (mode 0660) and starts
// accepting; with an empty path there is no socket, and the server only
// carries Call, Reconfigure and Publish. The socket's directory must exist,
// except directly inside a runtime directory (/run, or $XDG_RUNTIME_DIR),
// where it is made with mode 0750, as systemd's RuntimeDirectory= would:
// airqd makes no directory anywhere else. A socket file nobody listens on
// is a leftover of a crash and is removed; a live one means another daemon
// owns the path, and any other file is left alone: both are errors.
// Requests are answered once the server is passed to Run (WithControl);
// Close stops it.
func ListenControl(path string, opts ...ControlOption) (*ControlServer, error) {
	if path == "" {
		return newControlServer(nil, "", opts), nil
	}
	if err := controlDir(filepath.Dir(path)); err != nil {
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
	s := newControlServer(ln, path, opts)
	s.wg.Go(s.accept)
	return s, nil
}

// controlDir checks the socket's directory, making it when its parent is
// a runtime directory.
func controlDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	parent := filepath.Dir(dir)
	if !isRuntimeDir(parent) {
		return fmt.Errorf("directory %s does not exist: create it, or choose another -control path "+
			"(airqd makes the directory only directly under /run or $XDG_RUNTIME_DIR)", dir)
	}
	if err := os.Mkdir(dir, 0o750); err != nil && !errors.Is(err, fs.ErrExist) {
		if errors.Is(err, fs.ErrPermission) {
			return fmt.Errorf("%w: run airqd as root (sudo), or give -control a path you may write", err)
		}
		return err
	}
	return nil
}

// isRuntimeDir reports whether dir is /run or the user's runtime directory.
func isRuntimeDir(dir string) bool {
	if dir == "/run" {
		return true
	}
	xdg := os.Getenv("XDG_RUNTIME_DIR")
	return filepath.IsAbs(xdg) && filepath.Clean(xdg) == dir
}

func newControlServer(ln *net.UnixListener, path string, opts []ControlOption) *ControlServer {
	s := &ControlServer{ln: ln, path: path, calls: make(chan *ControlCall), done: make(chan struct{}),
		idle: DefaultControlIdle, conns: map[net.Conn]struct{}{}, subs: map[*subscriber]struct{}{}}
	for _, o := range opts {
		o(s)
	}
	return s
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

// idleConn is a connection whose every read must start within idle of
// the last: a client that sends nothing for that long is dropped.
type idleConn struct {
	*net.UnixConn
	idle time.Duration
}

func (c *idleConn) Read(b []byte) (int, error) {
	c.SetReadDeadline(time.Now().Add(c.idle))
	return c.UnixConn.Read(b)
}
