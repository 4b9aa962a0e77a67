package config

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/rsn"
)

// WPA2-Personal, hostapd's keys and meanings: wpa=2 with wpa_passphrase or
// wpa_psk, WPA-PSK and WPA-PSK-SHA256, CCMP. WPA1, TKIP and the other
// AKMs are refused by name. The setters fill Settings.Core.RSN; Apply
// then checks the keys together (checkWPA). The PMK is derived from the
// passphrase once, when the core starts: at start-up, never per
// association. The secrets never leave this package in clear: errors do
// not quote them, and Values shows them as a keyed hash of the process.

// wpaKeys are the keys of the RSN section, which need wpa=2.
var wpaKeys = []string{"wpa_passphrase", "wpa_psk", "wpa_psk_file", "wpa_key_mgmt", "rsn_pairwise", "wpa_pairwise", "wpa_group_rekey",
	"wpa_strict_rekey", "wpa_ptk_rekey", "wpa_disable_eapol_key_retries", "wpa_deny_ptk0_rekey", "extended_key_id"}

// secretKeys hold a passphrase or a PSK.
var secretKeys = map[string]bool{"wpa_passphrase": true, "wpa_psk": true}

// hostapd's default GTK lifetime (wpa_group_rekey).
const defaultGroupRekey = 86400 * time.Second

func setWPA(s *Settings, v string) error {
	switch v {
	case "2":
		rsnOf(s)
	case "0":
	case "1", "3":
		return saysWhy{fmt.Errorf("%s: WPA (version 1, with TKIP) is not supported; want 2 (WPA2) or 0 (open)", v)}
	default:
		return errWant
	}
	return nil
}

// setPassphrase never quotes the value in its errors.
func setPassphrase(s *Settings, v string) error {
	if n := len(v); n < 8 || n > 63 {
		return saysWhy{fmt.Errorf("%d characters, want 8 to 63", n)}
	}
	for _, c := range []byte(v) {
		if c < 32 || c > 126 {
			return saysWhy{errors.New("want printable ASCII characters only")}
		}
	}
	rsnOf(s).Passphrase = ap.NewPassphrase(v)
	return nil
}

func setPSK(s *Settings, v string) error {
	pmk, err := rsn.ParsePSK(v)
	if err != nil {
		return saysWhy{errors.New("want the PSK as 64 hex digits")}
	}
	rsnOf(s).PSK = &pmk
	return nil
}

func setKeyMgmt(s *Settings, v string) error {
	var akms []rsn.AKM
	for _, f := range strings.Fields(v) {
		a, ok := rsn.ParseAKM(f)
		if !ok {
			return errWant
		}
		if a != rsn.AKMPSK && a != rsn.AKMPSKSHA256 {
			return saysWhy{fmt.Errorf("%s is not supported; want WPA-PSK and/or WPA-PSK-SHA256", f)}
		}
		akms = append(akms, a)
	}
	if len(akms) == 0 {
		return errWant
	}
	rsnOf(s).AKMs = akms
	return nil
}

func setDenyPTK0(s *Settings, v string) error {
	var n int
	err := setInt(&n, v, 0, 2)
	rsnOf(s).DenyPTK0Rekey = n != 0
	return err
}

// rsnOf returns the RSN section, created at the first WPA key.
func rsnOf(s *Settings) *ap.RSNConfig {
	if s.Core.RSN == nil {
		s.Core.RSN = &ap.RSNConfig{GroupRekey: defaultGroupRekey}
	}
	return s.Core.RSN
}

// setCipher reads rsn_pairwise (rsn true) or wpa_pairwise: only CCMP.
func setCipher(s *Settings, v string, rsnKey bool) error {
	for _, f := range strings.Fields(v) {
		switch c, _ := rsn.ParseCipher(f); c {
		case rsn.CipherCCMP:
		case rsn.CipherTKIP:
			return saysWhy{errors.New("TKIP is not supported; want CCMP")}
		case 0:
			return errWant
		default:
			return saysWhy{fmt.Errorf("%s is not supported; want CCMP", f)}
		}
	}
	if strings.TrimSpace(v) == "" {
		return errWant
	}
	if rsnKey {
		rsnOf(s).Pairwise = []rsn.Cipher{rsn.CipherCCMP}
	}
	return nil
}

func setSeconds(p *time.Duration, v string) error {
	var n uint
	if err := setUint(&n, v, 0, 1<<32-1); err != nil {
		return err
	}
	*p = time.Duration(n) * time.Second
	return nil
}

// checkWPA checks the WPA keys together once the whole file is applied:
// wpa=2 needs a passphrase or a PSK, and a WPA key without wpa=2 would
// leave the network open, which hostapd does silently and airq refuses.
func checkWPA(s *Settings, last map[string]line, where func(string) string) error {
	wpa := last["wpa"].value
	if wpa != "2" {
		for _, k := range wpaKeys {
			if _, ok := last[k]; ok {
				return fmt.Errorf("%s: needs wpa=2; without it the network is open", where(k))
			}
		}
		s.Core.RSN = nil
		return nil
	}
	r := s.Core.RSN
	if !r.Passphrase.Set() && r.PSK == nil && len(r.PSKs) == 0 {
		return fmt.Errorf("%s: wpa=2 needs wpa_passphrase, wpa_psk or wpa_psk_file", where("wpa"))
	}
	if r.Passphrase.Set() && r.PSK != nil { // hostapd would take wpa_psk and ignore the other
		return fmt.Errorf("%s: give wpa_psk or wpa_passphrase, not both", where("wpa_psk"))
	}
	return nil
}

// valueKey keys the hash that stands for secrets in Values: random per
// process, so the hash tells a change and nothing else.
var valueKey = func() []byte {
	k := make([]byte, 32)
	rand.Read(k)
	return k
}()

// shown is what Values shows of a key's value: secrets as a keyed hash.
func shown(key, v string) string {
	if !secretKeys[key] {
		return v
	}
	m := hmac.New(sha256.New, valueKey)
	m.Write([]byte(v))
	return "[redacted " + hex.EncodeToString(m.Sum(nil)[:4]) + "]"
}

// Warnings says what in the file deserves a word at start-up: a secret in
// a file every user may read, a wps=1 PSK. A nil File has none.
func (f *File) Warnings() []string {
	if f == nil {
		return nil
	}
	var out []string
	for _, l := range f.lines {
		if l.key == "wpa_psk_file" {
			out = append(out, pskFileWarnings(l.value)...)
		}
	}
	return append(out, f.secretWarnings()...)
}

// secretWarnings warns of a secret in a file every user may read.
func (f *File) secretWarnings() []string {
	for _, l := range f.lines {
		if !secretKeys[l.key] {
			continue
		}
		if fi, err := os.Stat(f.path); err == nil && fi.Mode().Perm()&0o004 != 0 {
			return []string{fmt.Sprintf("%s holds %s and every user may read it: chmod o-r %s", f.path, l.key, f.path)}
		}
		return nil
	}
	return nil
}
