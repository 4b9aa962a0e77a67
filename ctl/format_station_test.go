package ctl

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/radio"
)

// iwStationLines are the lines print_sta_handler of iw 5.19 (station.c,
// Debian 12's iw) can print, in its order: each printf's format string,
// without the leading "\n" iw starts a line with. A flag line's value is
// a printf of its own, written here as {a|b}. iw prints a line only when
// the kernel sent its attribute; airq leaves out what an AP of its kind
// has no figure for (beacon loss, mesh, TID stats: those are a client's or
// a mesh point's). The BSS parameters (parse_bss_param) come with every
// station, an AP's included: mac80211 fills them from the interface's BSS.
var iwStationLines = []string{
	"Station %s (on %s)",
	"\tinactive time:\t%u ms",
	"\trx bytes:\t%llu",
	"\trx packets:\t%u",
	"\ttx bytes:\t%llu",
	"\ttx packets:\t%u",
	"\ttx retries:\t%u",
	"\ttx failed:\t%u",
	"\tbeacon loss:\t%u",
	"\tbeacon rx:\t%llu",
	"\trx drop misc:\t%llu",
	"\tsignal:  \t%d %sdBm",
	"\tsignal avg:\t%d %sdBm",
	"\tbeacon signal avg:\t%d dBm",
	"\tToffset:\t%llu us",
	"\ttx bitrate:\t%s",
	"\ttx duration:\t%lld us",
	"\trx bitrate:\t%s",
	"\trx duration:\t%lld us",
	"\tlast ack signal:%d dBm",
	"\tavg ack signal:\t%d dBm",
	"\tairtime weight: %d",
	"\texpected throughput:\t%u.%uMbps",
	"\tmesh llid:\t%d",
	"\tmesh plid:\t%d",
	"\tmesh plink:\t%s",
	"\tmesh airtime link metric: %d",
	"\tmesh connected to gate:\t%s",
	"\tmesh connected to auth server:\t%s",
	"\tmesh local PS mode:\t%s",
	"\tmesh peer PS mode:\t%s",
	"\tmesh non-peer PS mode:\t%s",
	"\tauthorized:\t{yes|no}",
	"\tauthenticated:\t{yes|no}",
	"\tassociated:\t{yes|no}",
	"\tpreamble:\t{short|long}",
	"\tWMM/WME:\t{yes|no}",
	"\tMFP:\t\t{yes|no}",
	"\tTDLS peer:\t{yes|no}",
	"\tDTIM period:\t%u",
	"\tbeacon interval:%u",
	"\tCTS protection:\t{yes|no}",
	"\tshort preamble:\t{yes|no}",
	"\tshort slot time:{yes|no}",
	"\tconnected time:\t%u seconds",
	"\tassociated at [boottime]:\t%llu.%.3llus",
	"\tassociated at:\t%llu ms",
	"\tcurrent time:\t%llu ms",
}

// iwBitrateParts are parse_bitrate's format strings in its order: the
// figure (or "(unknown)"), then each suffix iw may append.
var iwBitrateParts = []string{" MCS %d", " VHT-MCS %d", " 40MHz", " 80MHz", " 80P80MHz", " 160MHz", " 320MHz",
	" short GI", " VHT-NSS %d", " HE-MCS %d", " HE-NSS %d", " HE-GI %d", " HE-DCM %d", " HE-RU-ALLOC %d"}

// cFormat turns a printf format (and {a|b} alternatives) into an anchored
// regular expression.
func cFormat(f string) *regexp.Regexp {
	conv := regexp.MustCompile(`%(\.3llu|llu|lld|u|d|s)|\{[^}]*\}`)
	var re strings.Builder
	last := 0
	for _, m := range conv.FindAllStringIndex(f, -1) {
		re.WriteString(regexp.QuoteMeta(f[last:m[0]]))
		switch v := f[m[0]:m[1]]; v {
		case "%u", "%llu":
			re.WriteString(`[0-9]+`)
		case "%d", "%lld":
			re.WriteString(`-?[0-9]+`)
		case "%.3llu":
			re.WriteString(`[0-9]{3,}`)
		case "%s":
			re.WriteString(`.*`)
		default:
			re.WriteString("(" + strings.ReplaceAll(regexp.QuoteMeta(v[1:len(v)-1]), `\|`, "|") + ")")
		}
		last = m[1]
	}
	re.WriteString(regexp.QuoteMeta(f[last:]))
	return regexp.MustCompile("^" + re.String() + "$")
}

// checkIWStation holds one station's text against iw's lines: every line
// up to "current time" matches one of iw's format strings, in iw's order;
// the lines after it are airq's own and match none.
func checkIWStation(t *testing.T, text string) {
	t.Helper()
	for _, p := range iwStationProblems(text) {
		t.Error(p)
	}
}

