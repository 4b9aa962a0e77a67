package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strings"

	"github.com/airq/airq/ctl"
)

// dial connects to airqd: at socket if given, else at the first of the
// default paths (ctl.ClientSockets) that exists.
func dial(socket string) (net.Conn, error) {
	tried := []string{socket}
	if socket == "" {
		tried = ctl.ClientSockets(os.Geteuid(), os.Getenv("XDG_RUNTIME_DIR"))
		socket = tried[len(tried)-1]
		for _, p := range tried {
			if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
				socket = p
				break
			}
		}
	}
	c, err := net.DialTimeout("unix", socket, timeout)
	switch {
	case err == nil:
		return c, nil
	case len(tried) > 1 && errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("no control socket at %s: is airqd running? (-socket names its -control path)", strings.Join(tried, " or "))
	case errors.Is(err, fs.ErrPermission):
		return nil, fmt.Errorf("%w: the socket is for root and airqd's group (sudo, or -socket to your own airqd's)", err)
	}
	return nil, fmt.Errorf("%w (is airqd running? -socket names its -control path)", err)
}
