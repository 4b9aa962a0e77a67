package config

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// Lines are split as hostapd_config_read splits them: a line whose first
// character is '#' is a comment, an empty line is skipped, and any other
// line is everything before its first '=' (the key) and everything after
// it (the value), both taken as written: "ssid = x" is the key "ssid "
// with the value " x", and a line of blanks is not key=value. Only the
// values that hostapd reads as numbers may have blanks around them.

// line is one key=value line of the file.
type line struct {
	key, value string
	n          int // line number
}

// File is a parsed configuration file: every line was checked once. The
// File of a file holds its first section, before any bss= line, and a
// File for each bss= section (section.go).
type File struct {
	path  string
	lines []line          // the lines accepted, warnings included
	bad   map[string]bool // keys with a refused line: the whole-file checks leave them out
	// name and at are a bss= section's name and line; "" and 0 for the
	// first section, whose bsses are the others.
	name    string
	at      int
	firstAt int // the file's first bss= line
	bsses   []*File
	first   string // the first BSS's name, for problems (Apply)
}

// Parse reads a file's text and checks every line, returning every problem
// found; the lines refused are left out of the File, which Apply then sets
// the settings from.
func Parse(path string, data []byte) (*File, Problems) {
	ls, ps := splitLines(path, data)
	secs := splitSections(ls)
	f := &File{path: path, bad: map[string]bool{}}
	ps = append(ps, f.checkLines(secs[0].lines)...)
	for i, sec := range secs[1:] {
		b := &File{path: path, bad: map[string]bool{}, name: sec.name, at: sec.at, firstAt: secs[1].at}
		ps = append(ps, b.checkHeader(i+2)...)
		ps = append(ps, b.checkLines(sec.lines)...)
		f.bsses = append(f.bsses, b)
	}
	return f, f.label(ps)
}

// splitLines cuts the text into key=value lines, as hostapd does, with a
// problem for each line that is not one.
func splitLines(path string, data []byte) ([]line, Problems) {
	var ls []line
	var ps Problems
	for i, raw := range bytes.Split(data, []byte{'\n'}) {
		text, n := string(raw), i+1
		if text == "" || text[0] == '#' {
			continue
		}
		key, value, ok := strings.Cut(text, "=")
		if !ok || key == "" {
			ps = append(ps, Problem{Path: path, Line: n, Msg: notKeyValue(text)})
			continue
		}
		ls = append(ls, line{key: key, value: value, n: n})
	}
	return ls, ps
}

// checkLines checks a section's lines and keeps those not refused.
func (f *File) checkLines(ls []line) Problems {
	var ps Problems
	var scratch Settings
	for _, l := range ls {
		p := f.radioKeyHere(l)
		if p == nil {
			p = f.check(&scratch, l)
		}
		if p != nil {
			ps = append(ps, *p)
		}
		if p != nil && !p.Warning {
			f.bad[l.key] = true
			continue
		}
		f.lines = append(f.lines, l)
	}
	return ps
}

// notKeyValue says what is wrong with a line without '='.
func notKeyValue(text string) string {
	trimmed := strings.Trim(text, " \t\r")
	switch {
	case trimmed == "" && strings.Contains(text, "\r"):
		return "an empty line ending in a carriage return (a DOS line ending, which hostapd refuses too): convert the file with dos2unix"
	case trimmed == "":
		return "a line of blanks (hostapd refuses it too): make it empty"
	case trimmed[0] == '#':
		return fmt.Sprintf("%q: a comment's # must be the first character of the line", clip(text))
	case text[0] == '=':
		return fmt.Sprintf("%q is not key=value: the key is empty", clip(text))
	}
	if k, _, _ := strings.Cut(strings.ReplaceAll(trimmed, "\t", " "), " "); secretKeys[k] {
		// Not quoted: the rest of the line is the secret.
		return fmt.Sprintf("%s without '=' is not key=value: write %s=", k, k)
	}
	return fmt.Sprintf("%q is not key=value", clip(text))
}

