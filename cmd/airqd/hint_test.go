package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/ctl"
)

// airqd on the simulated radio says once how to stop it and what to try
// next, naming the socket only where airqctl would not look by itself.
func TestSimHint(t *testing.T) {
	xdg := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", xdg)
	def, _ := ctl.DaemonSocket(os.Geteuid(), xdg) // root's is /run/airq/airqd.sock
	if got := simHint(def); !strings.Contains(got, "Ctrl-C stops airqd") || !strings.Contains(got, "`airqctl top`") ||
		!strings.Contains(got, "`airqctl station dump`") {
		t.Errorf("default socket: %q", got)
	}
	if got := simHint("/tmp/x.sock"); !strings.Contains(got, "`airqctl -socket /tmp/x.sock top`") {
		t.Errorf("another socket: %q", got)
	}
	if got := shellWord("/tmp/a b/it's.sock"); got != `'/tmp/a b/it'\''s.sock'` {
		t.Errorf("quoted: %s", got)
	}
	if got := simHint(""); !strings.Contains(got, "Ctrl-C stops airqd") || strings.Contains(got, "airqctl top") {
		t.Errorf("no socket: %q", got)
	}

	d := startDaemon(t)
	waitUntil(t, "the hint", 5*time.Second, func() bool { return strings.Contains(d.log(), "Ctrl-C stops airqd") })
	if strings.Count(d.log(), "Ctrl-C stops airqd") != 1 || !strings.Contains(d.log(), "airqctl -socket "+d.socket+" top") {
		t.Errorf("log:\n%s", d.log())
	}
}
