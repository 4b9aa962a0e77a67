package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// The keys tutorials and router firmware write that airq honours as
// hostapd 2.10 does, and the checks of them together (checkCompat).

var compatKeys = map[string]Key{
	"interface": {Want: "the wireless interface whose phy airqd drives when phy= and -phy are not given (1 to 15 characters)",
		set: func(s *Settings, v string) error { s.Interface = v; return ifnameOK(v) }},
	"utf8_ssid": {Want: "0 or 1 (1: the Extended Capabilities element's UTF-8 SSID bit)",
		set: func(s *Settings, v string) error { return setBool(&s.Core.Advert.UTF8SSID, v) }},
	"bss_load_update_period": {Want: "0 (no BSS Load element) to 100 beacon intervals between channel utilization updates",
		set: func(s *Settings, v string) error { return setInt(&s.Core.Advert.BSSLoadPeriod, v, 0, 100) }},
	"chan_util_avg_period": {Want: "0 (none) or more beacon intervals to average the channel utilization over (with bss_load_update_period)",
		set: func(s *Settings, v string) error { return setInt(&s.Core.Advert.ChanUtilAvgPeriod, v, 0, 1<<31-1) }},
	"ieee80211h": {Want: "0 or 1 (needs ieee80211d=1; radar channels stay refused: airq does no radar detection)",
		set: func(_ *Settings, v string) error { var b bool; return setBool(&b, v) }},
	"local_pwr_constraint": {Want: "0 to 255 dB (the Power Constraint element on 5 GHz; needs ieee80211d=1)",
		set: func(s *Settings, v string) error {
			var n int
			err := setInt(&n, v, 0, 255)
			s.Core.Advert.PowerConstraint, s.Core.Advert.LocalPowerConstraint = err == nil, uint8(n)
			return err
		}},
	"spectrum_mgmt_required": {Want: "0 or 1 (1: the Spectrum Management bit on 5 GHz; needs local_pwr_constraint)",
		set: func(s *Settings, v string) error { return setBool(&s.Core.Advert.SpectrumMgmt, v) }},
	"preamble": {Want: "0 (long preamble, the default) or 1 (short preamble on 2.4 GHz while every associated station has it)",
		set: func(s *Settings, v string) error { return setBool(&s.Core.ShortPreamble, v) }},
	"obss_interval": {Want: "0 (the default) to 65535 s: with HT, the Overlapping BSS Scan Parameters element's scan interval; 40 MHz comes back 5 times that after 20/40 MHz coexistence made the radio 20 MHz",
		set: func(s *Settings, v string) error { return setInt(&s.PHY.OBSSInterval, v, 0, 65535) }},
	"noscan": {Want: "0 (the default: a 40 MHz channel on 2.4 GHz starts only if the neighbours heard around it permit 40 MHz, else at 20 MHz) or 1 (it starts at 40 MHz unchecked)",
		set: func(s *Settings, v string) error { return setBool(&s.PHY.NoScan, v) }},
	"chanlist": {Want: "channel numbers and ranges separated by spaces or commas, such as 1 6 11-13 (automatic selection picks among them)",
		set: func(s *Settings, v string) (err error) {
			s.ACS.ChanList, err = parseRanges(strings.ReplaceAll(v, " ", ","), 1, 196)
			return err
		}},
	"freqlist": {Want: "frequencies in MHz and ranges separated by commas, such as 2412-2462,5180 (automatic selection picks among them)",
		set: func(s *Settings, v string) (err error) {
			s.ACS.FreqList, err = parseRanges(v, 2400, 5900)
			return err
		}},
}

// Range is an inclusive range of channel numbers or frequencies.
type Range struct{ Min, Max int }

// InRanges reports whether n is in one of rs.
func InRanges(rs []Range, n int) bool {
	return slices.ContainsFunc(rs, func(r Range) bool { return n >= r.Min && n <= r.Max })
}

// parseRanges reads hostapd's comma-separated list of N and N-M items.
func parseRanges(v string, lo, hi int) ([]Range, error) {
	var out []Range
	for _, item := range strings.Split(v, ",") {
		if item == "" {
			continue // hostapd's chanlist turns each blank into a comma
		}
		a, b, isRange := strings.Cut(item, "-")
		if !isRange {
			b = a
		}
		x, err1 := strconv.Atoi(a)
		y, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || x < lo || y > hi || x > y {
			return nil, errWant
		}
		out = append(out, Range{x, y})
	}
	if len(out) == 0 {
		return nil, errWant
	}
	return out, nil
}

// setWPAPairwise checks wpa_pairwise's cipher names; which cipher they
// stand for is decided with the whole file (checkCompat).
func setWPAPairwise(_ *Settings, v string) error {
	if strings.TrimSpace(v) == "" {
		return errWant
	}
	for _, f := range strings.Fields(v) {
		if c, _ := rsn.ParseCipher(f); c == 0 {
			return errWant
		}
	}
	return nil
}

// radarChannel reports whether a 5 GHz channel needs radar detection in
// every regulatory domain that allows it (UNII-2A and UNII-2C).
func radarChannel(ch int) bool { return ch >= 52 && ch <= 144 }

// radarInSpan is the first channel of the operating channel's span (the
// primary, the secondary of 40 MHz, the block of 80 or 160 MHz) that
// needs radar detection, as hostapd checks every channel it uses; 0 if
// none does.
func radarInSpan(ch int, p PHY) int {
	width := p.Width
	switch {
	case width == 0 && p.VHT:
		width = 80
	case width == 0 && p.HT40 != "":
		width = 40
	}
	first, n := ch, 1
	switch {
	case width == 40 && p.HT40 == "+":
		n = 2
	case width == 40 && p.HT40 == "-":
		first, n = ch-4, 2
	case width == 80 || width == 160:
		n = width / 20
		base := 36
		if ch >= 149 {
			base = 149
		} else if ch >= 100 {
			base = 100
		}
		first = base + (ch-base)/(4*n)*(4*n)
	}
	for c := first; c < first+4*n; c += 4 {
		if radarChannel(c) {
			return c
		}
	}
	return 0
}

