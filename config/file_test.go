package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/internal/ieee80211"
)

// writeConf writes text to a file in a fresh directory.
func writeConf(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "airqd.conf")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// defaults are the flags' defaults that the file's checks read.
func defaults() Settings {
	s := Settings{Channel: 1}
	s.Core.AQL = aql.DefaultLimits()
	return s
}

// load parses the file at path and applies it over the defaults, with the
// flags of flagSet given.
func load(t *testing.T, path string, flagSet map[string]bool) (Settings, error) {
	t.Helper()
	s := defaults()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, ps := Parse(path, b)
	ps = append(ps, f.Apply(&s, flagSet)...)
	return s, ps.Err()
}

// Every supported key lands where it belongs, with hostapd's units
// converted (rates from 100 kbit/s to kbit/s).
func TestConfigFile(t *testing.T) {
	s, err := load(t, "testdata/hostapd.conf", nil)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Core
	switch {
	case s.Ifname != "", s.Bridge != "br-lan", c.SSID != "home net ":
		t.Errorf("names: %q %q %q (interface= is ignored)", s.Ifname, s.Bridge, c.SSID)
	case !c.HideSSID, s.Country != "US", s.Channel != 36, s.HWMode != "a":
		t.Errorf("hide %v country %q channel %d hw_mode %q", c.HideSSID, s.Country, s.Channel, s.HWMode)
	case c.BeaconInterval != 200, c.DTIMPeriod != 3, !c.WMM, c.MaxStations != 32, !c.APIsolate, !c.MulticastToUnicast:
		t.Errorf("bss %+v", c)
	case !slices.Equal(c.Rates, []int{6000, 9000, 12000, 18000, 24000, 36000, 48000, 54000}),
		!slices.Equal(c.BasicRates, []int{6000, 12000, 24000}), c.BeaconRate != 12000:
		t.Errorf("rates %v basic %v beacon %d", c.Rates, c.BasicRates, c.BeaconRate)
	case c.InactivityTimeout != 600*time.Second:
		t.Errorf("inactivity %v", c.InactivityTimeout)
	case c.AQL.Low[ieee80211.ACBE] != 500, c.AQL.High[ieee80211.ACBE] != 1000, c.AQL.Low[ieee80211.ACVO] != 4000,
		c.AQL.High[ieee80211.ACVI] != 12000, s.AQLThreshold != 9000:
		t.Errorf("aql %+v threshold %d", c.AQL, s.AQLThreshold)
	case s.AirtimeWeight != 512, c.InFlightPerAC != 32, s.LogLevel != "debug", s.Radio != "sim":
		t.Errorf("airq keys: weight %d inflight %d level %q radio %q", s.AirtimeWeight, c.InFlightPerAC, s.LogLevel, s.Radio)
	}
}

// A key whose flag was given keeps the flag's value; the others apply.
func TestFlagsOverrideKeys(t *testing.T) {
	path := writeConf(t, "ssid=file\nchannel=6\ndtim_period=3\naql_txq_limit=BE=1:2\n")
	s, err := load(t, path, map[string]bool{"ssid": true, "freq": true, "aql-txq-limit": true})
	if err != nil {
		t.Fatal(err)
	}
	if s.Core.SSID != "" || s.Channel != 1 || s.Core.AQL != aql.DefaultLimits() || s.Core.DTIMPeriod != 3 {
		t.Errorf("ssid %q channel %d aql %+v dtim %d", s.Core.SSID, s.Channel, s.Core.AQL, s.Core.DTIMPeriod)
	}
	k, _ := Lookup("channel")
	if f := k.OverriddenBy(map[string]bool{"freq": true}); f != "freq" {
		t.Errorf("channel overridden by %q, want freq", f)
	}
}

