package main

import (
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/rsn"
)

// hostapdCLI finds Debian's hostapd_cli. The gate installs it
// (mk/hostapd.mk): without it these tests fail rather than skip.
func hostapdCLI(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"hostapd_cli", "/usr/sbin/hostapd_cli"} {
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	t.Fatal("hostapd_cli not found: install Debian's hostapd package (make test installs it)")
	return ""
}

// cliDaemon runs airqd -radio sim with a WPA2 network and hostapd's
// control socket in dir/run, named wlan0.
func cliDaemon(t *testing.T, args ...string) (run string, d *airqdProc) {
	t.Helper()
	dir := t.TempDir()
	run = filepath.Join(dir, "run")
	conf := filepath.Join(dir, "hostapd.conf")
	writeFile(t, conf, "interface=wlan0\nssid=cli\nchannel=6\nwpa=2\nwpa_passphrase=correct horse battery staple\n"+
		"wpa_key_mgmt=WPA-PSK\nrsn_pairwise=CCMP\nctrl_interface="+run+"\nctrl_interface_group=0\n")
	return run, startDaemon(t, append([]string{"-config", conf}, args...)...)
}

// cliActions runs hostapd_cli -a against the socket of wlan0 in run, its
// action script appending each event's line to a file; read returns the
// lines so far.
func cliActions(t *testing.T, run string) (read func() string) {
	t.Helper()
	dir := t.TempDir()
	log, script := filepath.Join(dir, "events"), filepath.Join(dir, "action.sh")
	writeFile(t, script, "#!/bin/sh\necho \"$@\" >> "+log+"\n")
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
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
	return func() string { b, _ := os.ReadFile(log); return string(b) }
}