// iwStationProblems lists how text departs from iw's lines.
func iwStationProblems(text string) []string {
	var out []string
	errorf := func(f string, a ...any) { out = append(out, fmt.Sprintf(f, a...)) }
	formats := make([]*regexp.Regexp, len(iwStationLines))
	for i, f := range iwStationLines {
		formats[i] = cFormat(f)
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	next, ended := 0, false
	for _, l := range lines {
		at := -1
		for i, re := range formats {
			if re.MatchString(l) {
				at = i
				break
			}
		}
		switch {
		case ended && at >= 0:
			errorf("line %q after current time matches iw's %q", l, iwStationLines[at])
		case ended:
		case at < 0:
			errorf("line %q matches none of iw's format strings", l)
		case at < next:
			errorf("line %q (iw's %q) out of iw's order", l, iwStationLines[at])
		default:
			next = at + 1
			ended = strings.HasPrefix(iwStationLines[at], "\tcurrent time:")
		}
		for _, pre := range []string{"\ttx bitrate:\t", "\trx bitrate:\t"} {
			if v, ok := strings.CutPrefix(l, pre); ok {
				if p := iwBitrateProblem(v); p != "" {
					out = append(out, p)
				}
			}
		}
	}
	if !ended {
		errorf("no current time line in\n%s", text)
	}
	return out
}

// iwBitrateProblem holds a rate against parse_bitrate's format strings.
func iwBitrateProblem(v string) string {
	if v == "(unknown)" {
		return ""
	}
	m := cFormat("%d.%d MBit/s").FindStringIndex(v[:strings.Index(v+" MBit/s", " MBit/s")+len(" MBit/s")])
	if m == nil {
		return fmt.Sprintf("bitrate %q does not start like %%d.%%d MBit/s", v)
	}
	rest := v[m[1]:]
	for _, p := range iwBitrateParts {
		re := regexp.MustCompile("^" + strings.TrimSuffix(cFormat(p).String()[1:], "$"))
		if loc := re.FindStringIndex(rest); loc != nil {
			rest = rest[loc[1]:]
		}
	}
	if rest != "" {
		return fmt.Sprintf("bitrate %q: %q is not one of iw's suffixes in iw's order", v, rest)
	}
	return ""
}

var testClock = Clock{Wall: time.UnixMilli(1700000000123), Boot: 3600*time.Second + 250*time.Millisecond}

func TestFormatStation(t *testing.T) {
	var b []byte
	for i := range sampleStations() {
		b = AppendStation(b, "airq0", &sampleStations()[i], testClock)
	}
	golden(t, "station-dump.txt", b)
	for i := range sampleStations() {
		checkIWStation(t, string(AppendStation(nil, "airq0", &sampleStations()[i], testClock)))
	}
	// The first station names its BSS, the second does not: dev stands in.
	for _, want := range []string{"Station 02:00:00:00:01:00 (on wlan0)\n", "Station 02:00:00:00:01:01 (on airq0)\n", "\tinactive time:\t36 ms\n",
		"\tsignal:  \t-42 dBm\n\tsignal avg:\t-44 dBm\n",
		"\ttx bitrate:\t866.7 MBit/s VHT-MCS 9 80MHz short GI VHT-NSS 2\n\ttx duration:\t250000 us\n",
		"\trx bitrate:\t65.0 MBit/s MCS 7\n\trx duration:\t41000 us\n", "\ttx bitrate:\t5.5 MBit/s\n",
		"\tairtime weight: 512\n\texpected throughput:\t583.648Mbps\n",
		"\tTDLS peer:\tno\n\tDTIM period:\t2\n\tbeacon interval:100\n\tshort preamble:\tyes\n\tshort slot time:yes\n\tconnected time:",
		"\tconnected time:\t61 seconds\n\tassociated at [boottime]:\t3539.000s\n\tassociated at:\t1699999938873 ms\n\tcurrent time:\t1700000000123 ms\n",
		"\tairtime deficit:\tVO: 512 us VI: 512 us BE: -1234 us BK: 512 us\n"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("no %q in\n%s", want, b)
		}
	}
	// Not associated: no association time; no signal heard: no signal lines.
	second := string(AppendStation(nil, "airq0", &sampleStations()[1], testClock))
	for _, absent := range []string{"associated at", "signal", "rx bitrate", "expected throughput"} {
		if strings.Contains(second, absent) {
			t.Errorf("%q in\n%s", absent, second)
		}
	}
}

// The checker itself: it must catch what the old layout got wrong.
func TestIWStationCheckerCatches(t *testing.T) {
	good := string(AppendStation(nil, "airq0", &sampleStations()[0], testClock))
	for name, bad := range map[string]string{
		"two tabs after TDLS peer": strings.Replace(good, "TDLS peer:\tno", "TDLS peer:\t\tno", 1),
		"rx bitrate before tx duration": strings.Replace(good,
			"\ttx duration:\t250000 us\n\trx bitrate:\t65.0 MBit/s MCS 7\n", "\trx bitrate:\t65.0 MBit/s MCS 7\n\ttx duration:\t250000 us\n", 1),
		"suffixes out of order": strings.Replace(good, "80MHz short GI", "short GI 80MHz", 1),
		"no current time":       strings.Replace(good, "\tcurrent time:", "\tcurrent  time:", 1),
	} {
		if len(iwStationProblems(bad)) == 0 {
			t.Errorf("%s: the checker passes it", name)
		}
	}
}

