package main

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/monitor"
	"github.com/airq/airq/sae"
	"github.com/airq/airq/shell"
)

// A SIGHUP applies the new SAE passwords but keeps the running sae_groups
// and sae_pwe, which need a restart: the reloader must record those it
// kept, so that a second reload derives the PTs for the groups and method
// that run, not for the file's.
func TestReloadKeepsRunningSAEGroupsAndPWE(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "airqd.conf")
	const head = "ssid=wpa3\nwpa=2\nwpa_key_mgmt=SAE\nieee80211w=2\n"
	writeFile(t, conf, head+"sae_password=first password\n")
	rl := testReloader(t, conf, io.Discard)
	for _, pw := range []string{"second password", "third password"} {
		writeFile(t, conf, head+"sae_password="+pw+"\nsae_groups=19 20\nsae_pwe=1\n")
		if err := rl.reloadFile(context.Background()); err != nil {
			t.Fatalf("reload with %q: %v", pw, err)
		}
		s := rl.cur.Core.RSN.SAE
		if s == nil || len(s.Passwords) != 1 || string(s.Passwords[0].Password) != pw {
			t.Fatalf("after the reload to %q the running passwords are not the file's", pw)
		}
		if slices.Contains(s.Groups, 20) || s.PWE != sae.HuntAndPeck {
			t.Errorf("after the reload to %q the reloader records groups %v and sae_pwe %d; want the running 19 and 0 (they need a restart)", pw, s.Groups, s.PWE)
		}
	}
}

// testReloader is SIGHUP's reloader for a core started from conf, its
// control calls served as the loop serves them; it logs to w.
func testReloader(t *testing.T, conf string, w io.Writer) *reloader {
	rl, _ := testReloaderCore(t, conf, w)
	return rl
}

// testReloaderCore is testReloader with its core, whose BSSes after the
// first have the BSSIDs derived from the first's. The core may be read
// once a reload has returned.
func testReloaderCore(t *testing.T, conf string, w io.Writer) (*reloader, *ap.AP) {
	t.Helper()
	args := []string{"-radio", "sim", "-config", conf}
	opts, err := parseFlags(args)
	if err != nil {
		t.Fatal(err)
	}
	cfg := withBSSID(opts.Core)
	monitor.DeriveBSSIDs(&cfg)
	core, err := ap.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := shell.ListenControl("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	go func() {
		for c := range srv.Calls() {
			c.Serve(core, 0, func(req ctl.Request) ctl.Reply { return core.Control(0, req) })
		}
	}()
	return &reloader{args: args, cur: opts, srv: srv, level: new(slog.LevelVar), log: slog.New(slog.NewTextHandler(w, nil))}, core
}

// SIGHUP re-reads sae_password_file when only its contents changed, and
// applies its passwords.
func TestReloadSAEPasswordFile(t *testing.T) {
	dir := t.TempDir()
	conf, file := filepath.Join(dir, "airqd.conf"), filepath.Join(dir, "sae_passwords")
	writeFile(t, file, "first password\n")
	writeFile(t, conf, "ssid=wpa3\nwpa=2\nwpa_key_mgmt=SAE\nieee80211w=2\nsae_password_file="+file+"\n")
	var log strings.Builder
	rl := testReloader(t, conf, &log)
	writeFile(t, file, "# rotated\nsecond password|id=guest\n")
	if err := rl.reloadFile(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := rl.cur.Core.RSN.SAE
	if len(s.Passwords) != 1 || string(s.Passwords[0].Password) != "second password" || string(s.Passwords[0].Identifier) != "guest" {
		t.Errorf("running passwords not the file's new ones")
	}
	if !strings.Contains(log.String(), "reload: applied the PSKs and SAE passwords") || strings.Contains(log.String(), "password|") ||
		strings.Contains(log.String(), "second password") {
		t.Errorf("log:\n%s", log.String())
	}
}
