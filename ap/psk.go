package ap

import (
	"errors"
	"fmt"

	"github.com/airq/airq/bss"
)

// checkSecrets checks the passphrase and the PSKs.
func (c *RSNConfig) checkSecrets() error {
	if c.Passphrase.Set() {
		if err := bss.CheckPassphrase(c.Passphrase.Reveal()); err != nil {
			return fmt.Errorf("wpa_passphrase: %w", err)
		}
	}
	if c.offersPSK() && !c.Passphrase.Set() && c.PSK == nil && len(c.PSKs) == 0 {
		return errors.New("wpa: WPA-PSK needs wpa_passphrase, wpa_psk or wpa_psk_file")
	}
	for i, p := range c.PSKs {
		switch {
		case (p.PMK == nil) == !p.Passphrase.Set():
			return fmt.Errorf("wpa_psk: PSK %d needs a PMK or a passphrase, not both", i+1)
		case p.Passphrase.Set():
			if err := bss.CheckPassphrase(p.Passphrase.Reveal()); err != nil {
				return fmt.Errorf("wpa_psk_file: PSK %d: %w", i+1, err)
			}
		}
	}
	return nil
}

// newPSKSet derives the PMKs of c's PSKs and passphrase for ssid.
func newPSKSet(c *RSNConfig, ssid string) (bss.PSKSet, error) {
	return bss.NewPSKSet(c.PSKs, c.PSK, c.Passphrase, ssid)
}
