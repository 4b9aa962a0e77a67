package config

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// line is one key=value line of the file.
type line struct {
	key, value string
	n          int // line number
}

// File is a parsed configuration file: every line was checked once.
type File struct {
	path  string
	lines []line
}

// Parse parses a file's text and checks every value; Apply then sets the
// settings. Errors are "path:line: key: ..." and name what the key accepts.
func Parse(path string, data []byte) (*File, error) {
	f := &File{path: path}
	var scratch Settings
	for i, raw := range bytes.Split(data, []byte{'\n'}) {
		text := strings.TrimSuffix(string(raw), "\r")
		trimmed := strings.TrimLeft(text, " \t")
		if trimmed == "" || trimmed[0] == '#' {
			continue
		}
		key, value, ok := strings.Cut(trimmed, "=")
		key = strings.TrimRight(key, " \t")
		if !ok || key == "" {
			return nil, fmt.Errorf("%s:%d: %q is not key=value", path, i+1, clip(trimmed))
		}
		if key != "ssid" { // an SSID may begin or end with blanks, as in hostapd
			value = strings.TrimSpace(value)
		}
		l := line{key: key, value: value, n: i + 1}
		if err := f.check(&scratch, l); err != nil {
			return nil, err
		}
		f.lines = append(f.lines, l)
	}
	return f, nil
}

// check sets the line's key in s.
func (f *File) check(s *Settings, l line) error {
	if what, ok := notYet[l.key]; ok {
		return fmt.Errorf("%s:%d: %s: not supported yet (%s); remove the line to run without it", f.path, l.n, l.key, what)
	}
	k, ok := keys[l.key]
	if !ok {
		return fmt.Errorf("%s:%d: unknown key %q; accepted keys: %s", f.path, l.n, clip(l.key), strings.Join(Names(), " "))
	}
	if err := k.set(s, l.value); err != nil {
		if se, ok := err.(saysWhy); ok { // the setter says what is wrong: a file's line, say
			return fmt.Errorf("%s:%d: %s: %w", f.path, l.n, l.key, se.error)
		}
		return fmt.Errorf("%s:%d: %s: %q: want %s", f.path, l.n, l.key, clip(l.value), k.Want)
	}
	return nil
}

// clip keeps errors about garbage short.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}

// Apply sets s from the file, except the keys a flag of flagSet (the flags
// given on the command line) overrides, then checks what only the whole
// file shows.
func (f *File) Apply(s *Settings, flagSet map[string]bool) error {
	last := map[string]line{}
	for _, l := range f.lines {
		if keys[l.key].OverriddenBy(flagSet) != "" {
			continue
		}
		if err := f.check(s, l); err != nil {
			return err
		}
		last[l.key] = l
	}
	where := func(key string) string { return fmt.Sprintf("%s:%d: %s", f.path, last[key].n, key) }
	if l, ok := last["hw_mode"]; ok {
		five := s.Channel >= 36
		if s.Channel != 0 && (l.value == "a") != five { // 0: ACS picks in hw_mode's band
			return fmt.Errorf("%s: %q does not match channel %d (a is 5 GHz, b and g are 2.4 GHz)", where("hw_mode"), l.value, s.Channel)
		}
		if l.value == "b" && s.Core.Rates == nil {
			s.Core.Rates, s.Core.BasicRates = []int{1000, 2000, 5500, 11000}, []int{1000, 2000}
		}
	}
	if _, ok := last["ieee80211d"]; ok && s.IEEE80211D && s.Country == "" { // hostapd's words
		return fmt.Errorf("%s: cannot enable IEEE 802.11d without setting the country_code", where("ieee80211d"))
	}
	if err := checkWPA(s, last, where); err != nil {
		return err
	}
	return checkRates(s, last, where)
}

// checkRates checks that the rate keys agree with one another.
func checkRates(s *Settings, last map[string]line, where func(string) string) error {
	_, hasRates := last["supported_rates"]
	_, hasBasic := last["basic_rates"]
	switch {
	case hasRates && !hasBasic:
		return fmt.Errorf("%s: basic_rates is needed with supported_rates", where("supported_rates"))
	case hasBasic && !hasRates:
		return fmt.Errorf("%s: supported_rates is needed with basic_rates", where("basic_rates"))
	case hasBasic:
		for _, r := range s.Core.BasicRates {
			if !slices.Contains(s.Core.Rates, r) {
				return fmt.Errorf("%s: %d is not in supported_rates", where("basic_rates"), r/100)
			}
		}
	}
	if _, ok := last["beacon_rate"]; ok && s.Core.BasicRates != nil && !slices.Contains(s.Core.BasicRates, s.Core.BeaconRate) {
		return fmt.Errorf("%s: %d is not one of basic_rates", where("beacon_rate"), s.Core.BeaconRate/100)
	}
	return nil
}

// Values is the file's effective value of each key (aql_txq_limit lines
// joined), for telling which keys a reload changes.
func (f *File) Values() map[string]string {
	m := map[string]string{}
	for _, l := range f.lines {
		if l.key == "aql_txq_limit" && m[l.key] != "" {
			m[l.key] += "," + l.value
			continue
		}
		m[l.key] = shown(l.key, l.value)
	}
	return m
}