// The shipped example is valid.
func TestExampleConfig(t *testing.T) {
	s, err := load(t, "../configs/airqd.conf", nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Phy != "phy0" || s.Core.SSID != "airq" || s.Channel != 6 || s.Country != "DE" {
		t.Errorf("%+v", s)
	}
}

// Errors name the file, the line, the key and what is accepted.
func TestConfigErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"ssid=a\nbogus=1\n", `:2: unknown key "bogus"`},
		{"# c\n\nchannel\n", `:3: "channel" is not key=value`},
		{"=5\n", `:1: "=5" is not key=value`},
		{"beacon_int=5\n", `:1: beacon_int: "5": want 15 to 65535 TU`},
		{"dtim_period=x\n", `:1: dtim_period: "x": want 1 to 255 beacons`},
		{"wmm_enabled=yes\n", `:1: wmm_enabled: "yes": want 0 or 1`},
		{"max_num_sta=3000\n", `:1: max_num_sta: "3000": want 1 to 2007`},
		{"channel=acs\n", `:1: channel: "acs": want a channel number: 1-14, or 36-177 on 5 GHz; 0 or acs_survey`},
		{"acs_chan_bias=6\n", `:1: acs_chan_bias: "6": want channel:factor pairs`},
		{"hw_mode=ad\n", `:1: hw_mode: "ad": want a (5 GHz), b or g`},
		{"driver=madwifi\n", `:1: driver: "madwifi" (only nl80211 is accepted): airq drives mac80211 radios through nl80211 only`},
		{"ssid=\n", `:1: ssid: "": want 1 to 32 bytes`},
		{"country_code=usa\n", `:1: country_code: "usa": want a two-letter ISO 3166 code`},
		{"supported_rates=10 25\n", `:1: supported_rates: "10 25": want rates in 100 kbit/s`},
		{"supported_rates=10 10\n", `:1: supported_rates: "10 10"`},
		{"beacon_rate=ht:7\n", `:1: beacon_rate: "ht:7": want a legacy rate in 100 kbit/s`},
		{"macaddr_acl=3\n", `:1: macaddr_acl: "3": want 0 (accept unless in deny_mac_file) or 1 (deny unless in accept_mac_file)`},
		{"macaddr_acl=2\n", `:1: macaddr_acl: 2 (RADIUS) is not supported`},
		{"deny_mac_file=\n", `:1: deny_mac_file: "": want a file of MAC addresses`},
		{"aql_txq_limit=XX=1:2\n", `:1: aql_txq_limit: "XX=1:2": want AC=LOW:HIGH in µs`},
		{"aql_threshold=0\n", `:1: aql_threshold: "0": want 1 to 2147483648 µs`},
		{"airtime_weight=70000\n", `:1: airtime_weight: "70000": want 1 to 65535`},
		{"log_level=loud\n", `:1: log_level: "loud": want debug, info, warn or error`},
		{"radio=usb\n", `:1: radio: "usb": want nl80211 or sim`},
		{"tap_offload=1\n", `:1: tap_offload: "1": want gro (merged writes to the host), tso (also cut the host's 64 KiB sends; the default at a nice value below 0) or off`},
		{"nice=-21\n", `:1: nice: "-21": want -20 to 19 (the nice value of airqd's threads; default -10)`},
		{"bssid=ff:ff:ff:ff:ff:ff\n", `:1: bssid: "ff:ff:ff:ff:ff:ff": want a unicast MAC address`},
		{"bridge=br 0\n", `:1: bridge: "br 0": want a bridge name of at most 15 characters, without blanks`},
		{"bridge=br0 \n", `:1: bridge: "br0 ": want a bridge name of at most 15 characters, without blanks (the blanks around the value are part of it, as in hostapd: remove them)`},
		{"hw_mode=g \n", `:1: hw_mode: "g ": want a (5 GHz), b or g (2.4 GHz) (the blanks around the value are part of it`},
		{"ignore_broadcast_ssid=2\n", `:1: ignore_broadcast_ssid: 2 (the SSID zeroed, its length kept) is not supported`},
		{"auth_algs=2\n", `:1: auth_algs: 2 (shared key only) is not supported: shared key authentication needs WEP`},
		{"ssid2=\"\"\n", `:1: ssid2: "\"\"": want 1 to 32 bytes as "text" in quotes`},
		{"ssid2=7g\n", `:1: ssid2: "7g": want 1 to 32 bytes`},
		{"wmm_ac_be_aifs=1\n", `:1: wmm_ac_be_aifs: "1": want 2 to 15 slots`},
		{"wmm_ac_vi_cwmax=16\n", `:1: wmm_ac_vi_cwmax: "16": want 0 to 15, the exponent`},
		{"wmm_ac_vo_txop_limit=65536\n", `:1: wmm_ac_vo_txop_limit: "65536": want 0 to 65535, in units of 32 µs`},
		{"wmm_ac_be_acm=1\n", `:1: wmm_ac_be_acm: 1: not supported: admission control needs ADDTS requests`},
		{"wmm_ac_bk_cwmin=5\nwmm_ac_bk_cwmax=4\n", `:2: wmm_ac_bk_cwmax: BK's cwmin 5 is above its cwmax 4`},
		{"rts_threshold=500\n", `:1: rts_threshold: "500" (only -1 is accepted): RTS/CTS is not supported: mac80211 takes no RTS request from an injected frame's radiotap header`},
		{"fragm_threshold=256\n", `:1: fragm_threshold: "256" (only -1 is accepted): fragmentation is not supported`},
		{"airtime_mode=4\n", `:1: airtime_mode: "4": want 0 (off`},
		{"airtime_mode=2\nairtime_update_interval=0\n", `:2: airtime_update_interval: Airtime update interval cannot be zero`},
		{"airtime_sta_weight=02:01:02:03:04:05 0\n", `:1: airtime_sta_weight: "02:01:02:03:04:05 0": want a station's MAC address and its weight`},
		{"airtime_bss_cap=0\n", `:1: airtime_bss_cap: "0": want 1 to 100`},
		{"vht_oper_chwidth=3\n", `:1: vht_oper_chwidth: "3": want 0 (20 or 40 MHz), 1 (80 MHz) or 2 (160 MHz)`},
		{"vht_capab=[MAX-MPDU-3895]\n", `:1: vht_capab: "[MAX-MPDU-3895]": [MAX-MPDU-3895] is not a hostapd flag (3895 octets is the default: leave it out); want bracketed flags`},
		{"ieee80211d=2\n", `:1: ieee80211d: "2": want 0 or 1 (1: advertise country_code in beacons, the Country element)`},
		{"ssid=x\nieee80211d=1\n", `:2: ieee80211d: cannot enable IEEE 802.11d without setting the country_code`},
		// Known hostapd keys airq does not implement are refused by name.
		{"ssid=x\nwpa=2\n", `:2: wpa: wpa=2 needs wpa_passphrase, wpa_psk or wpa_psk_file`},
		{"wpa_passphrase=secret123\n", `:1: wpa_passphrase: needs wpa=2; without it the network is open`},
		{"wpa_key_mgmt=WPA-PSK\n", `wpa_key_mgmt: needs wpa=2`},
		{"rsn_pairwise=CCMP\n", `rsn_pairwise: needs wpa=2`},
		{"wpa=1\n", `:1: wpa: 1: WPA (version 1, with TKIP) is not supported; want 2 (WPA2) or 0 (open)`},
		{"mobility_domain=a1b2\n", `mobility_domain: not supported: fast BSS transition (802.11r)`},
		{"ieee80211w=1\n", `:1: ieee80211w: needs wpa=2: management frame protection is part of the RSN`},
		{"beacon_prot=1\n", `beacon_prot: "1" (only 0 is accepted): not supported: beacon protection`},
		{"ieee80211ax=1\n", `ieee80211ax: "1" (only 0 is accepted): not supported: HE (802.11ax)`},
		{"eap_server=1\n", `eap_server: "1" (only 0 is accepted): not supported: 802.1X and EAP`},
		{"ieee80211h=1\n", `:1: ieee80211h: cannot enable IEEE 802.11h without IEEE 802.11d enabled`},
		{"accept_mac_file=/nonexistent/hostapd.accept\n", `:1: accept_mac_file: stat /nonexistent/hostapd.accept: no such file`},
		// What only the whole file shows names the line of the key at fault.
		{"channel=36\nhw_mode=g\n", `:2: hw_mode: "g" does not match channel 36`},
		{"hw_mode=a\n", `:1: hw_mode: "a" does not match channel 1`},
		{"supported_rates=10 20\n", `:1: supported_rates: basic_rates is needed with supported_rates`},
		{"supported_rates=10 20\nbasic_rates=10 55\n", `:2: basic_rates: 55 is not in supported_rates`},
		{"supported_rates=10 20\nbasic_rates=10\nbeacon_rate=20\n", `:3: beacon_rate: 20 is not one of basic_rates`},
	} {
		path := writeConf(t, c.text)
		_, err := load(t, path, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), path+":") {
			t.Errorf("%q: error %v, want %s:N and %q", c.text, err, path, c.want)
		}
	}
}

