package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Debian's hostapd_cli -a against a WPA3-Personal airqd: a simulated
// station runs SAE, and the action script gets AP-STA-CONNECTED and
// EAPOL-4WAY-HS-COMPLETED as hostapd sends them after an SAE exchange;
// STA shows AKM 8 (00-0f-ac-8).
func TestHostapdCLISAEEvents(t *testing.T) {
	dir := t.TempDir()
	run, conf := filepath.Join(dir, "run"), filepath.Join(dir, "hostapd.conf")
	writeFile(t, conf, "interface=wlan0\nssid=cli3\nchannel=6\nwpa=2\nwpa_key_mgmt=SAE\nieee80211w=2\n"+
		"sae_password=correct horse battery staple\nsae_pwe=2\nrsn_pairwise=CCMP\nctrl_interface="+run+"\nctrl_interface_group=0\n")
	if err := os.Chmod(conf, 0o600); err != nil {
		t.Fatal(err)
	}
	startDaemon(t, "-config", conf, "-sim-stations", "1", "-sim-join", "1s")
	read := cliActions(t, run)
	waitUntil(t, "AP-STA-CONNECTED in the action script", 10*time.Second, func() bool {
		return strings.Contains(read(), "wlan0 AP-STA-CONNECTED 02:00:00:00:10:01\n")
	})
	waitUntil(t, "EAPOL-4WAY-HS-COMPLETED in the action script", 10*time.Second, func() bool {
		return strings.Contains(read(), "wlan0 EAPOL-4WAY-HS-COMPLETED 02:00:00:00:10:01\n")
	})
	if ev := read(); strings.Contains(ev, "SAE-UNKNOWN-PASSWORD-IDENTIFIER") {
		t.Errorf("events:\n%s", ev)
	}
	sta := cli(t, run, "sta", "02:00:00:00:10:01")
	if !strings.Contains(sta, "AKMSuiteSelector=00-0f-ac-8\n") {
		t.Errorf("STA:\n%s", sta)
	}
}
