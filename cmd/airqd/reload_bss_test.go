package main

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
		{name: "guest's own timers and announcements", next: strings.Replace(reloadBSSes, "ssid=guest\n", "ssid=guest\nap_max_inactivity=60\nauth_timeout=2s\nutf8_ssid=1\nbss_load_update_period=5\n", 1),
			restart: []int{1}, changed: []string{"ap_max_inactivity", "auth_timeout", "bss_load_update_period", "utf8_ssid"}, sameSet: true},
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
			br, err := (&reloader{cur: cur}).bssReloadOf(&next)
			if err != nil {
				t.Fatal(err)
			}
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

// SIGHUP with the guest section's wmm_enabled, disable_11n and
// multicast_to_unicast changed restarts the guest alone with its new
// values; the first BSS and the third keep theirs.
func TestReloadRestartsBSSWithItsWMMAndHT(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "airqd.conf")
	base := strings.Replace(reloadBSSes, "channel=6\n", "channel=6\nieee80211n=1\n", 1)
	writeFile(t, conf, base)
	var log strings.Builder
	rl, core := testReloaderCore(t, conf, &log)
	if g := core.Config().BSSes[0]; g.NoWMM || g.NoHT || g.MulticastToUnicast {
		t.Fatalf("the guest starts with %+v", g)
	}
	writeFile(t, conf, strings.Replace(base, "ssid=guest\n", "ssid=guest\nwmm_enabled=0\ndisable_11n=1\nmulticast_to_unicast=1\n", 1))
	if err := rl.reloadFile(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := core.Config()
	if g := c.BSSes[0]; !g.NoWMM || !g.NoHT || !g.MulticastToUnicast {
		t.Errorf("the guest BSS runs %+v, want WMM and HT off, multicast_to_unicast on", g)
	}
	if i := c.BSSes[1]; !c.WMM || c.NoHT || c.MulticastToUnicast || i.NoWMM || i.NoHT || i.MulticastToUnicast {
		t.Errorf("the others changed: first WMM %v, no HT %v, multicast to unicast %v; iot %+v", c.WMM, c.NoHT, c.MulticastToUnicast, i)
	}
	if !strings.Contains(log.String(), `bss=guest keys="disable_11n multicast_to_unicast wmm_enabled"`) {
		t.Errorf("log:\n%s", log.String())
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
	br, err := (&reloader{cur: cur}).bssReloadOf(&next)
	if err != nil || len(br.restarts) != 1 || br.restarts[0].Index != 2 || len(br.restarts[0].Config.ACL.Deny) != 2 ||
		!slices.Equal(br.changed["iot"], []string{"accept_mac_file/deny_mac_file contents"}) {
		t.Errorf("restarts %+v, iot's changes %v", br.restarts, br.changed["iot"])
	}
}

const securedGuest = "ssid=main\nchannel=6\nwpa=2\nwpa_passphrase=main passphrase\n" +
	"bss=guest\nssid=guest\nwpa=2\nwpa_passphrase=guest passphrase\n" +
	"bss=iot\nssid=iot\n"

// A secured section's changes restart its BSS alone, secured or turning
// open; its secrets alone changing (a passphrase, wpa_psk_file's
// contents) reload its keys without a restart, for its BSS only.
func TestBSSReloadSecuredSection(t *testing.T) {
	dir := t.TempDir()
	pskFile := filepath.Join(dir, "psks")
	base := strings.Replace(securedGuest, "wpa_passphrase=guest passphrase\n", "wpa_passphrase=guest passphrase\nwpa_psk_file="+pskFile+"\n", 1)
	const stationPSK = "02:00:00:00:20:09 a station's passphrase\n"
	for _, c := range []struct {
		name, next, file string
		restart, psks    []int
		changed          []string
	}{
		{name: "ssid", next: strings.Replace(base, "ssid=guest\n", "ssid=guest2\n", 1), restart: []int{1}, changed: []string{"ssid"}},
		{name: "turning open", next: strings.Replace(base, "wpa=2\nwpa_passphrase=guest passphrase\nwpa_psk_file="+pskFile+"\n", "", 1), restart: []int{1},
			changed: []string{"wpa"}},
		{name: "passphrase", next: strings.Replace(base, "guest passphrase", "another guest passphrase", 1), psks: []int{1}},
		{name: "psk file contents", next: base, file: "02:00:00:00:20:09 another station passphrase\n", psks: []int{1}},
		{name: "passphrase and dtim", next: strings.Replace(base, "guest passphrase\n", "another guest passphrase\ndtim_period=3\n", 1),
			restart: []int{1}, changed: []string{"dtim_period"}},
		{name: "the iot section turning secured", next: base + "wpa=2\nwpa_passphrase=iot passphrase\n", restart: []int{2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			writeFile(t, pskFile, stationPSK)
			conf := writeConf(t, base)
			cur, err := parseFlags([]string{"-radio", "sim", "-config", conf})
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, conf, c.next)
			if c.file != "" {
				writeFile(t, pskFile, c.file)
			} else {
				writeFile(t, pskFile, stationPSK)
			}
			next, err := parseFlags([]string{"-radio", "sim", "-config", conf})
			if err != nil {
				t.Fatal(err)
			}
			br, err := (&reloader{cur: cur}).bssReloadOf(&next)
			if err != nil {
				t.Fatal(err)
			}
			var restarted, reloaded []int
			for _, r := range br.restarts {
				restarted = append(restarted, r.Index)
				if (r.Config.RSN == nil) != (next.Core.BSSes[r.Index-1].RSN == nil) || (r.Keys == nil) != (r.Config.RSN == nil) {
					t.Errorf("BSS %d restarts secured %v (keys derived %v), want the file's", r.Index, r.Config.RSN != nil, r.Keys != nil)
				}
			}
			for _, p := range br.psks {
				reloaded = append(reloaded, p.Index)
				if p.PSKs == nil || !br.secrets[p.Index].SameSecrets(next.Core.BSSes[p.Index-1].RSN) {
					t.Errorf("BSS %d reloads keys other than the file's", p.Index)
				}
			}
			if !slices.Equal(restarted, c.restart) || !slices.Equal(reloaded, c.psks) || !slices.Equal(br.changed["guest"], c.changed) || len(br.startOnly) != 0 {
				t.Errorf("restarts %v, PSK reloads %v, guest's changed %v, start-only %v; want %v %v %v",
					restarted, reloaded, br.changed["guest"], br.startOnly, c.restart, c.psks, c.changed)
			}
		})
	}
}

