package main

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airq/airq/ap"
)

const reloadBSSes = "ssid=main\nchannel=6\nairtime_mode=2\nairtime_bss_weight=2\n" +
	"bss=guest\nssid=guest\nairtime_bss_weight=1\n" +
	"bss=iot\nssid=iot\nairtime_bss_weight=1\n"

// A reload tells the sections that changed apart by name: a section
// whose BSS keys changed restarts its BSS alone, with its new settings
// and its running BSSID; a section whose airtime keys alone changed
// restarts nothing (the policy applies live); bssid=, tap= and bridge=
// take a start; sections added, removed or reordered apply nothing.
func TestBSSReloadDiff(t *testing.T) {
	for _, c := range []struct {
		name, next string
		restart    []int    // the BSSes restarted
		changed    []string // guest's keys restarting it
		startOnly  []string // guest's keys needing a start
		sameSet    bool
	}{
		{name: "unchanged", next: reloadBSSes, sameSet: true},
		{name: "guest's SSID and DTIM", next: strings.Replace(reloadBSSes, "ssid=guest\n", "ssid=guest2\ndtim_period=3\n", 1),
			restart: []int{1}, changed: []string{"dtim_period", "ssid"}, sameSet: true},
		{name: "iot hidden", next: strings.Replace(reloadBSSes, "ssid=iot\n", "ssid=iot\nignore_broadcast_ssid=1\n", 1),
			restart: []int{2}, sameSet: true},
		{name: "guest's airtime weight", next: strings.Replace(reloadBSSes, "ssid=guest\nairtime_bss_weight=1", "ssid=guest\nairtime_bss_weight=3", 1),
			sameSet: true},
		{name: "guest's BSSID and TAP", next: strings.Replace(reloadBSSes, "ssid=guest\n", "ssid=guest\nbssid=02:00:00:00:01:0a\ntap=gtap\n", 1),
			startOnly: []string{"bssid", "tap"}, sameSet: true},
		{name: "the first BSS's SSID", next: strings.Replace(reloadBSSes, "ssid=main\n", "ssid=main2\n", 1), sameSet: true},
		{name: "a section added", next: reloadBSSes + "bss=lab\nssid=lab\nairtime_bss_weight=1\n"},
		{name: "a section removed", next: strings.Replace(reloadBSSes, "bss=iot\nssid=iot\nairtime_bss_weight=1\n", "", 1)},
		{name: "sections reordered", next: "ssid=main\nchannel=6\nairtime_mode=2\nairtime_bss_weight=2\n" +
			"bss=iot\nssid=iot\nairtime_bss_weight=1\nbss=guest\nssid=guest\nairtime_bss_weight=1\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			conf := writeConf(t, reloadBSSes)
			cur, err := parseFlags([]string{"-radio", "sim", "-config", conf})
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, conf, c.next)
			next, err := parseFlags([]string{"-radio", "sim", "-config", conf})
			if err != nil {
				t.Fatal(err)
			}
			br := (&reloader{cur: cur}).bssReloadOf(&next)
			var restarted []int
			for _, r := range br.restarts {
				restarted = append(restarted, r.Index)
				if want := next.Core.BSSes[r.Index-1]; r.Config.SSID != want.SSID || r.Config.Name != want.Name || !r.Config.BSSID.IsZero() {
					t.Errorf("BSS %d restarts with %+v, want the file's %+v and the running (derived) BSSID", r.Index, r.Config, want)
				}
			}
			if !slices.Equal(restarted, c.restart) || !slices.Equal(br.changed["guest"], c.changed) ||
				!slices.Equal(br.startOnly["guest"], c.startOnly) || br.sameSet != c.sameSet {
				t.Errorf("restarts %v, guest's changed %v and start-only %v, same set %v; want %v %v %v %v",
					restarted, br.changed["guest"], br.startOnly["guest"], br.sameSet, c.restart, c.changed, c.startOnly, c.sameSet)
			}
		})
	}
}

