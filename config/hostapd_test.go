package config

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// parse parses text and applies it over the defaults, returning every
// problem.
func parse(t *testing.T, text string) (Settings, Problems) {
	t.Helper()
	s := defaults()
	_, ps := Load("x.conf", []byte(text), &s, nil)
	return s, ps
}

// Lines split as hostapd splits them: the key and the value are what is
// on either side of the first '=', blanks included.
func TestHostapdLineSplitting(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"ssid = spaced\n", `x.conf:1: unknown key "ssid ": the key is everything before '=', blanks included, as in hostapd: write ssid=`},
		{"  hw_mode=g\n", `x.conf:1: unknown key "  hw_mode": the key is everything before '=', blanks included`},
		{"   \n", `x.conf:1: a line of blanks (hostapd refuses it too): make it empty`},
		{"ssid=x\r\n", `x.conf:1: ssid: the line ends in a carriage return (a DOS line ending, which hostapd would keep in the value): convert the file with dos2unix`},
		{"\r\n", `x.conf:1: an empty line ending in a carriage return`},
		{"  # a comment\n", `x.conf:1: "  # a comment": a comment's # must be the first character of the line`},
		{" #ssid=x\n", `x.conf:1: " #ssid": a comment's # must be the first character of the line`},
		{"channel\n", `x.conf:1: "channel" is not key=value`},
	} {
		_, ps := parse(t, c.text)
		if len(ps) != 1 || ps[0].Warning || ps[0].String() != c.want && !strings.HasPrefix(ps[0].String(), c.want) {
			t.Errorf("%q: %v, want one error %q", c.text, ps, c.want)
		}
	}
	// The SSID is the value as written; numbers may have blanks around them.
	s, ps := parse(t, "ssid= spaced \nchannel= 6\nbeacon_int=200 \n")
	if ps.Err() != nil || s.Core.SSID != " spaced " || s.Channel != 6 || s.Core.BeaconInterval != 200 {
		t.Errorf("ssid %q channel %d beacon_int %d: %v", s.Core.SSID, s.Channel, s.Core.BeaconInterval, ps)
	}
}

// Every problem of a file comes at once, in line order: each line's, then
// what the whole file shows, with warnings apart from errors.
func TestEveryProblemAtOnce(t *testing.T) {
	_, ps := parse(t, "driver=nl80211\nbogus=1\nbeacon_int=5\nwpa=2\nhw_mode=a\nlogger_syslog=-1\ndtim_period=x\n")
	var got []string
	for _, p := range ps {
		got = append(got, p.String())
	}
	want := []string{
		"x.conf:1: warning: driver: ignored: nl80211 is what airq does",
		`x.conf:2: unknown key "bogus"`,
		`x.conf:3: beacon_int: "5": want 15 to 65535 TU`,
		`x.conf:4: wpa: wpa=2 needs wpa_passphrase, wpa_psk or wpa_psk_file`,
		`x.conf:5: hw_mode: "a" does not match channel 1`,
		"x.conf:6: warning: logger_syslog: ignored: airq logs to standard error",
		`x.conf:7: dtim_period: "x": want 1 to 255 beacons`,
	}
	if len(got) != len(want) {
		t.Fatalf("problems:\n%s\nwant %d", strings.Join(got, "\n"), len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("problem %d: %q, want %q...", i, got[i], want[i])
		}
	}
	if err := ps.Err(); err == nil || strings.Count(err.Error(), "\n") != 4 || len(ps.Warnings()) != 2 {
		t.Errorf("errors %v, warnings %v", err, ps.Warnings())
	}
	// A file with warnings alone is accepted.
	if _, ps := parse(t, "driver=nl80211\nlogger_stdout=-1\nwpa_gmk_rekey=86400\n"); ps.Err() != nil || len(ps) != 3 {
		t.Errorf("warnings only: %v", ps)
	}
}

// An unknown key gets the near misses, not the list of every key.
func TestDidYouMean(t *testing.T) {
	for key, want := range map[string]string{
		"wmm_ac_be_cwmn": `; did you mean wmm_ac_be_cwmin?`,
		"SSID":           `; did you mean ssid?`,
		"ht_cap":         `; did you mean ht_capab?`,
		"wpa_pasphrase":  `; did you mean wpa_passphrase?`,
		"bogus":          `unknown key "bogus"`,
	} {
		_, ps := parse(t, key+"=1\n")
		if len(ps) != 1 || !strings.HasSuffix(ps[0].Msg, want) || len(ps[0].Msg) > 120 {
			t.Errorf("%s: %v, want a message ending %q", key, ps, want)
		}
	}
}

// No message names a source file (Want texts, reasons, notes).
func TestNoSourceNamesInMessages(t *testing.T) {
	goFile := regexp.MustCompile(`\w\.go\b`)
	texts := []string{htCapabWant, vhtCapabWant}
	for _, name := range Names() {
		k, _ := Lookup(name)
		texts = append(texts, k.Want)
	}
	for _, u := range unused {
		texts = append(texts, u.note, u.refuse)
	}
	for _, m := range []map[string]string{htUnused, vhtUnused} {
		for _, why := range m {
			texts = append(texts, why)
		}
	}
	for _, s := range texts {
		if goFile.MatchString(s) {
			t.Errorf("a message names a source file: %q", s)
		}
	}
}