// check sets the line's key in s and returns its problem, nil if none.
func (f *File) check(s *Settings, l line) *Problem {
	if strings.ContainsRune(l.key+l.value, '\r') {
		return f.problem(l, "the line ends in a carriage return (a DOS line ending, which hostapd would keep in the value): convert the file with dos2unix")
	}
	if u, ok := unused[l.key]; ok {
		msg, warn := u.check(l.value)
		p := f.problem(l, msg)
		p.Warning = warn
		return p
	}
	k, ok := keys[l.key]
	if !ok {
		return &Problem{Path: f.path, Line: l.n, Msg: unknownKey(l.key)}
	}
	err := k.set(s, l.value)
	switch e := err.(type) {
	case nil:
		return nil
	case warning:
		p := f.problem(l, e.msg)
		p.Warning = true
		return p
	case saysWhy: // the setter says what is wrong: a file's line, say
		return f.problem(l, e.Error())
	}
	return f.problem(l, fmt.Sprintf("%q: want %s%s", clip(l.value), k.Want, blanksHint(l.value)))
}

// problem is an error about line l.
func (f *File) problem(l line, msg string) *Problem {
	return &Problem{Path: f.path, Line: l.n, Key: l.key, Msg: msg}
}

// blanksHint explains a refused value with blanks around it.
func blanksHint(v string) string {
	if v != "" && strings.Trim(v, " \t") != v {
		return " (the blanks around the value are part of it, as in hostapd: remove them)"
	}
	return ""
}

// unknownKey says what is wrong with a key no table has, suggesting the
// near misses.
func unknownKey(key string) string {
	trimmed := strings.Trim(key, " \t")
	switch {
	case strings.HasPrefix(trimmed, "#"):
		return fmt.Sprintf("%q: a comment's # must be the first character of the line", clip(key))
	case trimmed != key && known(trimmed):
		return fmt.Sprintf("unknown key %q: the key is everything before '=', blanks included, as in hostapd: write %s=", clip(key), trimmed)
	}
	msg := fmt.Sprintf("unknown key %q", clip(key))
	if near := nearest(trimmed, knownKeys()); len(near) > 0 {
		msg += "; did you mean " + strings.Join(near, " or ") + "?"
	}
	return msg
}

// known reports whether any table has the key.
func known(key string) bool {
	_, k := keys[key]
	_, u := unused[key]
	return k || u
}

// knownKeys are the keys of every table, for suggestions.
func knownKeys() []string {
	out := Names()
	for k := range unused {
		out = append(out, k)
	}
	return out
}

// Known lists, in order, every key airq knows: those it implements (Names)
// and hostapd's others, which it ignores or refuses (README.md lists them).
func Known() []string {
	out := knownKeys()
	slices.Sort(out)
	return out
}

// clip keeps messages about garbage short.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}

// Load parses a file's text and applies it over s: Parse and Apply, with
// every problem of both in line order.
func Load(path string, data []byte, s *Settings, flagSet map[string]bool) (*File, Problems) {
	f, ps := Parse(path, data)
	ps = append(ps, f.Apply(s, flagSet)...)
	ps = f.label(ps) // the first section's, now that its name is known
	slices.SortStableFunc(ps, func(a, b Problem) int { return a.Line - b.Line })
	return f, ps
}

// Apply sets s from the file's first section, except the keys a flag of
// flagSet (the flags given on the command line) overrides, and s.BSSes
// from its bss= sections, then checks what only the whole file shows. Its
// problems are new ones: Parse reported the lines'.
func (f *File) Apply(s *Settings, flagSet map[string]bool) Problems {
	ps := f.applySection(s, flagSet)
	s.BSSes = nil
	for _, b := range f.bsses {
		bs := bssStart(s, b.name)
		ps = append(ps, b.applySection(&bs, nil)...)
		s.BSSes = append(s.BSSes, BSS{Name: b.name, Line: b.at, BSSID: parseBSSID(bs.BSSID), Settings: &bs})
	}
	ps = append(ps, f.checkBSSes(s)...)
	f.first = s.FirstBSSName()
	ps = f.label(ps)
	slices.SortStableFunc(ps, func(a, b Problem) int { return a.Line - b.Line })
	return ps
}