// hw_mode=b without rates limits the BSS to 802.11b; comments and empty
// lines are skipped; later lines win; numbers may have blanks around them,
// as hostapd's atoi allows.
func TestConfigDetails(t *testing.T) {
	s, err := load(t, writeConf(t, "# comment\n\nhw_mode=b\nchannel= 11 \nssid=first\nssid=second\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Core.Rates, []int{1000, 2000, 5500, 11000}) || s.Core.SSID != "second" || s.Channel != 11 {
		t.Errorf("rates %v ssid %q channel %d", s.Core.Rates, s.Core.SSID, s.Channel)
	}
}

// The table is whole: every key says what it accepts and sets something,
// no key is both implemented and in hostapd's list of the others, and that
// list names each key once.
func TestKeyTable(t *testing.T) {
	for _, name := range Names() {
		k, _ := Lookup(name)
		if k.Want == "" || k.set == nil {
			t.Errorf("%s: want %q, setter %v", name, k.Want, k.set != nil)
		}
		if _, ok := unused[name]; ok {
			t.Errorf("%s is implemented and classified as not", name)
		}
	}
	if len(classifiedTwice) > 0 {
		t.Errorf("classified twice: %v", classifiedTwice)
	}
	if r := Reloadable(); !slices.Equal(r, []string{"accept_mac_file", "airtime_bss_cap", "airtime_bss_limit", "airtime_bss_weight", "airtime_mode", "airtime_sta_weight", "airtime_update_interval", "airtime_weight", "aql_threshold", "aql_txq_limit", "deny_mac_file", "log_level", "macaddr_acl", "sae_password", "sae_password_file", "wpa_passphrase", "wpa_psk", "wpa_psk_file"}) {
		t.Errorf("reloadable keys %v", r)
	}
}

// FuzzParseConfig: the parser never panics, and what it accepts applies
// without error to fresh settings (every line was checked once already).
func FuzzParseConfig(f *testing.F) {
	for _, p := range []string{"testdata/hostapd.conf", "testdata/hostapd-debian.conf", "testdata/hostapd-minimal.conf", "../configs/airqd.conf"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("ssid=x\nwpa=2\n"))
	f.Add([]byte("ssid = x\r\n  # c\n   \nssid2=P\"a\\x41\\101\"\nht_capab=[HT40+][TX-STBC][FOO]\nwmm_ac_be_cwmin=9\nwmm_ac_be_cwmax=3\n"))
	f.Add([]byte("aql_txq_limit=BE=1:2,VO=3:4\nsupported_rates=10 20\nbasic_rates=10\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, ps := Parse("fuzz.conf", data)
		for _, p := range ps {
			if !strings.HasPrefix(p.String(), "fuzz.conf:") || p.Line < 1 {
				t.Fatalf("a problem without the file and line: %v", p)
			}
		}
		for _, l := range c.lines {
			var s Settings
			if p := c.check(&s, l); p != nil && !p.Warning {
				t.Fatalf("line %d accepted by Parse, refused by check: %v", l.n, p)
			}
		}
		s := defaults()
		c.Apply(&s, nil)
		c.Values()
	})
}

// Each capability flag sets its own bit and nothing else, as in hostapd:
// a short guard interval is on only where listed.
func TestCapabFlags(t *testing.T) {
	for _, c := range []struct {
		line string
		want PHY
	}{
		{"ht_capab=[HT40+]", PHY{HT40: "+"}},
		{"ht_capab=[HT40-][SHORT-GI-20]", PHY{HT40: "-", SGI20: true}},
		{"ht_capab=[SHORT-GI-40][LDPC]", PHY{SGI40: true, LDPC: true}},
		{"vht_capab=[SHORT-GI-80]", PHY{SGI80: true}},
		{"vht_capab=[SHORT-GI-160][RXLDPC]", PHY{SGI160: true, LDPC: true}},
		{"vht_capab=[MAX-MPDU-7991]", PHY{MaxMPDU: 7991}},
		{"vht_capab=[MAX-MPDU-11454][SHORT-GI-80]", PHY{MaxMPDU: 11454, SGI80: true}},
		{"vht_capab=[MAX-MPDU-11454][MAX-MPDU-7991]", PHY{MaxMPDU: 11454}},
	} {
		s, err := load(t, writeConf(t, c.line+"\n"), nil)
		if err != nil || s.PHY != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.line, s.PHY, err, c.want)
		}
	}
}

