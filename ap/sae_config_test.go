package ap

import (
	"strings"
	"testing"

	"github.com/airq/airq/rsn"
)

// Until the core runs SAE authentication, a BSS offering AKM 8 is refused
// at start: no station could complete it.
func TestSAERefusedByTheCore(t *testing.T) {
	for _, akms := range [][]rsn.AKM{{rsn.AKMSAE}, {rsn.AKMPSK, rsn.AKMSAE}} {
		_, err := New(Config{SSID: "x", BSSID: bssid, Channel: 1,
			RSN: &RSNConfig{AKMs: akms, Passphrase: NewPassphrase("correct horse")}})
		if err == nil || !strings.Contains(err.Error(), "wpa_key_mgmt") {
			t.Errorf("%v: error %v, want one naming wpa_key_mgmt", akms, err)
		}
	}
}
