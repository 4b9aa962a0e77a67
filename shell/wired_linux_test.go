package shell

import (
	"context"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/internal/netnstest"
	"github.com/airq/airq/radio/radiotest"
	"github.com/airq/airq/tap"
)

// TestIntegrationOpenWired opens three BSSes' TAPs in a private network
// namespace, two joined to their own bridges, with the offload each asks
// for; closing them removes them. A missing bridge fails the start naming
// its BSS and leaves no TAP behind.
func TestIntegrationOpenWired(t *testing.T) {
	netnstest.NeedTUN(t)
	netnstest.Enter(t)
	for _, br := range []string{"wbr0", "wbr1"} {
		netnstest.IP(t, "link", "add", br, "type", "bridge")
	}
	sides := []WiredSide{
		{BSS: "wlan0", TAP: "wtap0", Bridge: "wbr0", Offload: tap.OffloadTSO},
		{BSS: "guest", TAP: "wtap1", Bridge: "wbr1"},
		{BSS: "iot", TAP: "wtap2", Offload: tap.OffloadOff},
	}
	taps, err := OpenWired(sides)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range sides {
		d := taps[i]
		if d.Name() != s.TAP {
			t.Errorf("bss %s: TAP %q, want %q", s.BSS, d.Name(), s.TAP)
		}
		want := 0
		if s.Bridge != "" {
			br, err := net.InterfaceByName(s.Bridge)
			if err != nil {
				t.Fatal(err)
			}
			want = br.Index
		}
		if m, err := d.Master(); err != nil || m != want {
			t.Errorf("bss %s: master %d, %v; want %d (%s)", s.BSS, m, err, want, s.Bridge)
		}
	}
	if taps[0].Offloads() == "" || taps[2].Offloads() != "" {
		t.Errorf("offloads %q and %q: want TSO's on the first, none on the third", taps[0].Offloads(), taps[2].Offloads())
	}
	if err := closeWired(taps); err != nil {
		t.Fatal(err)
	}
	for _, s := range sides {
		if _, err := net.InterfaceByName(s.TAP); err == nil {
			t.Errorf("%s still there after close", s.TAP)
		}
	}

	sides[1].Bridge = "nosuchbr0"
	if _, err := OpenWired(sides); err == nil || !strings.HasPrefix(err.Error(), "bss guest:") {
		t.Fatalf("a missing bridge: %v, want a failure of bss guest", err)
	}
	if _, err := net.InterfaceByName("wtap0"); err == nil {
		t.Error("wtap0 left behind by a failed start")
	}
}

// TestIntegrationRunWired runs the core on a BSS's TAP that RunWired opens
// in a private network namespace: the TAP is up and on its bridge when the
// core beacons, the daemon is told of it first, and it is gone when the
// core stops. RunWired runs on the test's goroutine, whose thread is in
// the namespace.
func TestIntegrationRunWired(t *testing.T) {
	netnstest.NeedTUN(t)
	netnstest.Enter(t)
	netnstest.IP(t, "link", "add", "rwbr0", "type", "bridge")
	br, err := net.InterfaceByName("rwbr0")
	if err != nil {
		t.Fatal(err)
	}
	core, err := ap.New(ap.Config{SSID: "rt", BSSID: bssid, Channel: 6})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var told []*tap.Device
	ready := func() {
		defer cancel()
		ifi, err := net.InterfaceByName("rwtap0")
		if err != nil {
			t.Errorf("no TAP while the core beacons: %v", err)
			return
		}
		if ifi.Flags&net.FlagUp == 0 || len(told) != 1 || told[0].Name() != "rwtap0" {
			t.Errorf("TAP flags %v, the daemon told of %v", ifi.Flags, told)
		}
		if m, err := told[0].Master(); err != nil || m != br.Index {
			t.Errorf("master %d, %v; want rwbr0's %d", m, err, br.Index)
		}
	}
	sides := []WiredSide{{BSS: "wlan0", TAP: "rwtap0", Bridge: "rwbr0"}}
	err = RunWired(ctx, core, radiotest.New(), sides, slog.New(slog.DiscardHandler), func(d []*tap.Device) { told = d }, ready)
	if err != nil {
		t.Fatalf("RunWired: %v", err)
	}
	if _, err := net.InterfaceByName("rwtap0"); err == nil {
		t.Error("the TAP is still there after the core stopped")
	}
}