// SIGHUP on the running core: the guest section's new passphrase reloads
// the guest BSS's keys (the BSS keeps running: no restart) and leaves the
// first BSS's; then its new SSID restarts it, secured, alone.
func TestReloadSecuredBSS(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "airqd.conf")
	writeFile(t, conf, securedGuest)
	var log strings.Builder
	rl, core := testReloaderCore(t, conf, &log)
	running := core.Config().BSSes[0].RSN
	writeFile(t, conf, strings.Replace(securedGuest, "guest passphrase", "another guest passphrase", 1))
	if err := rl.reloadFile(context.Background()); err != nil {
		t.Fatal(err)
	}
	if core.Config().BSSes[0].RSN != running || rl.cur.Core.BSSes[0].RSN.Passphrase.Reveal() != "another guest passphrase" ||
		rl.cur.Core.RSN.Passphrase.Reveal() != "main passphrase" {
		t.Errorf("the guest BSS restarted, or the running passphrases are not the file's")
	}
	if !strings.Contains(log.String(), `msg="reload: applied the BSS's PSKs and SAE passwords; its stations whose key is gone are deauthenticated" bss=guest`) ||
		strings.Contains(log.String(), "restart airqd") || strings.Contains(log.String(), "another guest passphrase") {
		t.Errorf("log:\n%s", log.String())
	}
	log.Reset()
	writeFile(t, conf, strings.Replace(securedGuest, "ssid=guest\n", "ssid=guest2\n", 1))
	if err := rl.reloadFile(context.Background()); err != nil {
		t.Fatal(err)
	}
	if g := core.Config().BSSes[0]; g.SSID != "guest2" || g.RSN == nil || g.RSN.Passphrase.Reveal() != "guest passphrase" {
		t.Errorf("the guest BSS runs ssid %q secured %v", g.SSID, g.RSN != nil)
	}
	if !strings.Contains(log.String(), `bss=guest keys=ssid`) || strings.Contains(log.String(), "restart airqd") {
		t.Errorf("log:\n%s", log.String())
	}
}

// RELOAD_WPA_PSK for one BSS (reloadPSKsFor) applies that section's
// secrets alone: the guest's new passphrase, not the first section's,
// without restarting the guest BSS; a BSS the file does not run is
// refused.
func TestReloadPSKsForBSS(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "airqd.conf")
	writeFile(t, conf, securedGuest)
	var log strings.Builder
	rl, core := testReloaderCore(t, conf, &log)
	running := core.Config().BSSes[0].RSN
	writeFile(t, conf, strings.Replace(strings.Replace(securedGuest, "guest passphrase", "another guest passphrase", 1),
		"main passphrase", "another main passphrase", 1))
	next, err := parseFlagsWith(rl.args, nil)
	if err != nil {
		t.Fatal(err)
	}
	rl.mu.Lock()
	defer rl.mu.Unlock()
	if err := rl.reloadPSKsFor(context.Background(), &next, 1); err != nil {
		t.Fatal(err)
	}
	if rl.cur.Core.BSSes[0].RSN.Passphrase.Reveal() != "another guest passphrase" || rl.cur.Core.RSN.Passphrase.Reveal() != "main passphrase" ||
		core.Config().BSSes[0].RSN != running {
		t.Error("not the guest's passphrase alone reloaded, or the guest BSS restarted")
	}
	if !strings.Contains(log.String(), `msg="RELOAD_WPA_PSK: applied the PSKs" bss=guest entries=0`) {
		t.Errorf("log:\n%s", log.String())
	}
	if err := rl.reloadPSKsFor(context.Background(), &next, 2); err != nil {
		t.Errorf("the open iot BSS: %v", err)
	}
	if err := rl.reloadPSKsFor(context.Background(), &next, 3); err == nil {
		t.Error("a BSS the radio does not run reloaded")
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
	br, err := (&reloader{cur: cur}).bssReloadOf(&next)
	if err != nil {
		t.Fatal(err)
	}
	if len(br.restarts) != 1 || br.restarts[0].Config.SSID != "guest2" || br.restarts[0].Config.Holder != "airq0.2" || br.restarts[0].Config.TAP != "guest" {
		t.Errorf("restarts %+v, want guest's with ssid guest2, holder airq0.2 and its running TAP guest", br.restarts)
	}
}
