package ap

import (
	"errors"
	"slices"

	"github.com/airq/airq/rsn"
	"github.com/airq/airq/sae"
)

// SAEConfig is WPA3-Personal's part of a BSS (AKM SAE in
// RSNConfig.AKMs), hostapd's keys by name. A zero value is hostapd's
// defaults except where noted: the configuration file fills those in.
type SAEConfig struct {
	// Passwords are the sae_password lines in file order (the last that
	// fits a station wins, as hostapd's sae_get_password); none means
	// wpa_passphrase, as hostapd falls back to it.
	Passwords []sae.Password
	Groups    []uint16    // sae_groups; empty: 19 only
	PWE       sae.PWEMode // sae_pwe
	// RequireMFP is sae_require_mfp: with ieee80211w=1, SAE stations
	// must negotiate management frame protection (WPA-PSK ones need not).
	RequireMFP       bool
	ConfirmImmediate bool // sae_confirm_immediate
	Sync             int  // sae_sync: protocol-sync errors tolerated (hostapd 2.11's default 3)
	// AntiCloggingThreshold is anti_clogging_threshold (default 5; 0:
	// every commit needs a token).
	AntiCloggingThreshold int
	// TransitionDisable is transition_disable's bits, sent in message 3.
	TransitionDisable uint8
}

// saePasswords are the passwords SAE uses: sae_password's, or
// wpa_passphrase's when there are none.
func (c *RSNConfig) saePasswords() []sae.Password {
	if c.SAE != nil && len(c.SAE.Passwords) > 0 {
		return c.SAE.Passwords
	}
	if c.Passphrase.Set() {
		return []sae.Password{{Password: []byte(c.Passphrase.Reveal()), AnyPeer: true}}
	}
	return nil
}

// saeIdentifiers reports whether a password has an identifier: those run
// hash-to-element only, so the BSS advertises H2E in its RSNXE whatever
// sae_pwe says (hostapd's hostapd_sae_pw_id_in_use).
func (c *RSNConfig) saeIdentifiers() bool {
	return slices.ContainsFunc(c.saePasswords(), func(p sae.Password) bool { return len(p.Identifier) > 0 })
}

// checkSAE refuses a BSS offering SAE without a password: a wpa_psk (or
// wpa_psk_file) alone holds no password to run SAE with.
func (c *RSNConfig) checkSAE() error {
	if !slices.Contains(c.AKMs, rsn.AKMSAE) {
		return nil
	}
	if len(c.saePasswords()) == 0 {
		return errors.New("wpa_key_mgmt: SAE needs sae_password or wpa_passphrase (a wpa_psk is no password)")
	}
	return nil
}

// offersPSK reports whether the BSS offers a PSK AKM (WPA-PSK by
// default), which needs wpa_passphrase, wpa_psk or wpa_psk_file.
func (c *RSNConfig) offersPSK() bool {
	return len(c.AKMs) == 0 || slices.Contains(c.AKMs, rsn.AKMPSK) || slices.Contains(c.AKMs, rsn.AKMPSKSHA256)
}
