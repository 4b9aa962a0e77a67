package tap

import (
	"net"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// enterNetNS moves the calling test goroutine, locked to its OS thread, into
// a fresh network namespace. The thread is never unlocked, so the runtime
// retires it when the test ends and the namespace, with every interface made
// in it, goes away once the last socket in it is closed. Interfaces, sockets
// and ip(8) commands made from this goroutine live in the namespace.
func enterNetNS(tb testing.TB) {
	tb.Helper()
	if os.Geteuid() != 0 {
		tb.Skip("needs root to create a network namespace and TAP interfaces")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		tb.Skip("needs ip(8) from iproute2")
	}
	runtime.LockOSThread()
	if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
		tb.Skipf("cannot create a network namespace: %v", err)
	}
	// Keep IPv6 neighbour discovery off the test links.
	_ = os.WriteFile("/proc/sys/net/ipv6/conf/default/disable_ipv6", []byte("1"), 0)
}

func ip(tb testing.TB, args ...string) {
	tb.Helper()
	if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
		tb.Fatalf("ip %v: %v: %s", args, err, out)
	}
}

// waitRunning waits until the interfaces are operationally up. Until the
// kernel's link watcher has run, an interface that came up without carrier
// still has the noop qdisc, which silently drops what is sent through it.
func waitRunning(tb testing.TB, names ...string) {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for _, name := range names {
		for {
			ifi, err := net.InterfaceByName(name)
			if err != nil {
				tb.Fatal(err)
			}
			if ifi.Flags&net.FlagRunning != 0 {
				break
			}
			if time.Now().After(deadline) {
				tb.Fatalf("%s is not running after 10s", name)
			}
			time.Sleep(5 * time.Millisecond) // polling a condition, not ordering events
		}
	}
}
