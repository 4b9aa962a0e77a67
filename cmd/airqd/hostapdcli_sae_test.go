package main

import (
	"os"
	"os/exec"
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
	log, script := filepath.Join(dir, "events"), filepath.Join(dir, "action.sh")
	writeFile(t, script, "#!/bin/sh\necho \"$@\" >> "+log+"\n")
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	startDaemon(t, "-config", conf, "-sim-stations", "1", "-sim-join", "1s")
	waitUntil(t, "hostapd's socket", 10*time.Second, func() bool {
		_, err := os.Stat(filepath.Join(run, "wlan0"))
		return err == nil
	})
	a := exec.Command(hostapdCLI(t), "-p", run, "-i", "wlan0", "-a", script)
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Wait() }()
	t.Cleanup(func() {
		a.Process.Kill()
		<-done
	})
	read := func() string { b, _ := os.ReadFile(log); return string(b) }
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
