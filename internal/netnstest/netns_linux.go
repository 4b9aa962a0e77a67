// Package netnstest runs integration tests in a private network namespace,
// where they may create veth pairs, TAP devices and bridges without
// touching the host's interfaces. Tests that cannot get one are skipped.
package netnstest

import (
	"net"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Enter moves the calling test goroutine, locked to its OS thread, into a
// fresh network namespace. The thread is never unlocked, so the runtime
// retires it when the test ends and the namespace, with every interface made
// in it, goes away once the last socket in it is closed. Interfaces, sockets
// and ip(8) commands made from this goroutine live in the namespace.
func Enter(tb testing.TB) {
	tb.Helper()
	if os.Geteuid() != 0 {
		tb.Skip("needs root to create a network namespace and interfaces in it")
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

// NeedTUN skips the test on a machine without /dev/net/tun (no TAP devices).
func NeedTUN(tb testing.TB) {
	tb.Helper()
	if _, err := os.Stat("/dev/net/tun"); err != nil {
		tb.Skipf("no /dev/net/tun: %v", err)
	}
}

// IP runs ip(8) with args and fails the test if it fails.
func IP(tb testing.TB, args ...string) {
	tb.Helper()
	if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
		tb.Fatalf("ip %v: %v: %s", args, err, out)
	}
}

// WaitRunning waits until the interfaces are operationally up. Until the
// kernel's link watcher has run, an interface that came up without carrier
// still has the noop qdisc, which silently drops what is sent through it.
func WaitRunning(tb testing.TB, names ...string) {
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