// applySection sets s from one section's lines and checks them together.
func (f *File) applySection(s *Settings, flagSet map[string]bool) Problems {
	var ps Problems
	last := map[string]line{}
	for _, l := range f.lines {
		if _, ok := keys[l.key]; !ok || keys[l.key].OverriddenBy(flagSet) != "" {
			continue
		}
		if p := f.check(s, l); p != nil && !p.Warning { // the file changed since Parse (an access list)
			ps = append(ps, *p)
			continue
		}
		last[l.key] = l
	}
	for _, check := range []func(*Settings, map[string]line, map[string]bool) Problems{f.checkBand, f.checkRates, f.checkPHY, f.checkWPA, f.checkCompat, f.checkAirtime} {
		ps = append(ps, check(s, last, flagSet)...)
	}
	return append(ps, f.checkWMM(s, last)...)
}

// checkBand checks hw_mode against the channel and ieee80211d against the
// country.
func (f *File) checkBand(s *Settings, last map[string]line, _ map[string]bool) Problems {
	var ps Problems
	if l, ok := last["hw_mode"]; ok {
		five := s.Channel >= 36
		if s.Channel != 0 && (l.value == "a") != five && !f.bad["channel"] { // 0: ACS picks in hw_mode's band
			ps = append(ps, *f.problem(l, fmt.Sprintf("%q does not match channel %d (a is 5 GHz, b and g are 2.4 GHz)", l.value, s.Channel)))
		}
		if l.value == "b" && s.Core.Rates == nil {
			s.Core.Rates, s.Core.BasicRates = []int{1000, 2000, 5500, 11000}, []int{1000, 2000}
		}
	}
	if l, ok := last["ieee80211d"]; ok && s.IEEE80211D && s.Country == "" && !f.bad["country_code"] { // hostapd's words
		ps = append(ps, *f.problem(l, "cannot enable IEEE 802.11d without setting the country_code"))
	}
	return ps
}

// checkRates checks that the rate keys agree with one another.
func (f *File) checkRates(s *Settings, last map[string]line, _ map[string]bool) Problems {
	if f.bad["supported_rates"] || f.bad["basic_rates"] || f.bad["beacon_rate"] {
		return nil
	}
	rates, hasRates := last["supported_rates"]
	basic, hasBasic := last["basic_rates"]
	switch {
	case hasRates && !hasBasic:
		return Problems{*f.problem(rates, "basic_rates is needed with supported_rates")}
	case hasBasic && !hasRates:
		return Problems{*f.problem(basic, "supported_rates is needed with basic_rates")}
	case hasBasic:
		for _, r := range s.Core.BasicRates {
			if !slices.Contains(s.Core.Rates, r) {
				return Problems{*f.problem(basic, fmt.Sprintf("%d is not in supported_rates", r/100))}
			}
		}
	}
	if l, ok := last["beacon_rate"]; ok && s.Core.BasicRates != nil && !slices.Contains(s.Core.BasicRates, s.Core.BeaconRate) {
		return Problems{*f.problem(l, fmt.Sprintf("%d is not one of basic_rates", s.Core.BeaconRate/100))}
	}
	return nil
}

// checkPHY lets a flag given (-ht, -vht) win over the first BSS's
// disable_11n and disable_11ac. Those are a BSS's keys, as hostapd's: the
// radio's PHY (ieee80211n, ieee80211ac, its channel) stays, and the BSS
// leaves HT or VHT out of what it advertises and uses (ap.Config.NoHT).
func (f *File) checkPHY(s *Settings, _ map[string]line, flagSet map[string]bool) Problems {
	if flagSet["ht"] || flagSet["vht"] {
		s.Core.NoHT = false
	}
	if flagSet["vht"] {
		s.Core.NoVHT = false
	}
	return nil
}

// Path is the file's name, as given.
func (f *File) Path() string { return f.path }

// Line is the line that sets key last, 0 if none does.
func (f *File) Line(key string) int {
	n := 0
	for _, l := range f.lines {
		if l.key == key {
			n = l.n
		}
	}
	return n
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
