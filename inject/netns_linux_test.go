package inject

import (
	"testing"

	"github.com/airq/airq/internal/netnstest"
)

// vethPair creates the veth pair a <-> b in the test's namespace, b up.
func vethPair(tb testing.TB, a, b string) {
	tb.Helper()
	netnstest.IP(tb, "link", "add", a, "type", "veth", "peer", "name", b)
	netnstest.IP(tb, "link", "set", b, "up")
}
