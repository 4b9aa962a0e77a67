package config

import (
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

func setBool(p *bool, v string) error {
	switch v {
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
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return errWant
	}
	*p = n
	return nil
}

func setUint(p *uint, v string, lo, hi uint64) error {
	n, err := strconv.ParseUint(v, 10, 64)
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

// The flags of ht_capab and vht_capab airq acts on.
const (
	htCapabWant  = "bracketed flags: [HT40+] or [HT40-], [SHORT-GI-20], [SHORT-GI-40], [LDPC]"
	vhtCapabWant = "bracketed flags: [SHORT-GI-80], [SHORT-GI-160], [RXLDPC], [MAX-MPDU-7991] or [MAX-MPDU-11454]"
)

// unsupportedFlag names the capability flag of v airq does not act on.
func unsupportedFlag(v, f, want string) error {
	return saysWhy{fmt.Errorf("%q: [%s] is not supported; want %s", v, f, want)}
}

// parseHTCapab reads hostapd's ht_capab flags airq acts on; others are
// errors rather than silently ignored. As in hostapd, a capability is on
// only when its flag is listed.
func parseHTCapab(p *PHY, v string) error {
	for _, f := range capabFlags(v) {
		switch f {
		case "HT40+":
			p.HT40 = "+"
		case "HT40-":
			p.HT40 = "-"
		case "SHORT-GI-20":
			p.SGI20 = true
		case "SHORT-GI-40":
			p.SGI40 = true
		case "LDPC":
			p.LDPC = true
		default:
			return unsupportedFlag(v, f, htCapabWant)
		}
	}
	return nil
}

func parseVHTCapab(p *PHY, v string) error {
	for _, f := range capabFlags(v) {
		switch f {
		case "SHORT-GI-80":
			p.SGI80 = true
		case "SHORT-GI-160":
			p.SGI160 = true
		case "RXLDPC":
			p.LDPC = true
		case "MAX-MPDU-7991":
			p.MaxMPDU = max(p.MaxMPDU, 7991)
		case "MAX-MPDU-11454":
			p.MaxMPDU = 11454
		case "MAX-MPDU-3895":
			return saysWhy{fmt.Errorf("%q: [MAX-MPDU-3895] is not a hostapd flag (3895 octets is the default: leave it out); want %s", v, vhtCapabWant)}
		default:
			return unsupportedFlag(v, f, vhtCapabWant)
		}
	}
	return nil
}

// capabFlags splits "[A][B-C]" into A, B-C.
func capabFlags(v string) []string {
	var out []string
	for _, part := range strings.Split(v, "[") {
		if part = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(part), "]")); part != "" {
			out = append(out, part)
		}
	}
	return out
}
