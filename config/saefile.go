package config

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/airq/airq/sae"
)

// sae_password_file, hostapd 2.11's: one sae_password value a line, with
// the same |mac= and |id= parameters, its passwords added where the key
// stands among the sae_password lines. hostapd takes every line as it is,
// so a blank line is an empty password and a '#' line a password starting
// with '#'; here a blank line and a line starting with '#' are skipped (a
// password starting with '#' goes on a sae_password line), and a line's
// trailing '\r' is dropped. hostapd reads a line in 499 characters at most
// and cuts a longer one into several passwords; here a longer line is
// refused. Errors name the file and the line, never the secret.

// saeFileLineMax is the longest line hostapd 2.11 reads whole (fgets into
// 500 octets).
const saeFileLineMax = 499

func setSAEPasswordFile(s *Settings, path string) error {
	if path == "" {
		return errWant
	}
	data, err := readSmallFile(path)
	if err != nil {
		return saysWhy{err}
	}
	pws, err := parseSAEPasswordFile(path, data)
	if err != nil {
		return saysWhy{err}
	}
	c := saeOf(s)
	c.Passwords = append(c.Passwords, pws...)
	var ws []string
	if len(pws) == 0 {
		ws = append(ws, path+" holds no password")
	}
	if worldReadable(path) {
		ws = append(ws, fmt.Sprintf("%s holds SAE passwords and every user may read it: chmod o-r %s", path, path))
	}
	if len(ws) > 0 {
		return warning{strings.Join(ws, "; ")}
	}
	return nil
}

// parseSAEPasswordFile reads the lines of a sae_password_file.
func parseSAEPasswordFile(path string, data []byte) ([]sae.Password, error) {
	var out []sae.Password
	lines := bytes.Split(data, []byte{'\n'})
	for n, raw := range lines {
		if n == len(lines)-1 && len(raw) == 0 {
			break // the newline ending the last line
		}
		line := strings.TrimSuffix(string(raw), "\r")
		if len(line) > saeFileLineMax {
			return nil, fmt.Errorf("%s:%d: longer than %d characters (hostapd cuts it into several passwords)", path, n+1, saeFileLineMax)
		}
		if line == "" || line[0] == '#' {
			continue
		}
		pw, err := parseSAEPassword(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n+1, err)
		}
		out = append(out, pw)
	}
	return out, nil
}
