package config

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/airq/airq/scan"
)

// errWant is a setter's "the value is not one the key accepts": the
// message then names the key's Want.
var errWant = errors.New("invalid")

// saysWhy is a setter's error that replaces the key's accepted values in
// the message: what is wrong in an access list file, say.
type saysWhy struct{ error }

func oneOf(v string, ok ...string) error {
	if slices.Contains(ok, v) {
		return nil
	}
	return errWant
}

func lenOK(v string, lo, hi int) error {
	if len(v) < lo || len(v) > hi {
		return errWant
	}
	return nil
}

func ifnameOK(v string) error {
	if strings.TrimSpace(v) == "" || len(v) > 15 || strings.ContainsAny(v, "/ \t") {
		return errWant
	}
	return nil
}

// countryOK accepts a two-letter upper-case code.
func countryOK(v string) error {
	if len(v) != 2 || v[0] < 'A' || v[0] > 'Z' || v[1] < 'A' || v[1] > 'Z' {
		return errWant
	}
	return nil
}

// trimBlanks drops the blanks around a number, as hostapd's atoi does.
func trimBlanks(v string) string { return strings.Trim(v, " \t") }

func setBool(p *bool, v string) error {
	switch trimBlanks(v) {
	case "0":
		*p = false
	case "1":
		*p = true
	default:
		return errWant
	}
	return nil
}

func setInt(p *int, v string, lo, hi int) error {
	n, err := strconv.Atoi(trimBlanks(v))
	if err != nil || n < lo || n > hi {
		return errWant
	}
	*p = n
	return nil
}

func setUint(p *uint, v string, lo, hi uint64) error {
	n, err := strconv.ParseUint(trimBlanks(v), 10, 64)
	if err != nil || n < lo || n > hi {
		return errWant
	}
	*p = uint(n)
	return nil
}

func setDuration(p *time.Duration, v string, lo, hi time.Duration) error {
	d, err := time.ParseDuration(v)
	if err != nil || d < lo || d > hi {
		return errWant
	}
	*p = d
	return nil
}

// legacyRates are the 802.11b/g/a rates in hostapd's 100 kbit/s units.
var legacyRates = []int{10, 20, 55, 110, 60, 90, 120, 180, 240, 360, 480, 540}

// setRates reads hostapd's rate list (100 kbit/s units) into kbit/s.
func setRates(p *[]int, v string) error {
	f := strings.Fields(v)
	if len(f) == 0 || len(f) > 12 {
		return errWant
	}
	out := make([]int, 0, len(f))
	for _, s := range f {
		n, err := strconv.Atoi(s)
		if err != nil || !slices.Contains(legacyRates, n) || slices.Contains(out, n*100) {
			return errWant
		}
		out = append(out, n*100)
	}
	*p = out
	return nil
}

// ParseChanBias reads hostapd's acs_chan_bias list: space-separated
// channel:factor pairs; "none" turns the default bias off.
func ParseChanBias(v string) (biases []scan.Bias, none bool, err error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, false, nil
	}
	if v == "none" {
		return nil, true, nil
	}
	for _, f := range strings.Fields(v) {
		ch, factor, ok := strings.Cut(f, ":")
		n, err1 := strconv.Atoi(ch)
		x, err2 := strconv.ParseFloat(factor, 64)
		if !ok || err1 != nil || err2 != nil || n < 1 || n > 196 || x <= 0 || x > 100 {
			return nil, false, fmt.Errorf("%q: want channel:factor, such as 6:0.8", f)
		}
		biases = append(biases, scan.Bias{Channel: n, Factor: x})
	}
	return biases, false, nil
}

// parseSSID2 reads hostapd's ssid2: "text" in quotes, P"text" with
// printf-style escapes, or the SSID's bytes in hex.
func parseSSID2(v string) (string, error) {
	var ssid string
	switch {
	case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
		ssid = v[1 : len(v)-1]
	case len(v) >= 3 && strings.HasPrefix(v, `P"`) && v[len(v)-1] == '"':
		var ok bool
		if ssid, ok = printfDecode(v[2 : len(v)-1]); !ok {
			return "", errWant
		}
	default:
		b, err := hex.DecodeString(v)
		if err != nil {
			return "", errWant
		}
		ssid = string(b)
	}
	return ssid, lenOK(ssid, 1, 32)
}

// printfDecode undoes the escapes hostapd's printf_decode reads: \\ \" \e
// \n \r \t, \xHH and octal \ooo.
func printfDecode(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i++; i == len(s) {
			return "", false
		}
		switch c := s[i]; c {
		case '\\', '"':
			b.WriteByte(c)
		case 'e':
			b.WriteByte(0x1b)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'x':
			n := digits(s[i+1:], 2, 16)
			v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 8)
			if err != nil {
				return "", false
			}
			b.WriteByte(byte(v))
			i += n
		default:
			n := digits(s[i:], 3, 8)
			v, err := strconv.ParseUint(s[i:i+n], 8, 8)
			if err != nil {
				return "", false
			}
			b.WriteByte(byte(v))
			i += n - 1
		}
	}
	return b.String(), true
}

// digits counts the leading digits of s in base, at most n.
func digits(s string, n, base int) int {
	k := 0
	for k < n && k < len(s) {
		if _, err := strconv.ParseUint(s[k:k+1], base, 8); err != nil {
			break
		}
		k++
	}
	return k
}
