package config

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/sae"
)

// WPA3-Personal, hostapd's keys and meanings: wpa_key_mgmt=SAE (or
// "WPA-PSK SAE" for transition mode), sae_password lines or
// wpa_passphrase as the password, and the SAE settings. The setters fill
// Settings.Core.RSN.SAE; checkSAE then checks them with the rest of the
// RSN. Passwords never leave this package in clear (sae_password is a
// secret key: Values hashes it, errors do not quote it).

// saeKeys are WPA3-Personal's.
var saeKeys = map[string]Key{
	"sae_password": {Reload: true, Want: "a password, optionally followed by |mac=<station address> and |id=<password identifier> (several lines for several passwords)",
		set: setSAEPassword},
	"sae_password_file": {Reload: true, Want: "a file of sae_password values, one a line (hostapd 2.11's; '#' starts a comment line)",
		set: setSAEPasswordFile},
	"sae_groups": {Want: "groups among 19 (P-256, the default), 20 (P-384) and 21 (P-521), separated by spaces",
		set: setSAEGroups},
	"sae_pwe": {Want: "0 (hunting and pecking, the default), 1 (hash-to-element only) or 2 (both)",
		set: func(s *Settings, v string) error {
			var n int
			err := setInt(&n, v, 0, 2)
			saeOf(s).PWE = sae.PWEMode(n)
			return err
		}},
	"sae_require_mfp": {Want: "0 or 1 (1: with ieee80211w=1, SAE stations must use management frame protection)",
		set: func(s *Settings, v string) error { return setBool(&saeOf(s).RequireMFP, v) }},
	"sae_confirm_immediate": {Want: "0 or 1 (1: the AP's Confirm goes with its Commit)",
		set: func(s *Settings, v string) error { return setBool(&saeOf(s).ConfirmImmediate, v) }},
	"sae_sync": {Want: "0 to 255 protocol-sync errors tolerated per exchange (default 3)",
		set: func(s *Settings, v string) error { return setInt(&saeOf(s).Sync, v, 0, 255) }},
	"anti_clogging_threshold": {Want: "0 (a token for every commit) to 65535 SAE exchanges in progress before commits need a token (default 5)",
		set: func(s *Settings, v string) error { return setInt(&saeOf(s).AntiCloggingThreshold, v, 0, 65535) }},
	// The deprecated name, read as hostapd reads it (atoi: Debian's
	// example writes "5 (deprecated)").
	"sae_anti_clogging_threshold": {Want: "as anti_clogging_threshold, whose deprecated name it is",
		set: func(s *Settings, v string) error {
			digits := trimBlanks(v)
			if i := strings.IndexFunc(digits, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
				digits = digits[:i]
			}
			return setInt(&saeOf(s).AntiCloggingThreshold, digits, 0, 65535)
		}},
	"transition_disable": {Want: "a hexadecimal bitmap such as 0x01 (bit 0: WPA3-Personal stations stop using WPA2 with this network)",
		set: setTransitionDisable},
}

// hostapd 2.11's defaults.
const (
	defaultSAESync          = 3
	defaultAntiClogging     = 5
	saeVLANWhy              = "|vlanid= is not supported; want the password with |mac= and |id= only (airq has no per-station VLANs)"
	saePKWhy                = "|pk= is not supported; want the password with |mac= and |id= only (SAE-PK is not implemented)"
	saeNeedsPasswordMessage = "SAE needs sae_password or wpa_passphrase (a wpa_psk or wpa_psk_file is no password)"
)

// saeOf returns the SAE section, created at the first SAE key.
func saeOf(s *Settings) *ap.SAEConfig {
	r := rsnOf(s)
	if r.SAE == nil {
		r.SAE = &ap.SAEConfig{Sync: defaultSAESync, AntiCloggingThreshold: defaultAntiClogging}
	}
	return r.SAE
}

// setSAEPassword reads one sae_password line.
func setSAEPassword(s *Settings, v string) error {
	pw, err := parseSAEPassword(v)
	if err != nil {
		return saysWhy{err}
	}
	c := saeOf(s)
	c.Passwords = append(c.Passwords, pw)
	return nil
}