// checkCompat checks the keys above together, with hostapd 2.10's errors
// where hostapd refuses the combination, and warns where a key changes
// nothing in this file.
func (f *File) checkCompat(s *Settings, last map[string]line, _ map[string]bool) Problems {
	var ps Problems
	fail := func(key, msg string) { ps = append(ps, *f.problem(last[key], msg)) }
	warn := func(key, msg string) {
		p := f.problem(last[key], msg)
		p.Warning = true
		ps = append(ps, *p)
	}
	has := func(key string) bool { _, ok := last[key]; return ok }
	fiveGHz := s.Channel >= 36 || s.Channel == 0 && s.HWMode == "a"

	// wpa_pairwise is WPA1's cipher list; with wpa=2 hostapd takes it
	// for rsn_pairwise only when rsn_pairwise is not set.
	if l, ok := last["wpa_pairwise"]; ok && s.Core.RSN != nil {
		switch {
		case has("rsn_pairwise"):
			warn("wpa_pairwise", fmt.Sprintf("changes nothing here: with wpa=2, rsn_pairwise (line %d) is the pairwise cipher; wpa_pairwise is WPA1's, which airq does not have", last["rsn_pairwise"].n))
		case strings.Join(strings.Fields(l.value), " ") != "CCMP":
			fail("wpa_pairwise", fmt.Sprintf("%q: without rsn_pairwise, hostapd takes wpa=2's cipher from wpa_pairwise: TKIP is not supported; want CCMP (rsn_pairwise=CCMP)", clip(l.value)))
		}
	}

	if l, ok := last["ieee80211h"]; ok && trimBlanks(l.value) == "1" {
		switch {
		case !s.IEEE80211D:
			fail("ieee80211h", "cannot enable IEEE 802.11h without IEEE 802.11d enabled (ieee80211d=1 and country_code)")
		case radarInSpan(s.Channel, s.PHY) != 0:
			fail("ieee80211h", fmt.Sprintf("channel %d needs radar detection (DFS), which airq does not do: choose a channel and width that need none, such as 36-48 or 149-165", radarInSpan(s.Channel, s.PHY)))
		case !s.Core.Advert.SpectrumMgmt && !s.Core.Advert.PowerConstraint:
			warn("ieee80211h", "changes nothing on a channel without radar detection, as in hostapd: spectrum_mgmt_required=1 sets the Spectrum Management bit, local_pwr_constraint sends the Power Constraint element")
		}
	}
	if has("local_pwr_constraint") && s.Core.Advert.PowerConstraint {
		switch {
		case !s.IEEE80211D:
			fail("local_pwr_constraint", "cannot add Power Constraint element without Country element (ieee80211d=1 and country_code)")
		case !fiveGHz:
			warn("local_pwr_constraint", "changes nothing on 2.4 GHz, as in hostapd: the Power Constraint element is sent on 5 GHz only")
		}
	}
	if has("spectrum_mgmt_required") && s.Core.Advert.SpectrumMgmt {
		switch {
		case !s.Core.Advert.PowerConstraint:
			fail("spectrum_mgmt_required", "cannot set Spectrum Management bit without Country and Power Constraint elements (local_pwr_constraint)")
		case !fiveGHz:
			warn("spectrum_mgmt_required", "changes nothing on 2.4 GHz, as in hostapd: the Spectrum Management bit is set on 5 GHz only")
		}
	}

	if has("preamble") && s.Core.ShortPreamble && fiveGHz {
		warn("preamble", "changes nothing on 5 GHz: the short preamble is DSSS/CCK's, announced on 2.4 GHz only")
	}

	if has("noscan") && s.PHY.NoScan && (fiveGHz || s.PHY.HT40 == "") {
		warn("noscan", "changes nothing here: only a 40 MHz channel on 2.4 GHz ([HT40+] or [HT40-]) checks its neighbours at start")
	}

	if has("chan_util_avg_period") && s.Core.Advert.ChanUtilAvgPeriod != 0 && s.Core.Advert.BSSLoadPeriod == 0 {
		warn("chan_util_avg_period", "changes nothing here: the average is taken only with bss_load_update_period, as in hostapd")
	}
	for _, k := range []string{"chanlist", "freqlist"} {
		if has(k) && s.Channel != 0 {
			warn(k, fmt.Sprintf("changes nothing here: channel %d is fixed; the list restricts only automatic channel selection (channel=0)", s.Channel))
		}
	}
	if has("interface") {
		switch {
		case s.Radio == "sim":
			warn("interface", "changes nothing here: the simulated radio (radio=sim) drives no interface")
		case s.Phy != "":
			warn("interface", fmt.Sprintf("changes nothing here: phy= or -phy names the radio (%s); interface= names it only without them", s.Phy))
		}
	}
	return ps
}

// ACSAllows reports whether the selection may pick the 20 MHz channel at
// freq under chanlist and freqlist: both apply, as in hostapd.
func (a ACS) ACSAllows(freq int) bool {
	if a.ChanList != nil && !InRanges(a.ChanList, ieee80211.FreqToChannel(freq)) {
		return false
	}
	return a.FreqList == nil || InRanges(a.FreqList, freq)
}