// ieee80211d=1 advertises the country and needs one, from the file or the
// command line; 0 (hostapd's default) does not advertise it.
func TestIEEE80211D(t *testing.T) {
	for _, c := range []struct {
		text  string
		flags map[string]bool
		want  bool
	}{
		{"country_code=DE\nieee80211d=1\n", nil, true},
		{"country_code=DE\nieee80211d=0\n", nil, false},
		{"country_code=DE\n", nil, false},
		{"ieee80211d=1\ncountry_code=DE\n", nil, true}, // the whole file counts
	} {
		s, err := load(t, writeConf(t, c.text), c.flags)
		if err != nil || s.IEEE80211D != c.want || s.Country != "DE" {
			t.Errorf("%q: ieee80211d %v country %q, %v; want %v", c.text, s.IEEE80211D, s.Country, err, c.want)
		}
	}
	// The country may come from -country, which is applied before the file.
	s := defaults()
	s.Country = "FR"
	f, ps := Parse("x.conf", []byte("ieee80211d=1\ncountry_code=DE\n"))
	ps = append(ps, f.Apply(&s, map[string]bool{"country": true})...)
	if err := ps.Err(); err != nil || !s.IEEE80211D || s.Country != "FR" {
		t.Errorf("-country FR over the file: %v %q %v", s.IEEE80211D, s.Country, err)
	}
}
