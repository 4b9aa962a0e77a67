package main

import (
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// WPA2 on the simulated radio from a configuration file: the simulated
// stations complete the 4-way handshake, airqctl shows them authorized
// with their AKM and cipher and streams EAPOL-4WAY-HS-COMPLETED; the
// passphrase appears in no log line, no airqctl output and no metric, and
// the world-readable file is warned about.
func TestDaemonWPA2(t *testing.T) {
	const pass = "a very secret passphrase"
	conf := filepath.Join(t.TempDir(), "airqd.conf")
	if err := os.WriteFile(conf, []byte("ssid=wpa\nwpa=2\nwpa_passphrase="+pass+"\nwpa_key_mgmt=WPA-PSK\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(conf, 0o644) // whatever the umask
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	metrics := l.Addr().String()
	l.Close()
	d := startDaemon(t, "-config", conf, "-sim-stations", "2", "-sim-join", "300ms", "-metrics", metrics)
	ev := exec.Command(airqctlBin, "-socket", d.socket, "events")
	var events syncWriter // exec copies airqctl's output into it
	ev.Stdout = &events
	if err := ev.Start(); err != nil {
		t.Fatal(err)
	}
	stopEvents := sync.OnceFunc(func() { ev.Process.Kill(); ev.Wait() }) // Wait ends the copy into events
	defer stopEvents()
	var dump string
	waitUntil(t, "two authorized stations", 10*time.Second, func() bool {
		dump, _, _ = d.ctl("station", "dump")
		return strings.Count(dump, "\tauthorized:\tyes") == 2
	})
	for _, want := range []string{"\takm:\t\tWPA-PSK\n", "\tpairwise cipher:\tCCMP\n"} {
		if !strings.Contains(dump, want) {
			t.Errorf("station dump without %q:\n%s", want, dump)
		}
	}
	status, _, _ := d.ctl("status")
	if !strings.Contains(status, "handshakes_completed=2") {
		t.Errorf("status:\n%s", status)
	}
	resp, err := http.Get("http://" + metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(m), `airq_rsn_handshakes_total{result="completed"} 2`) {
		t.Errorf("metrics without the handshakes")
	}
	// The stream's line comes after the handshake, through airqctl.
	const completed = "<3>EAPOL-4WAY-HS-COMPLETED 02:00:00:00:10:02\n"
	waitUntil(t, "the second station's handshake in the events stream", 10*time.Second, func() bool {
		return strings.Contains(events.String(), completed)
	})
	stopEvents()
	log := d.log()
	for name, text := range map[string]string{"log": log, "station dump": dump, "status": status, "metrics": string(m), "events": events.String()} {
		if strings.Contains(text, "secret") {
			t.Errorf("the passphrase shows in the %s", name)
		}
	}
	if !strings.Contains(log, "holds wpa_passphrase and every user may read it") {
		t.Errorf("no warning about the world-readable file:\n%s", log)
	}
}

// SIGHUP re-reads wpa_psk_file as hostapd's RELOAD_WPA_PSK does: the new
// PSKs hold from the next handshake on, and a station whose PSK is gone is
// deauthenticated (its old passphrase then fails); no restart is asked.
func TestDaemonReloadPSKs(t *testing.T) {
	dir := t.TempDir()
	conf, psks := filepath.Join(dir, "airqd.conf"), filepath.Join(dir, "airqd.wpa_psk")
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(psks, "00:00:00:00:00:00 the first passphrase\n")
	write(conf, "ssid=wpa\nwpa=2\nwpa_psk_file="+psks+"\n")
	d := startDaemon(t, "-config", conf, "-sim-stations", "2", "-sim-join", "300ms")
	waitUntil(t, "two authorized stations", 10*time.Second, func() bool {
		dump, _, _ := d.ctl("station", "dump")
		return strings.Count(dump, "\tauthorized:\tyes") == 2
	})
	write(psks, "keyid=new 00:00:00:00:00:00 the second passphrase\n")
	d.cmd.Process.Signal(syscall.SIGHUP)
	waitUntil(t, "the stations deauthenticated and refused", 10*time.Second, func() bool {
		status, _, _ := d.ctl("status")
		return strings.Count(d.log(), "deauthenticated a station the access lists or the PSKs now refuse") == 2 &&
			!strings.Contains(status, "psk_mismatch=0")
	})
	log := d.log()
	if !strings.Contains(log, "reload: applied the PSKs") || strings.Contains(log, "restart airqd") ||
		strings.Contains(log, "passphrase\"") || strings.Contains(log, "the second") || strings.Contains(log, "the first") ||
		strings.Count(log, `reason=2 why="PSK no longer valid"`) != 2 || strings.Contains(log, "removed by operator") {
		t.Errorf("log:\n%s", log)
	}
	if dump, _, _ := d.ctl("station", "dump"); strings.Contains(dump, "\tauthorized:\tyes") {
		t.Errorf("a station still authorized with the old PSK:\n%s", dump)
	}
}
