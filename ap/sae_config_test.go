package ap

import (
	"strings"
	"testing"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/sae"
)

// SAE without a password is refused, naming the keys; a wpa_psk is no
// password. SAE alone needs no PSK.
func TestSAEPasswordRequired(t *testing.T) {
	psk := rsn.PMK{1}
	c := &RSNConfig{AKMs: []rsn.AKM{rsn.AKMPSK, rsn.AKMSAE}, PSK: &psk}
	if err := c.checkSAE(); err == nil || !strings.Contains(err.Error(), "sae_password") {
		t.Errorf("wpa_psk alone: %v", err)
	}
	c = &RSNConfig{AKMs: []rsn.AKM{rsn.AKMSAE}, SAE: &SAEConfig{Passwords: []sae.Password{{Password: []byte("pw"), AnyPeer: true}}}}
	if err := c.checkSAE(); err != nil {
		t.Errorf("sae_password: %v", err)
	}
	if err := c.checkSecrets(); err != nil {
		t.Errorf("SAE alone asked for a PSK: %v", err)
	}
	c = &RSNConfig{AKMs: []rsn.AKM{rsn.AKMSAE}, Passphrase: bss.NewPassphrase("correct horse")}
	if pws := c.saePasswords(); len(pws) != 1 || string(pws[0].Password) != "correct horse" || !pws[0].AnyPeer {
		t.Error("wpa_passphrase is not the fallback")
	}
	_, err := New(Config{SSID: "x", BSSID: bssid, Channel: 1, RSN: &RSNConfig{AKMs: []rsn.AKM{rsn.AKMSAE}, PSK: &psk}})
	if err == nil || !strings.Contains(err.Error(), "wpa_key_mgmt") {
		t.Errorf("New with SAE and wpa_psk alone: %v", err)
	}
}