// cli runs hostapd_cli -p run -i wlan0 with args and returns its output.
func cli(t *testing.T, run string, args ...string) string {
	t.Helper()
	out, err := exec.Command(hostapdCLI(t), append([]string{"-p", run, "-i", "wlan0"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("hostapd_cli %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// keys are the key names of a key=value reply, in order.
func keys(reply string) []string {
	var k []string
	for _, l := range strings.Split(reply, "\n") {
		if name, _, ok := strings.Cut(l, "="); ok {
			k = append(k, name)
		}
	}
	return k
}

// Debian's hostapd_cli, unmodified, against airqd: the replies carry
// hostapd 2.10's fields in its order (hostapd_ctrl_iface_status,
// hostapd_ctrl_iface_sta_mib, wpa_get_mib_sta, hostapd_get_sta_info,
// hostapd_ctrl_iface_get_config), less what the README lists as left out.
func TestHostapdCLICommands(t *testing.T) {
	run, d := cliDaemon(t, "-sim-stations", "2")
	if got := cli(t, run, "ping"); got != "PONG\n" {
		t.Errorf("ping: %q", got)
	}
	var all string
	waitUntil(t, "two stations through the 4-way handshake", 10*time.Second, func() bool {
		all = cli(t, run, "all_sta")
		return strings.Count(all, "[AUTHORIZED]") == 2
	})
	status := cli(t, run, "status")
	wantStatus := []string{"state", "phy", "freq", "num_sta_non_erp", "num_sta_no_short_slot_time", "num_sta_no_short_preamble",
		"olbc", "num_sta_ht_no_gf", "num_sta_no_ht", "num_sta_ht_20_mhz", "num_sta_ht40_intolerant", "olbc_ht", "ht_op_mode", "cac_time_seconds",
		"cac_time_left_seconds", "channel", "secondary_channel", "ieee80211n", "ieee80211ac", "ieee80211ax", "beacon_int",
		"dtim_period", "supported_rates", "bss[0]", "bssid[0]", "ssid[0]", "num_sta[0]"}
	if !slices.Equal(keys(status), wantStatus) || !strings.Contains(status, "\nfreq=2437\n") ||
		!strings.Contains(status, "\nssid[0]=cli\n") || !strings.Contains(status, "\nnum_sta[0]=2\n") ||
		!strings.Contains(status, "\nnum_sta_no_ht=2\n") || !strings.Contains(status, "\nht_op_mode=0x0\n") {
		t.Errorf("status:\n%s", status)
	}
	first, _, _ := strings.Cut(all, "\n")
	sta := cli(t, run, "sta", first)
	wantSTA := []string{"flags", "aid", "capability", "listen_interval", "supported_rates", "timeout_next",
		"dot11RSNAStatsSTAAddress", "dot11RSNAStatsVersion", "dot11RSNAStatsSelectedPairwiseCipher",
		"dot11RSNAStatsTKIPLocalMICFailures", "dot11RSNAStatsTKIPRemoteMICFailures", "wpa", "AKMSuiteSelector",
		"hostapdWPAPTKState", "hostapdWPAPTKGroupState", "rx_packets", "tx_packets", "rx_bytes", "tx_bytes",
		"inactive_msec", "signal", "rx_rate_info", "tx_rate_info", "connected_time"}
	if !strings.HasPrefix(sta, first+"\n") || !slices.Equal(keys(sta), wantSTA) ||
		!strings.Contains(sta, "\ndot11RSNAStatsSelectedPairwiseCipher=00-0f-ac-4\n") ||
		!strings.Contains(sta, "\nAKMSuiteSelector=00-0f-ac-2\n") || !strings.Contains(sta, "\nhostapdWPAPTKState=11\n") {
		t.Errorf("sta %s:\n%s", first, sta)
	}
	if strings.Count(all, "\nflags=") != 2 {
		t.Errorf("all_sta:\n%s", all)
	}
	if got := cli(t, run, "get_config"); got != "bssid=02:00:00:00:01:00\nssid=cli\nwps_state=disabled\nwpa=2\n"+
		"key_mgmt=WPA-PSK \ngroup_cipher=CCMP\nrsn_pairwise_cipher=CCMP\n" {
		t.Errorf("get_config:\n%s", got)
	}
	if got := cli(t, run, "reload_wpa_psk"); got != "OK\n" {
		t.Errorf("reload_wpa_psk: %q", got)
	}
	if got := cli(t, run, "deauthenticate", first); got != "OK\n" {
		t.Errorf("deauthenticate: %q", got)
	}
	waitUntil(t, "the deauthentication in airqd's log", 5*time.Second, func() bool {
		return strings.Contains(d.log(), "AP-STA-DISCONNECTED addr="+first+" aid=1 reason=2")
	})
	second := strings.Split(cli(t, run, "list_sta"), "\n")[0]
	if got := cli(t, run, "disassociate", second); got != "OK\n" {
		t.Errorf("disassociate: %q", got)
	}
	waitUntil(t, "the disassociation in airqd's log", 5*time.Second, func() bool {
		return strings.Contains(d.log(), `why="disassociated by operator"`)
	})
	if got := cli(t, run, "sta", "02:00:00:00:99:99"); got != "FAIL\n" {
		t.Errorf("sta of nobody: %q", got)
	}
	if got := cli(t, run, "raw", "NO_SUCH_COMMAND"); got != "UNKNOWN COMMAND\n" {
		t.Errorf("unknown command: %q", got)
	}
}

// hostapd_cli -a runs its script for each event: AP-STA-CONNECTED as a
// simulated station joins, CTRL-EVENT-TERMINATING as airqd stops.
func TestHostapdCLIActionMode(t *testing.T) {
	run, d := cliDaemon(t, "-sim-stations", "1", "-sim-join", "1s")
	read := cliActions(t, run)
	waitUntil(t, "AP-STA-CONNECTED in the action script", 10*time.Second, func() bool {
		return strings.Contains(read(), "wlan0 AP-STA-CONNECTED 02:00:00:00:10:01\n")
	})
	waitUntil(t, "EAPOL-4WAY-HS-COMPLETED in the action script", 10*time.Second, func() bool {
		return strings.Contains(read(), "wlan0 EAPOL-4WAY-HS-COMPLETED 02:00:00:00:10:01\n")
	})
	d.cmd.Process.Signal(os.Interrupt)
	waitUntil(t, "CTRL-EVENT-TERMINATING in the action script", 10*time.Second, func() bool {
		return strings.Contains(read(), "wlan0 CTRL-EVENT-TERMINATING\n")
	})
	if _, err := os.Stat(run); !os.IsNotExist(err) {
		waitUntil(t, "the socket directory to go", 5*time.Second, func() bool {
			_, err := os.Stat(run)
			return os.IsNotExist(err)
		})
	}
}

// -hostapd-testing serves hostapd's testing commands: GET_PMK gives the
// station's PMK (the passphrase's, for this SSID). Without the flag they
// are unknown, and airqd refuses the flag in a systemd service and
// without a hostapd socket.
func TestHostapdCLITesting(t *testing.T) {
	run, _ := cliDaemon(t, "-sim-stations", "1", "-hostapd-testing")
	var sta string
	waitUntil(t, "the station through the 4-way handshake", 10*time.Second, func() bool {
		sta = strings.Split(cli(t, run, "all_sta"), "\n")[0]
		return strings.Contains(cli(t, run, "sta", sta), "[AUTHORIZED]")
	})
	pmk, err := rsn.PMKFromPassphrase("correct horse battery staple", []byte("cli"))
	if err != nil {
		t.Fatal(err)
	}
	if got := cli(t, run, "raw", "GET_PMK "+sta); got != hex.EncodeToString(pmk[:]) { // hostapd's reply has no newline
		t.Errorf("GET_PMK: %q", got)
	}
	// The simulated radio has no wired interface for the test socket.
	if got := cli(t, run, "raw", "DATA_TEST_CONFIG 1"); got != "FAIL\n" {
		t.Errorf("DATA_TEST_CONFIG on the simulated radio: %q", got)
	}
	plain, _ := cliDaemon(t, "-sim-stations", "0")
	if got := cli(t, plain, "raw", "GET_PMK "+sta); got != "UNKNOWN COMMAND\n" {
		t.Errorf("GET_PMK without -hostapd-testing: %q", got)
	}
	binaries(t)
	for _, c := range []struct {
		env  []string
		args []string
		want string
	}{
		{[]string{"INVOCATION_ID=0123"}, []string{"-ctrl-interface", t.TempDir()}, "refused in a systemd service"},
		{nil, nil, "needs hostapd's control socket"},
	} {
		cmd := exec.Command(airqdBin, append([]string{"-radio", "sim", "-control", "", "-hostapd-testing"}, c.args...)...)
		cmd.Env = append(os.Environ(), c.env...)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("%v %v: %v\n%s", c.env, c.args, err, out)
		}
	}
}
