package ctl

import (
	"errors"
	"path/filepath"
)

// SystemSocket is the control socket of airqd run as root, in the
// runtime directory systemd makes for it (RuntimeDirectory=airq).
const SystemSocket = "/run/airq/airqd.sock"

// userSocket is the control socket's path under a user's runtime directory.
const userSocket = "airq/airqd.sock"

// ErrNoDefaultSocket: airqd runs neither as root nor with a runtime
// directory of its user, so it has no default control socket.
var ErrNoDefaultSocket = errors.New("not running as root and XDG_RUNTIME_DIR is unset: no default control socket path")

// DaemonSocket returns airqd's default control socket for a process of
// effective user euid whose XDG_RUNTIME_DIR is xdg: SystemSocket for root,
// else airq/airqd.sock in the user's runtime directory (a relative xdg is
// ignored, as the XDG spec says).
func DaemonSocket(euid int, xdg string) (string, error) {
	if euid == 0 {
		return SystemSocket, nil
	}
	if !filepath.IsAbs(xdg) {
		return "", ErrNoDefaultSocket
	}
	return filepath.Join(xdg, userSocket), nil
}

// ClientSockets lists where airqctl looks for airqd, in order: the path
// airqd run by the same user would take, then, for anyone but root, the
// system daemon's.
func ClientSockets(euid int, xdg string) []string {
	p, err := DaemonSocket(euid, xdg)
	if err != nil {
		return []string{SystemSocket}
	}
	if p == SystemSocket {
		return []string{p}
	}
	return []string{p, SystemSocket}
}
