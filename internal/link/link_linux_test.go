package link

import (
	"errors"
	"net"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/airq/airq/internal/netnstest"
)

// TestIntegrationLink sets a veth end's state in a private namespace and
// reads it back through the kernel's own view (net.InterfaceByName).
func TestIntegrationLink(t *testing.T) {
	netnstest.Enter(t)
	netnstest.IP(t, "link", "add", "lk0", "type", "veth", "peer", "name", "lk1")
	read := func() *net.Interface {
		t.Helper()
		ifi, err := net.InterfaceByName("lk0")
		if err != nil {
			t.Fatal(err)
		}
		return ifi
	}
	index, err := Index("lk0")
	if err != nil || index != read().Index {
		t.Fatalf("index %d, %v; the kernel says %d", index, err, read().Index)
	}
	if err := SetMTU("lk0", 2560); err != nil || read().MTU != 2560 {
		t.Fatalf("MTU: %v, now %d", err, read().MTU)
	}
	for range 2 { // the second time is a no-op
		if err := Up("lk0"); err != nil || read().Flags&net.FlagUp == 0 {
			t.Fatalf("up: %v, flags %v", err, read().Flags)
		}
	}
	for range 2 {
		if err := Down("lk0"); err != nil || read().Flags&net.FlagUp != 0 {
			t.Fatalf("down: %v, flags %v", err, read().Flags)
		}
	}
	if err := SetMTU("lk0", 1<<20); !errors.Is(err, unix.EINVAL) || !strings.HasPrefix(err.Error(), "set MTU 1048576: ") {
		t.Errorf("MTU too large: %v", err)
	}
	for _, err := range []error{Up("nosuch0"), func() error { _, err := Index("nosuch0"); return err }()} {
		if !errors.Is(err, unix.ENODEV) {
			t.Errorf("missing interface: %v, want ENODEV", err)
		}
	}
}