func TestBitrateIW(t *testing.T) {
	ht := func(mcs uint8, bw radio.Bandwidth, sgi bool) radio.Rate {
		return radio.Rate{Mode: radio.ModeHT, MCS: mcs, Bandwidth: bw, ShortGI: sgi}
	}
	vht := func(mcs, nss uint8, bw radio.Bandwidth, sgi bool) radio.Rate {
		return radio.Rate{Mode: radio.ModeVHT, MCS: mcs, NSS: nss, Bandwidth: bw, ShortGI: sgi}
	}
	// The figures are cfg80211_calculate_bitrate's for these rates.
	for _, c := range []struct {
		r    radio.Rate
		want string
	}{
		{radio.Rate{}, "(unknown)"},
		{radio.LegacyRate(1000), "1.0 MBit/s"},
		{radio.LegacyRate(5500), "5.5 MBit/s"},
		{radio.LegacyRate(54000), "54.0 MBit/s"},
		{ht(7, radio.BW20, false), "65.0 MBit/s MCS 7"},
		{ht(7, radio.BW20, true), "72.2 MBit/s MCS 7 short GI"},
		{ht(2, radio.BW20, true), "21.7 MBit/s MCS 2 short GI"},
		{ht(15, radio.BW40, true), "300.0 MBit/s MCS 15 40MHz short GI"},
		{ht(32, radio.BW40, false), "(unknown)"},
		{vht(9, 1, radio.BW20, false), "86.7 MBit/s VHT-MCS 9 VHT-NSS 1"},
		{vht(0, 1, radio.BW80, true), "32.6 MBit/s VHT-MCS 0 80MHz short GI VHT-NSS 1"},
		{vht(9, 2, radio.BW80, true), "866.7 MBit/s VHT-MCS 9 80MHz short GI VHT-NSS 2"},
		{vht(9, 1, radio.BW160, false), "780.0 MBit/s VHT-MCS 9 160MHz VHT-NSS 1"},
		{vht(7, 0, radio.BW20, false), "(unknown)"},
		{radio.Rate{Mode: radio.ModeHE, MCS: 11, NSS: 2, Bandwidth: radio.BW80}, "1201.0 MBit/s 80MHz HE-MCS 11 HE-NSS 2 HE-GI 0 HE-DCM 0"},
	} {
		b := NewBitrate(c.r)
		got := string(b.AppendIW(nil))
		if got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
		if p := iwBitrateProblem(got); p != "" {
			t.Error(p)
		}
		var back Bitrate
		if err := back.UnmarshalText([]byte(got)); err != nil || back != b {
			t.Errorf("%q reads back as %+v, %v; want %+v", got, back, err, b)
		}
	}
	for _, bad := range []string{"", "72.3 MBit/s MCS 7 short GI", "72.2 MBit/s short GI MCS 7", "54.0 MBit/s ",
		"54 MBit/s", "5.4 MBit/s", "65.0 MBit/s MCS", "65.0 MBit/s MCS x", "1201.0 MBit/s 80MHz HE-MCS 11 HE-NSS 2 HE-GI 0 HE-DCM 1",
		"unknown"} {
		var r Bitrate
		if err := r.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("%q accepted as %+v", bad, r)
		}
	}
}

// Every rate airq can send or hear prints in iw's form and reads back.
func TestBitrateRoundTrip(t *testing.T) {
	n := 0
	for mode := radio.ModeNone; mode <= radio.ModeHE; mode++ {
		for mcs := range uint8(33) {
			for nss := range uint8(5) {
				for _, bw := range []radio.Bandwidth{0, radio.BW20, radio.BW40, radio.BW80, radio.BW160} {
					for _, sgi := range []bool{false, true} {
						r := radio.Rate{Mode: mode, Legacy: mcs * 3, MCS: mcs, NSS: nss, Bandwidth: bw, ShortGI: sgi}
						b := NewBitrate(r)
						text, _ := b.MarshalText()
						var back Bitrate
						if err := back.UnmarshalText(text); err != nil || back != b {
							t.Fatalf("%+v prints %q, reads back %+v, %v", r, text, back, err)
						}
						n++
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no rates")
	}
}

func FuzzBitrate(f *testing.F) {
	for _, s := range []string{"(unknown)", "54.0 MBit/s", "72.2 MBit/s MCS 7 short GI", "866.7 MBit/s VHT-MCS 9 80MHz short GI VHT-NSS 2",
		"1201.0 MBit/s 80MHz HE-MCS 11 HE-NSS 2 HE-GI 0 HE-DCM 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b Bitrate
		if err := b.UnmarshalText([]byte(s)); err != nil {
			return
		}
		if text, _ := b.MarshalText(); string(text) != s {
			t.Fatalf("%q reads as %+v, prints %q", s, b, text)
		}
		if NewBitrate(radio.Rate(b)) != b {
			t.Fatalf("%q reads as %+v, not canonical", s, b)
		}
	})
}