// The keys that change nothing for airq are accepted with one warning, and
// the capability flags airq does not act on are named in one.
func TestAcceptedWithAWarning(t *testing.T) {
	for _, line := range []string{"driver=nl80211", "logger_stdout_level=2", "wpa_gmk_rekey=0", "group_cipher=CCMP", "eap_server=0", "ieee8021x=0", "own_ip_addr=127.0.0.1",
		"eapol_key_index_workaround=0", "rts_threshold=-1", "fragm_threshold=-1", "tx_queue_data2_aifs=3",
		"disable_11ax=0", "max_listen_interval=65535", "ignore_probe_probability=0.0"} {
		_, ps := parse(t, line+"\n")
		if len(ps) != 1 || !ps[0].Warning || !strings.HasPrefix(ps[0].Msg, "ignored: ") {
			t.Errorf("%s: %v, want one warning", line, ps)
		}
	}
	_, ps := parse(t, "tx_queue_data0_cwmin=3\n")
	if len(ps) != 1 || !strings.Contains(ps[0].Msg, "nl80211 takes TX queue parameters only for AP and P2P-GO interfaces") {
		t.Errorf("tx_queue: %v", ps)
	}
	s, ps := parse(t, "ht_capab=[HT40+][DSSS_CCK-40][TX-STBC][RX-STBC1][MAX-AMSDU-7935][SHORT-GI-20]\n")
	if s.PHY.HT40 != "+" || !s.PHY.SGI20 || len(ps) != 1 || !ps[0].Warning ||
		ps[0].String() != "x.conf:1: warning: ht_capab: not advertised: [DSSS_CCK-40] (DSSS/CCK in 40 MHz is not announced), "+
			"[TX-STBC] (airq sends no STBC), [RX-STBC1] (STBC reception is not announced), "+
			"[MAX-AMSDU-7935] (7935 octets are announced in any case: A-MSDUs are taken apart in software)" {
		t.Errorf("ht_capab: %+v %v", s.PHY, ps)
	}
	s, ps = parse(t, "vht_capab=[MAX-MPDU-11454][RX-STBC-1][SHORT-GI-80][HTC-VHT][MAX-A-MPDU-LEN-EXP7]\n")
	if s.PHY.MaxMPDU != 11454 || !s.PHY.SGI80 || len(ps) != 1 || !ps[0].Warning || !strings.Contains(ps[0].Msg, "[HTC-VHT] (airq sends no HT Control field)") {
		t.Errorf("vht_capab: %+v %v", s.PHY, ps)
	}
}

// ssid2 reads hostapd's three forms.
func TestSSID2(t *testing.T) {
	for v, want := range map[string]string{`"test"`: "test", "74657374": "test", `P"hello\nthere"`: "hello\nthere",
		`P"a\x41\101\\\""`: `aAA\"`, `" spaced "`: " spaced "} {
		s, ps := parse(t, "ssid2="+v+"\n")
		if ps.Err() != nil || s.Core.SSID != want {
			t.Errorf("ssid2=%s: %q, %v; want %q", v, s.Core.SSID, ps, want)
		}
	}
}

// The wmm_ac_* keys (and hostapd's older wme_ac_* spelling) change the
// parameters sent to stations, starting from hostapd's defaults.
func TestWMMKeys(t *testing.T) {
	s, ps := parse(t, "wmm_ac_be_aifs=7\nwmm_ac_be_cwmin=5\nwmm_ac_be_cwmax=9\nwme_ac_vo_txop_limit=0\nwmm_ac_vi_acm=0\n")
	want := ieee80211.DefaultEDCA()
	want[ieee80211.ACBE] = ieee80211.EDCA{AIFSN: 7, ECWMin: 5, ECWMax: 9}
	want[ieee80211.ACVO].TXOP = 0
	if ps.Err() != nil || s.Core.WMMParams != want {
		t.Errorf("%+v, %v; want %+v", s.Core.WMMParams, ps, want)
	}
	// Debian's example sets hostapd's defaults.
	b, err := os.ReadFile("testdata/hostapd-debian.conf")
	if err != nil {
		t.Fatal(err)
	}
	s = defaults()
	f, _ := Parse("debian.conf", b)
	f.Apply(&s, nil)
	if s.Core.WMMParams != ieee80211.DefaultEDCA() {
		t.Errorf("Debian's example: %+v", s.Core.WMMParams)
	}
}

// disable_11n and disable_11ac turn HT and VHT off in the first BSS over
// ieee80211n and ieee80211ac, which stay the radio's; -ht and -vht win
// over them.
func TestDisable11N(t *testing.T) {
	for _, c := range []struct {
		text     string
		flags    map[string]bool
		ht, vht  bool // the BSS's
		htFlag   bool
		describe string
	}{
		{text: "ieee80211n=1\nieee80211ac=1\ndisable_11ac=1\n", ht: true, describe: "no VHT"},
		{text: "ieee80211n=1\nieee80211ac=1\ndisable_11n=1\n", describe: "neither"},
		{text: "disable_11n=1\n", flags: map[string]bool{"ht": true}, htFlag: true, ht: true, describe: "-ht wins"},
		{text: "ieee80211n=1\ndisable_11n=0\n", ht: true, describe: "0 changes nothing"},
	} {
		s := defaults()
		s.PHY.HT = c.htFlag
		f, ps := Parse("x.conf", []byte(c.text))
		ps = append(ps, f.Apply(&s, c.flags)...)
		radioHT := c.htFlag || strings.Contains(c.text, "ieee80211n=1")
		ht, vht := s.PHY.HT && !s.Core.NoHT, s.PHY.VHT && !s.Core.NoHT && !s.Core.NoVHT
		if ps.Err() != nil || ht != c.ht || vht != c.vht || s.PHY.HT != radioHT {
			t.Errorf("%s: the BSS's ht %v vht %v, the radio's ht %v, %v", c.describe, ht, vht, s.PHY.HT, ps)
		}
	}
}
