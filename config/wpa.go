package config

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/rsn"
)

// WPA2-Personal, hostapd's keys and meanings: wpa=2 with wpa_passphrase or
// wpa_psk, WPA-PSK and WPA-PSK-SHA256, CCMP. WPA1, TKIP and the other
// AKMs are refused by name. The setters fill Settings.Core.RSN; Apply
// then checks the keys together (checkWPA). The PMK is derived from the
// passphrase once, when the core starts: at start-up, never per
// association. The secrets never leave this package in clear: errors do
// not quote them, and Values shows them as a keyed hash of the process.

// rsnKeys are WPA2-Personal's.
var rsnKeys = map[string]Key{
	"wpa":            {Want: "2 (WPA2, RSN) or 0 (open)", set: setWPA},
	"wpa_passphrase": {Reload: true, Want: "8 to 63 printable ASCII characters", set: setPassphrase},
	"wpa_psk":        {Reload: true, Want: "the PSK as 64 hex digits", set: setPSK},
	"wpa_psk_file": {Reload: true, Want: "a file of [keyid=ID] [vlanid=0] [wps=0|1] MAC PSK-or-passphrase lines (hostapd's; 00:00:00:00:00:00 for any station)",
		set: setPSKFile},
	"wpa_key_mgmt": {Want: "WPA-PSK, WPA-PSK-SHA256 and/or SAE, separated by spaces", set: setKeyMgmt},
	"rsn_pairwise": {Want: "CCMP", set: func(s *Settings, v string) error { return setCipher(s, v, true) }},
	"wpa_pairwise": {Want: "ciphers among CCMP, TKIP, GCMP, GCMP-256 and CCMP-256 (WPA1's; with wpa=2 it stands for rsn_pairwise only when rsn_pairwise is not set, and then only CCMP is supported)",
		set: setWPAPairwise},
	"wpa_group_rekey": {Want: "0 (never) to 4294967295 seconds; default 86400",
		set: func(s *Settings, v string) error { return setSeconds(&rsnOf(s).GroupRekey, v) }},
	"wpa_ptk_rekey": {Want: "0 (never, the default) to 4294967295 seconds",
		set: func(s *Settings, v string) error { return setSeconds(&rsnOf(s).PTKRekey, v) }},
	"wpa_strict_rekey": {Want: "0 or 1 (1: a new GTK when a station that had it leaves)",
		set: func(s *Settings, v string) error { return setBool(&rsnOf(s).StrictRekey, v) }},
	"wpa_disable_eapol_key_retries": {Want: "0 or 1 (1: messages 3 and group messages 1 are never retransmitted)",
		set: func(s *Settings, v string) error { return setBool(&rsnOf(s).DisableEAPOLKeyRetries, v) }},
	"wpa_deny_ptk0_rekey": {Want: "0 (rekey, the default), 1 or 2 (disconnect a station without Extended Key ID instead: airq's PTK0 rekey loses the frames in flight)",
		set: setDenyPTK0},
	"wpa_pairwise_update_count": {Want: "1 to 2147483647 tries of messages 1 and 3 (default 4)",
		set: func(s *Settings, v string) error { return setInt(&rsnOf(s).PairwiseUpdateCount, v, 1, 1<<31-1) }},
	"wpa_group_update_count": {Want: "1 to 2147483647 tries of group message 1 (default 4)",
		set: func(s *Settings, v string) error { return setInt(&rsnOf(s).GroupUpdateCount, v, 1, 1<<31-1) }},
	"eapol_version": {Want: "1 or 2 (the default; the EAPOL version of the AP's EAPOL-Key frames)",
		set: func(s *Settings, v string) error {
			var n int
			err := setInt(&n, v, 1, 2)
			rsnOf(s).EAPOLVersion = uint8(n)
			return err
		}},
	"extended_key_id": {Want: "0 (off, the default), 1 (offer Extended Key ID) or 2 (offer it and start with key ID 1)",
		set: func(s *Settings, v string) error { return setInt(&rsnOf(s).ExtendedKeyID, v, 0, 2) }},
}

// secretKeys hold a passphrase or a PSK.
var secretKeys = map[string]bool{"wpa_passphrase": true, "wpa_psk": true, "sae_password": true}

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
	rsnOf(s).Passphrase = bss.NewPassphrase(v)
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
		if a != rsn.AKMPSK && a != rsn.AKMPSKSHA256 && a != rsn.AKMSAE {
			return saysWhy{fmt.Errorf("%s is not supported; want WPA-PSK, WPA-PSK-SHA256 and/or SAE", f)}
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
// A secret in a file every user may read is warned about.
func (f *File) checkWPA(s *Settings, last map[string]line, _ map[string]bool) Problems {
	var ps Problems
	if l, ok := last["wpa"]; !ok || l.value != "2" {
		for _, k := range slices.Sorted(maps.Keys(rsnKeys)) {
			if l, ok := last[k]; ok && k != "wpa" {
				ps = append(ps, *f.problem(l, "needs wpa=2; without it the network is open"))
			}
		}
		ps = append(ps, f.checkSAE(s, last, false)...)
		s.Core.RSN = nil
		return append(ps, f.checkPMF(false, last)...)
	}
	ps = append(ps, f.checkPMF(true, last)...)
	ps = append(ps, f.checkSAE(s, last, true)...)
	r := s.Core.RSN
	saeOnly := r != nil && len(r.AKMs) > 0 && !slices.Contains(r.AKMs, rsn.AKMPSK) && !slices.Contains(r.AKMs, rsn.AKMPSKSHA256)
	switch {
	case r == nil: // the file set wpa=2, a flag or a bad line cleared nothing: keep the error visible
		return ps
	case saeOnly: // checkSAE asked for its password
	case !r.Passphrase.Set() && r.PSK == nil && len(r.PSKs) == 0 && !f.bad["wpa_passphrase"] && !f.bad["wpa_psk"] && !f.bad["wpa_psk_file"]:
		ps = append(ps, *f.problem(last["wpa"], "wpa=2 needs wpa_passphrase, wpa_psk or wpa_psk_file"))
	case r.Passphrase.Set() && r.PSK != nil: // hostapd would take wpa_psk and ignore the other
		ps = append(ps, *f.problem(last["wpa_psk"], "give wpa_psk or wpa_passphrase, not both"))
	}
	for _, k := range []string{"wpa_passphrase", "wpa_psk"} {
		if l, ok := last[k]; ok && f.worldReadable() {
			p := f.problem(l, fmt.Sprintf("%s holds %s and every user may read it: chmod o-r %s", f.path, l.key, f.path))
			p.Warning = true
			ps = append(ps, *p)
		}
	}
	return ps
}

// worldReadable says every user may read the file.
func (f *File) worldReadable() bool { return worldReadable(f.path) }

// worldReadable reports whether every user may read the file at path.
func worldReadable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().Perm()&0o004 != 0
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
