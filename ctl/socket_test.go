package ctl

import (
	"errors"
	"slices"
	"testing"
)

func TestDefaultSockets(t *testing.T) {
	for _, c := range []struct {
		euid    int
		xdg     string
		daemon  string
		err     error
		clients []string
	}{
		{0, "", SystemSocket, nil, []string{SystemSocket}},
		{0, "/run/user/0", SystemSocket, nil, []string{SystemSocket}},
		{1000, "/run/user/1000", "/run/user/1000/airq/airqd.sock", nil, []string{"/run/user/1000/airq/airqd.sock", SystemSocket}},
		{1000, "", "", ErrNoDefaultSocket, []string{SystemSocket}},
		{1000, "run/user/1000", "", ErrNoDefaultSocket, []string{SystemSocket}},
	} {
		p, err := DaemonSocket(c.euid, c.xdg)
		if p != c.daemon || !errors.Is(err, c.err) {
			t.Errorf("DaemonSocket(%d, %q) = %q, %v; want %q, %v", c.euid, c.xdg, p, err, c.daemon, c.err)
		}
		if got := ClientSockets(c.euid, c.xdg); !slices.Equal(got, c.clients) {
			t.Errorf("ClientSockets(%d, %q) = %q, want %q", c.euid, c.xdg, got, c.clients)
		}
	}
}
