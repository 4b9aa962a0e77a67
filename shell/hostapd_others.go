//go:build !linux

package shell

import (
	"errors"
	"log/slog"

	"github.com/airq/airq/ctl/hostapd"
)

// HostapdServer is a BSS's hostapd control socket; Linux only.
type HostapdServer struct{ h *hostapdIface }

// ListenHostapd fails: hostapd's control sockets are served on Linux.
func ListenHostapd(*ControlServer, HostapdConfig) (*HostapdServer, error) {
	return nil, errors.New("ctrl_interface: hostapd's control sockets are supported on Linux only")
}

// Addr is empty.
func (s *HostapdServer) Addr() string { return "" }

// Close does nothing.
func (s *HostapdServer) Close() error { return nil }

// CloseAfterReply does nothing.
func (s *HostapdServer) CloseAfterReply() {}

// ListenHostapdGlobal fails: hostapd's control sockets are served on Linux.
func ListenHostapdGlobal(*ControlServer, string, int, HostapdGlobal, *slog.Logger) (*HostapdServer, error) {
	return nil, errors.New("-g: hostapd's control sockets are supported on Linux only")
}

// dataTest is hostapd's test socket; Linux only.
type dataTest struct{}

func (d *dataTest) Close() error { return nil }

func (h *hostapdIface) dataTestConfig(hostapd.Command) error {
	return errors.New("data test: Linux only")
}

func (h *hostapdIface) dataTestTx(hostapd.Command) error { return errors.New("data test: Linux only") }

func (h *hostapdIface) closeTest() {}