// SIGHUP with the guest section changed restarts the guest BSS alone on
// the running core, with the new SSID, and logs it; the first BSS and the
// third keep their configuration. Sections added later are logged as
// taking a start, and the running BSSes stay as they are.
func TestReloadRestartsChangedBSS(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "airqd.conf")
	writeFile(t, conf, reloadBSSes)
	var log strings.Builder
	rl, core := testReloaderCore(t, conf, &log)
	guestID := core.Config().BSSes[0].BSSID
	writeFile(t, conf, strings.Replace(reloadBSSes, "ssid=guest\n", "ssid=guest2\nmax_num_sta=5\n", 1))
	if err := rl.reloadFile(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := core.Config()
	if g := c.BSSes[0]; g.SSID != "guest2" || g.MaxStations != 5 || g.BSSID != guestID || g.Name != "guest" {
		t.Errorf("the guest BSS runs %+v, want ssid guest2, max_num_sta 5 and its BSSID %v", g, guestID)
	}
	if c.SSID != "main" || c.BSSes[1].SSID != "iot" {
		t.Errorf("the other BSSes run %q and %q", c.SSID, c.BSSes[1].SSID)
	}
	if rl.cur.Core.BSSes[0].SSID != "guest2" || !strings.Contains(log.String(), `msg="reload: restarted the BSS alone, its stations deauthenticated; the others keep theirs" bss=guest keys="max_num_sta ssid"`) {
		t.Errorf("running %+v; log:\n%s", rl.cur.Core.BSSes[0], log.String())
	}
	log.Reset()
	writeFile(t, conf, strings.Replace(reloadBSSes, "ssid=guest\n", "ssid=guest3\n", 1)+"bss=lab\nssid=lab\nairtime_bss_weight=1\n")
	if err := rl.reloadFile(context.Background()); err != nil {
		t.Fatal(err)
	}
	if core.Config().BSSes[0].SSID != "guest2" || len(core.Config().BSSes) != 2 ||
		!strings.Contains(log.String(), "bss= sections added, removed or reordered: restart airqd to apply them") ||
		!strings.Contains(log.String(), `running="guest iot" file="guest iot lab"`) {
		t.Errorf("a section added: the guest BSS runs %q; log:\n%s", core.Config().BSSes[0].SSID, log.String())
	}
}

// A section's access list file whose contents alone changed restarts its
// BSS with the new list, as the first BSS's lists are re-read.
func TestBSSReloadFileContents(t *testing.T) {
	dir := t.TempDir()
	deny := filepath.Join(dir, "deny")
	writeFile(t, deny, "02:00:00:00:20:01\n")
	conf := writeConf(t, reloadBSSes+"macaddr_acl=0\ndeny_mac_file="+deny+"\n")
	cur, err := parseFlags([]string{"-radio", "sim", "-config", conf})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, deny, "02:00:00:00:20:01\n02:00:00:00:20:02\n")
	next, err := parseFlags([]string{"-radio", "sim", "-config", conf})
	if err != nil {
		t.Fatal(err)
	}
	br := (&reloader{cur: cur}).bssReloadOf(&next)
	if len(br.restarts) != 1 || br.restarts[0].Index != 2 || len(br.restarts[0].Config.ACL.Deny) != 2 ||
		!slices.Equal(br.changed["iot"], []string{"accept_mac_file/deny_mac_file contents"}) {
		t.Errorf("restarts %+v, iot's changes %v", br.restarts, br.changed["iot"])
	}
}

// A secured section's changes take a start (the core restarts a secured
// BSS only with the radio): logged, not restarted.
func TestBSSReloadSecuredSection(t *testing.T) {
	conf := writeConf(t, reloadBSSes)
	cur, err := parseFlags([]string{"-radio", "sim", "-config", conf})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, conf, strings.Replace(reloadBSSes, "ssid=guest\n", "ssid=guest2\n", 1))
	next, err := parseFlags([]string{"-radio", "sim", "-config", conf})
	if err != nil {
		t.Fatal(err)
	}
	next.Core.BSSes[0].RSN = &ap.RSNConfig{} // as a secured section parses once the core takes one
	br := (&reloader{cur: cur}).bssReloadOf(&next)
	if len(br.restarts) != 0 || !slices.Equal(br.startOnly["guest"], []string{"ssid"}) || len(br.changed["guest"]) != 0 {
		t.Errorf("restarts %+v, guest's start-only %v, changed %v", br.restarts, br.startOnly["guest"], br.changed["guest"])
	}
}

// A BSS restarted by a reload keeps the interface holding its BSSID and
// its TAP, which only a start opens, even when its tap= changed with a
// key that restarts it.
func TestBSSReloadKeepsHolderAndTAP(t *testing.T) {
	conf := writeConf(t, reloadBSSes)
	cur, err := parseFlags([]string{"-radio", "sim", "-config", conf})
	if err != nil {
		t.Fatal(err)
	}
	cur.Core.BSSes[0].Holder, cur.Core.BSSes[0].TAP = "airq0.2", "guest" // as on a real radio
	writeFile(t, conf, strings.Replace(reloadBSSes, "ssid=guest\n", "ssid=guest2\ntap=gtap\n", 1))
	next, err := parseFlags([]string{"-radio", "sim", "-config", conf})
	if err != nil {
		t.Fatal(err)
	}
	next.Core.BSSes[0].Holder, next.Core.BSSes[0].TAP = "airq0.2", "gtap"
	br := (&reloader{cur: cur}).bssReloadOf(&next)
	if len(br.restarts) != 1 || br.restarts[0].Config.SSID != "guest2" || br.restarts[0].Config.Holder != "airq0.2" || br.restarts[0].Config.TAP != "guest" {
		t.Errorf("restarts %+v, want guest's with ssid guest2, holder airq0.2 and its running TAP guest", br.restarts)
	}
}
