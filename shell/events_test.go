package shell

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio/radiotest"
)

// Events published by the loop reach every subscribed connection, in
// order; a subscriber that leaves is forgotten.
func TestControlEventsStream(t *testing.T) {
	noLeaks(t)
	path := filepath.Join(t.TempDir(), "airqd.sock")
	srv, err := ListenControl(path)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	a, aconn := dial(t, path)
	b, _ := dial(t, path)
	for _, c := range []*ctl.Client{a, b} {
		if err := c.Subscribe(); err != nil {
			t.Fatal(err)
		}
	}
	other := ieee80211.MAC{2, 0, 0, 0, 2, 0}
	srv.Publish(ap.Event{Kind: ap.EventConnected, Addr: sta, AID: 1})
	srv.Publish(ap.Event{Kind: ap.EventDisconnected, Addr: other, AID: 2, Reason: 3, Why: "inactive"})
	want := []ctl.Event{{Kind: ctl.EventConnected, Addr: ctl.MAC(sta), AID: 1},
		{Kind: ctl.EventDisconnected, Addr: ctl.MAC(other), AID: 2, Reason: 3}}
	for _, c := range []*ctl.Client{a, b} {
		for _, w := range want {
			if e, err := c.NextEvent(); err != nil || e != w {
				t.Errorf("event %+v, %v; want %+v", e, err, w)
			}
		}
	}
	aconn.Close()
	waitFor(t, "the subscriber to leave", func() bool {
		srv.mu.Lock()
		defer srv.mu.Unlock()
		return len(srv.subs) == 1
	})
	srv.Close()
	if _, err := b.NextEvent(); err != io.EOF {
		t.Errorf("stream after Close: %v, want EOF", err)
	}
}

// The daemon's own callers go through the loop: Call answers like the
// socket, Reconfigure changes the core on the loop.
func TestControlCallAndReconfigure(t *testing.T) {
	noLeaks(t)
	srv, err := ListenControl("")
	if err != nil {
		t.Fatal(err)
	}
	core, err := ap.New(ap.Config{SSID: "inproc", BSSID: bssid, Channel: 1})
	if err != nil {
		t.Fatal(err)
	}
	stop := serveCalls(srv, func(call *ControlCall) {
		call.Serve(core, 0, func(r ctl.Request) ctl.Reply { return core.Control(0, r) })
	})
	ctx := context.Background()
	r, err := srv.Call(ctx, ctl.Request{Op: ctl.OpStatus})
	if err != nil || r.Status.SSID != "inproc" {
		t.Errorf("Call: %+v, %v", r, err)
	}
	if _, err := srv.Call(ctx, ctl.Request{Op: ctl.OpStationGet, Addr: sta}); err == nil {
		t.Error("Call of an unknown station succeeded")
	}
	acl := bss.NewACL(bss.ACLDenyUnlessAccepted, []ieee80211.MAC{sta}, nil)
	if removed, err := srv.Reconfigure(ctx, Reconfig{ACL: &acl, AirtimeWeight: 500}); err != nil || len(removed) != 0 {
		t.Errorf("Reconfigure: %v, %v", removed, err)
	}
	if _, err := srv.Reconfigure(ctx, Reconfig{ACL: &bss.ACL{Mode: 7}}); err == nil {
		t.Error("Reconfigure took an invalid access list")
	}
	stop()
	if c := core.Config(); c.AirtimeWeight != 500 || c.ACL.Mode != bss.ACLDenyUnlessAccepted || !c.ACL.Allows(sta) {
		t.Errorf("after Reconfigure: weight %d, acl %+v", c.AirtimeWeight, c.ACL)
	}
	// Nobody serves the calls now: ctx bounds the wait.
	tctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := srv.Call(tctx, ctl.Request{Op: ctl.OpStatus}); err != context.DeadlineExceeded {
		t.Errorf("Call without a loop: %v", err)
	}
	srv.Close()
	if _, err := srv.Call(ctx, ctl.Request{Op: ctl.OpStatus}); err == nil || !strings.Contains(err.Error(), "shutting down") {
		t.Errorf("Call after Close: %v", err)
	}
}

// A loop that answers every call as a request cannot apply a
// reconfiguration; Reconfigure says so instead of reporting success.
func TestControlReconfigureNeedsServe(t *testing.T) {
	noLeaks(t)
	srv, _ := ListenControl("")
	defer srv.Close()
	core, _ := ap.New(ap.Config{SSID: "old", BSSID: bssid, Channel: 1})
	go func() {
		call := <-srv.Calls()
		call.Answer(core.Control(0, call.Request()))
	}()
	if _, err := srv.Reconfigure(context.Background(), Reconfig{AirtimeWeight: 300}); err == nil {
		t.Error("Reconfigure answered as a request: no error")
	}
}

// Run's loop answers calls and applies reconfigurations.
func TestRunServesReconfigure(t *testing.T) {
	noLeaks(t)
	srv, err := ListenControl("")
	if err != nil {
		t.Fatal(err)
	}
	core, err := ap.New(ap.Config{SSID: "rt", BSSID: bssid, Channel: 6})
	if err != nil {
		t.Fatal(err)
	}
	dev, wired := radiotest.New(), radiotest.New()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, core, dev, wired, slog.New(slog.NewTextHandler(io.Discard, nil)), nil, WithControl(srv))
	}()
	waitFor(t, "a beacon in the status", func() bool {
		st, err := srv.Call(ctx, ctl.Request{Op: ctl.OpStatus})
		return err == nil && st.Status.Counters[counter.Beacons] > 0
	})
	if _, err := srv.Reconfigure(ctx, Reconfig{AirtimeWeight: 300}); err != nil {
		t.Errorf("Reconfigure: %v", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if w := core.Config().AirtimeWeight; w != 300 {
		t.Errorf("airtime weight %d after Reconfigure, want 300", w)
	}
}
