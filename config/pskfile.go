package config

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// wpa_psk_file, hostapd's format: one PSK a line,
//
//	[keyid=<id>] [vlanid=<n>] [wps=<0|1>] <MAC> <64 hex digits or an 8-63 character passphrase>
//
// with 00:00:00:00:00:00 for any station; '#' starts a comment line. A
// station's own lines are tried first, then the wildcards, then
// wpa_passphrase's, each against message 2's MIC, in the file's order. The
// passphrases' PMKs are derived when the core starts. vlanid other than 0
// is refused (airq has no per-station VLANs); wps=1 changes nothing (airq
// has no WPS), and Warnings says so. Errors name the file and the line,
// never the secret.

func setPSKFile(s *Settings, path string) error {
	if path == "" {
		return errWant
	}
	data, err := readSmallFile(path)
	if err != nil {
		return saysWhy{err}
	}
	psks, err := parsePSKFile(path, data)
	if err != nil {
		return saysWhy{err}
	}
	r := rsnOf(s)
	r.PSKs = append(r.PSKs, psks...)
	if ws := pskFileWarnings(path, data); len(ws) > 0 {
		return warning{strings.Join(ws, "; ")}
	}
	return nil
}

// parsePSKFile reads the lines of a wpa_psk_file.
func parsePSKFile(path string, data []byte) ([]bss.PSK, error) {
	var out []bss.PSK
	for n, raw := range bytes.Split(data, []byte{'\n'}) {
		line := strings.TrimSpace(strings.TrimSuffix(string(raw), "\r"))
		if line == "" || line[0] == '#' {
			continue
		}
		p, err := parsePSKLine(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n+1, err)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no PSK", path)
	}
	return out, nil
}

// parsePSKLine reads one line: the prefixes, the address, the secret (the
// rest of the line, as hostapd takes it).
func parsePSKLine(line string) (bss.PSK, error) {
	var p bss.PSK
	for {
		field, rest := cutBlank(line)
		k, v, ok := strings.Cut(field, "=")
		if !ok || strings.Contains(k, ":") {
			break
		}
		switch k {
		case "keyid":
			p.KeyID = v
		case "vlanid":
			if v != "0" {
				return p, errors.New("vlanid: per-station VLANs are not supported; want vlanid=0 or none")
			}
		case "wps":
			if v != "0" && v != "1" {
				return p, errors.New("wps: want 0 or 1")
			}
		default:
			// Not echoed: it may be a passphrase holding '='.
			return p, errors.New("a field before the address field is not keyid=, vlanid= or wps=")
		}
		line = strings.TrimLeft(rest, " \t")
	}
	entry, secret := cutBlank(line)
	// The field is never shown: on a line without its address it is the
	// secret, and a short passphrase can read like an address.
	mac, err := ieee80211.ParseMAC(entry)
	switch {
	case err != nil:
		return p, errors.New("the address field is not a MAC address; want a station's like 02:00:00:00:01:00, or 00:00:00:00:00:00 for any")
	case mac.IsMulticast():
		return p, errors.New("the address field is a group address; want a station's like 02:00:00:00:01:00, or 00:00:00:00:00:00 for any")
	}
	p.Addr = mac
	secret = strings.TrimLeft(secret, " \t")
	if len(secret) == 64 {
		if pmk, err := rsn.ParsePSK(secret); err == nil {
			p.PMK = &pmk
			return p, nil
		}
	}
	if n := len(secret); n < 8 || n > 63 {
		return p, fmt.Errorf("the PSK: want 64 hex digits or a passphrase of 8 to 63 characters (%d characters)", n)
	}
	p.Passphrase = bss.NewPassphrase(secret)
	return p, nil
}

// cutBlank splits s at its first space or tab, as hostapd separates the
// fields of a line.
func cutBlank(s string) (before, after string) {
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

// pskFileWarnings says that a wps=1 line changes nothing, and that the
// file is readable by every user.
func pskFileWarnings(path string, data []byte) []string {
	var out []string
	if worldReadable(path) {
		out = append(out, fmt.Sprintf("%s holds PSKs and every user may read it: chmod o-r %s", path, path))
	}
	for n, raw := range bytes.Split(data, []byte{'\n'}) {
		if strings.Contains(" "+string(raw), " wps=1 ") {
			return append(out, fmt.Sprintf("%s:%d: wps=1 changes nothing: airq has no WPS", path, n+1))
		}
	}
	return out
}
