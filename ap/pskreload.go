package ap

import (
	"errors"
	"fmt"
	"slices"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/sae"
)

// PSKs are a BSS's pre-shared keys with their PMKs derived, ready for
// SetPSKs: the derivation (PBKDF2, 4,096 rounds per passphrase) runs where
// DerivePSKs is called, off the core's loop.
type PSKs struct {
	set bss.PSKSet
	sae *sae.Authenticator // the SAE passwords' (their PTs derived); nil without SAE
}

// DerivePSKs checks c's secrets and derives their PMKs for ssid.
func DerivePSKs(c *RSNConfig, ssid string) (*PSKs, error) {
	if c == nil {
		return nil, errors.New("wpa: no WPA2 section")
	}
	if err := c.checkSecrets(); err != nil {
		return nil, err
	}
	set, err := newPSKSet(c, ssid)
	if err != nil {
		return nil, err
	}
	auth, err := newSAEAuthenticator(c, ssid)
	if err != nil {
		return nil, err
	}
	return &PSKs{set, auth}, nil
}

// ReloadPSKs derives the PSKs a reload to next runs with (Reloaded) when
// they differ from cur's; nil when both BSSes are not WPA2 (turning WPA2
// on or off needs a restart) or the keys are the same.
func ReloadPSKs(cur, next *RSNConfig, ssid string) (*PSKs, error) {
	if cur == nil || next == nil || cur.SameSecrets(next) {
		return nil, nil
	}
	return DerivePSKs(cur.Reloaded(next), ssid)
}

// Reloaded is the section that runs after a reload to next: c with next's
// secrets (wpa_passphrase, wpa_psk, wpa_psk_file's lines, the SAE
// passwords). Everything else, the SAE groups and sae_pwe among it, needs
// a restart and stays as it runs, so that the next reload compares against
// what runs, not against the file. c itself when either is nil.
func (c *RSNConfig) Reloaded(next *RSNConfig) *RSNConfig {
	if c == nil || next == nil {
		return c
	}
	r := *c
	r.Passphrase, r.PSK, r.PSKs = next.Passphrase, next.PSK, next.PSKs
	if c.SAE != nil && next.SAE != nil {
		sc := *c.SAE
		sc.Passwords = next.SAE.Passwords
		r.SAE = &sc
	}
	return &r
}

// SameSecrets reports whether c and o hold the same PSKs in the same order
// (wpa_passphrase, wpa_psk, the lines of wpa_psk_file) and the same SAE
// passwords (sae_password, or wpa_passphrase), so that a reload
// whose file changed only elsewhere leaves the keys alone.
func (c *RSNConfig) SameSecrets(o *RSNConfig) bool {
	if c == nil || o == nil {
		return c == o
	}
	same := func(a, b *rsn.PMK) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	return sameSAEPasswords(c, o) && c.Passphrase.Set() == o.Passphrase.Set() && c.Passphrase.Reveal() == o.Passphrase.Reveal() &&
		same(c.PSK, o.PSK) && slices.EqualFunc(c.PSKs, o.PSKs, func(x, y bss.PSK) bool {
		return x.Addr == y.Addr && x.KeyID == y.KeyID && same(x.PMK, y.PMK) &&
			x.Passphrase.Set() == y.Passphrase.Set() && x.Passphrase.Reveal() == y.Passphrase.Reveal()
	})
}

// SetPSKs is SetPSKsFor the first BSS.
func (a *AP) SetPSKs(p *PSKs) ([]ieee80211.MAC, error) { return a.SetPSKsFor(0, p) }

// SetPSKsFor replaces the PSKs of the BSS of index i (0: the first, i:
// Config.BSSes[i-1]), derived for its SSID, as hostapd's RELOAD_WPA_PSK
// does for one bss= section: the next message 2 of any of its stations is
// checked against the new ones, and its stations whose PMK is no longer
// among their candidates are returned, for the caller to deauthenticate
// (hostapd disconnects them with reason 2, previous authentication no
// longer valid): a station counts from its verified message 2, handshake
// completed or not (hostapd checks sm->PMK). One whose message 2 has not
// come yet is not returned: it meets the new keys. With SAE, a station
// whose exchange completed under the old passwords but that has not
// associated yet is returned too: its keys came from them. The other
// BSSes and their stations are left alone.
func (a *AP) SetPSKsFor(i int, p *PSKs) ([]ieee80211.MAC, error) {
	if i < 0 || i >= len(a.radios) {
		return nil, fmt.Errorf("wpa: no BSS %d: the radio has %d", i, len(a.radios))
	}
	r := a.radios[i].rsn
	if r == nil {
		return nil, errors.New("wpa: the BSS is open; wpa=2 needs a restart")
	}
	r.psks = p.set
	a.setSAE(a.radios[i], p.sae)
	var out []ieee80211.MAC
	for slot := range a.sta.used() {
		s := &a.sta.slots[slot]
		if a.rsnOf(s) != r {
			continue
		}
		if s.RSN != nil && s.RSN.HS != nil {
			if pmk, ok := s.RSN.HS.PMK(); ok && !slices.Contains(r.psks.PMKs(nil, s.Addr), pmk) {
				out = append(out, s.Addr)
			}
			continue
		}
		// Authenticated by SAE (or a PMKSA) under the passwords replaced,
		// its association still to come: its PMK would admit it with a
		// password the reload may have removed.
		if s.SAE != nil && p.sae != nil {
			out = append(out, s.Addr)
		}
	}
	return out, nil
}