// parseSAEPassword reads one sae_password value as hostapd's
// parse_sae_password: the password runs to the first parameter;
// |mac= names the one station it is for, |id= (to the end of the line)
// its identifier. Errors never quote the value.
func parseSAEPassword(v string) (sae.Password, error) {
	pw := sae.Password{AnyPeer: true}
	end := len(v)
	rest := v
	if i := strings.Index(v, "|mac="); i >= 0 {
		end = i
		mac := v[i+5:]
		if len(mac) > 17 {
			mac = mac[:17]
		}
		hw, err := net.ParseMAC(mac)
		if err != nil || len(hw) != 6 {
			return pw, errors.New("|mac= wants a station address such as 02:00:00:00:01:00")
		}
		copy(pw.Peer[:], hw)
		pw.AnyPeer = pw.Peer == sae.MAC{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
		rest = v[i+5+len(mac):]
	}
	for _, p := range []struct{ key, why string }{{"|vlanid=", saeVLANWhy}, {"|pk=", saePKWhy}} {
		if strings.Contains(rest, p.key) {
			return pw, errors.New(p.why)
		}
	}
	if i := strings.Index(rest, "|id="); i >= 0 {
		end = min(end, len(v)-len(rest)+i)
		pw.Identifier = []byte(rest[i+4:])
		if len(pw.Identifier) == 0 {
			return pw, errors.New("|id= wants a password identifier")
		}
	}
	// hostapd reads parameters only after |mac=: one written before it
	// would silently become part of the password.
	for _, p := range []string{"|id=", "|vlanid=", "|pk="} {
		if strings.Contains(v[:end], p) {
			return pw, fmt.Errorf("%s before |mac= would be read as part of the password; write |mac= first", p)
		}
	}
	pw.Password = []byte(v[:end])
	if len(pw.Password) == 0 {
		return pw, errors.New("the password is empty")
	}
	return pw, nil
}

func setSAEGroups(s *Settings, v string) error {
	var groups []uint16
	for _, f := range strings.Fields(v) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return errWant
		}
		if n < 0 || n > 65535 || !sae.Supported(uint16(n)) {
			return saysWhy{fmt.Errorf("group %s is not supported; want 19, 20 and/or 21 (elliptic curves; FFC groups are not implemented)", f)}
		}
		if !slices.Contains(groups, uint16(n)) {
			groups = append(groups, uint16(n))
		}
	}
	if len(groups) == 0 {
		return errWant
	}
	saeOf(s).Groups = groups
	return nil
}

// setTransitionDisable reads hostapd's hexadecimal bitmap (strtol base 16).
func setTransitionDisable(s *Settings, v string) error {
	t := strings.TrimPrefix(strings.TrimPrefix(trimBlanks(v), "0x"), "0X")
	n, err := strconv.ParseUint(t, 16, 8)
	if err != nil {
		return errWant
	}
	if n&^(rsn.TransitionDisableWPA3Personal) != 0 {
		return saysWhy{fmt.Errorf("%#02x: only bit 0 (0x01, WPA3-Personal) is supported; SAE-PK, WPA3-Enterprise and Enhanced Open are not implemented", n)}
	}
	saeOf(s).TransitionDisable = uint8(n)
	return nil
}

// checkSAE checks the SAE keys against the rest of the RSN once the file
// is applied: a BSS offering SAE needs a password; SAE keys without SAE
// in wpa_key_mgmt change nothing; and it warns where hostapd's users get
// locked out: SAE without management frame protection (WPA3 requires
// it; hostapd starts anyway), and sae_pwe=1 beside WPA-PSK (stations
// that know only WPA2 cannot join).
func (f *File) checkSAE(s *Settings, last map[string]line, wpa2 bool) Problems {
	var ps Problems
	warn := func(l line, msg string) {
		p := f.problem(l, msg)
		p.Warning = true
		ps = append(ps, *p)
	}
	r := s.Core.RSN
	offers := r != nil && slices.Contains(r.AKMs, rsn.AKMSAE)
	for _, k := range slices.Sorted(maps.Keys(saeKeys)) {
		l, ok := last[k]
		switch {
		case !ok:
		case !wpa2:
			ps = append(ps, *f.problem(l, "needs wpa=2 and SAE in wpa_key_mgmt; without them the network is open"))
		case !offers && !f.bad["wpa_key_mgmt"] && k != "sae_password" && k != "sae_password_file":
			warn(l, "changes nothing without SAE in wpa_key_mgmt")
		}
	}
	if !wpa2 || !offers {
		if r != nil && r.SAE != nil && !offers {
			r.SAE.Passwords = nil // sae_password lines serve SAE only
		}
		return ps
	}
	if r.SAE == nil {
		r.SAE = &ap.SAEConfig{Sync: defaultSAESync, AntiCloggingThreshold: defaultAntiClogging}
	}
	km := last["wpa_key_mgmt"]
	if len(r.SAE.Passwords) == 0 && !r.Passphrase.Set() && !f.bad["sae_password"] && !f.bad["wpa_passphrase"] {
		ps = append(ps, *f.problem(km, saeNeedsPasswordMessage))
	}
	if r.MFP == rsn.MFPDisabled && !f.bad["ieee80211w"] {
		warn(km, "WPA3 requires management frame protection: set ieee80211w=2 (SAE only) or 1 (with WPA-PSK); without it the BSS starts as hostapd's does")
	}
	if l, ok := last["sae_pwe"]; ok && r.SAE.PWE == sae.HashToElement && slices.Contains(r.AKMs, rsn.AKMPSK) {
		warn(l, "1 (hash-to-element only) beside WPA-PSK: stations that know only WPA2 cannot join, as the BSS requires H2E; 2 serves both")
	}
	if l, ok := last["sae_password"]; ok && f.worldReadable() {
		warn(l, fmt.Sprintf("%s holds sae_password and every user may read it: chmod o-r %s", f.path, f.path))
	}
	return ps
}
