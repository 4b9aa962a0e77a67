package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A malformed wpa_psk_file line never puts its secret in the error, which
// goes to the log: a line with only a passphrase, a passphrase holding
// '=', a MAC address glued to its secret.
func TestPSKFileErrorsHideTheSecret(t *testing.T) {
	dir := t.TempDir()
	psks := filepath.Join(dir, "hostapd.wpa_psk")
	conf := writeConf(t, "wpa=2\nwpa_psk_file="+psks+"\n")
	for _, line := range []string{
		"hunter2-secret-pass",
		"hunter2=secret-pass 02:00:00:00:01:00 other passphrase",
		"02:00:00:00:01:00,hunter2-secret-pass",
		"02:00:00:00:01:0hunter2-secret-pass",
		// A line without its MAC whose passphrase reads like one.
		"12345678",
		"deadbeef:cafe",
		"01:00:5e:00:00:01",
	} {
		os.WriteFile(psks, []byte(line+"\n"), 0o600)
		_, err := load(t, conf, nil)
		if err == nil {
			t.Errorf("%q accepted", line)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "secret") ||
			strings.Contains(err.Error(), line) || !strings.Contains(err.Error(), "address field") {
			t.Errorf("%q: the error shows the secret: %v", line, err)
		}
	}
}

// hostapd takes a tab, as a space, between the address and the PSK.
func TestPSKFileTab(t *testing.T) {
	dir := t.TempDir()
	psks := filepath.Join(dir, "hostapd.wpa_psk")
	os.WriteFile(psks, []byte("02:00:00:00:01:00\tthe station's passphrase\n"), 0o600)
	s, err := load(t, writeConf(t, "wpa=2\nwpa_psk_file="+psks+"\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Core.RSN.PSKs; len(p) != 1 || p[0].Addr[4] != 1 || p[0].Passphrase.Reveal() != "the station's passphrase" {
		t.Errorf("PSKs %+v", p)
	}
}

// A secret's line without its '=' is not quoted either.
func TestSecretLineWithoutEquals(t *testing.T) {
	for _, line := range []string{"wpa_passphrase hunter2-secret-pass", "wpa_psk\t" + strings.Repeat("ab", 32), "  wpa_passphrase hunter2-secret-pass"} {
		_, err := load(t, writeConf(t, "wpa=2\n"+line+"\n"), nil)
		if err == nil {
			t.Errorf("%q accepted", line)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "abab") {
			t.Errorf("%q: the error shows the secret: %v", line, err)
		}
	}
}
