package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// SET on a BSS's hostapd socket changes that BSS, as hostapd's SET acts
// on the socket's BSS: a BSS key set on the guest's socket lands in the
// guest's section (and RELOAD restarts the guest alone with it), one set
// on the first BSS's socket in the first section, whatever sections
// follow; a radio key from any socket is the radio's, and a radio key a
// reload cannot apply is refused on every socket.
func TestHostapdSetPerBSS(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "airqd.conf")
	writeFile(t, conf, reloadBSSes)
	rl, core := testReloaderCore(t, conf, io.Discard)
	first, guest := &hostapdBackend{rl: rl, srv: rl.srv}, &hostapdBackend{rl: rl, srv: rl.srv, bss: "guest"}
	if err := first.Set("airtime_bss_weight", "5"); err != nil {
		t.Fatal(err)
	}
	if err := guest.Set("ssid", "guest2"); err != nil {
		t.Fatalf("SET ssid on the guest's socket: %v", err)
	}
	if err := guest.Set("max_num_sta", "7"); err != nil {
		t.Fatalf("SET max_num_sta on the guest's socket: %v", err)
	}
	if err := guest.Set("aql_threshold", "20000"); err != nil { // the radio's, from the guest's socket
		t.Fatalf("SET aql_threshold on the guest's socket: %v", err)
	}
	for _, b := range []*hostapdBackend{first, guest} {
		if err := b.Set("beacon_int", "200"); err == nil || !strings.Contains(err.Error(), "only at start") {
			t.Errorf("SET beacon_int on %q's socket: %v, want refused: a radio key a reload cannot apply", b.bss, err)
		}
	}
	if err := guest.Set("bridge", "br-guest"); err == nil || !strings.Contains(err.Error(), "bss guest takes it only at start") {
		t.Errorf("SET bridge on the guest's socket: %v, want refused: only a start opens the wired side", err)
	}
	next, err := parseFlagsWith(rl.args, rl.staged)
	if err != nil {
		t.Fatal(err)
	}
	if next.BSSAirtime.Weight != 5 || next.BSSes[0].Settings.BSSAirtime.Weight != 1 || next.BSSes[1].Settings.BSSAirtime.Weight != 1 {
		t.Errorf("airtime_bss_weight on the first socket: first %d, guest %d, iot %d; want 5 1 1", next.BSSAirtime.Weight,
			next.BSSes[0].Settings.BSSAirtime.Weight, next.BSSes[1].Settings.BSSAirtime.Weight)
	}
	if next.Core.SSID != "main" || next.Core.BSSes[1].SSID != "iot" || next.Core.AQL.Threshold != 20000 {
		t.Errorf("the first BSS %q, iot %q, AQL threshold %d", next.Core.SSID, next.Core.BSSes[1].SSID, next.Core.AQL.Threshold)
	}
	if err := guest.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := core.Config()
	if c.SSID != "main" || c.BSSes[0].SSID != "guest2" || c.BSSes[0].MaxStations != 7 || c.BSSes[1].SSID != "iot" {
		t.Errorf("after RELOAD: main %q, guest %q (max %d), iot %q; want main, guest2 (7), iot", c.SSID, c.BSSes[0].SSID, c.BSSes[0].MaxStations, c.BSSes[1].SSID)
	}
}
