package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/shell"
	"github.com/airq/airq/tap"
)

// The configuration file is a subset of hostapd.conf plus airq's own keys:
// one key=value per line, '#' starts a comment line, later lines override
// earlier ones (aql_txq_limit lines merge, like the flag). A flag given on
// the command line overrides the file's key. An unknown key, a bad value
// and a hostapd key airq does not implement yet are errors naming the
// file, the line and the key.

// confLine is one key=value line of the file.
type confLine struct {
	key, value string
	line       int
}

// confFile is a parsed configuration file.
type confFile struct {
	path  string
	lines []confLine
}

// confKey describes one key the file accepts.
type confKey struct {
	flag   string // the flag that overrides it; "" if none
	reload bool   // SIGHUP applies a change live
	want   string // the accepted values, for errors
	set    func(o *options, v string) error
}

// confKeys are the keys airqd accepts, hostapd's first.
var confKeys = map[string]confKey{
	"interface": {flag: "ifname", want: "an interface name of 1 to 15 characters (the monitor interface airqd creates)",
		set: func(o *options, v string) error { o.ifname = v; return ifnameOK(v) }},
	"driver": {want: "nl80211", set: func(o *options, v string) error { return oneOf(v, "nl80211") }},
	"bridge": {flag: "bridge", want: "a bridge name of at most 15 characters",
		set: func(o *options, v string) error { o.radioOpt.bridge = v; return lenOK(v, 0, 15) }},
	"tap_offload": {flag: "tap-offload", want: "gro (the default: merged writes to the host), tso (also cut the host's 64 KiB sends) or off",
		set: func(o *options, v string) (err error) {
			o.radioOpt.tapOffload, err = tap.ParseOffload(v)
			return err
		}},
	"nice": {flag: "nice", want: "-20 to 19 (the nice value of airqd's threads; default -10)",
		set: func(o *options, v string) error { return setInt(&o.radioOpt.nice, v, -20, 19) }},
	"ssid": {flag: "ssid", want: "1 to 32 bytes",
		set: func(o *options, v string) error { o.ssid = v; return lenOK(v, 1, 32) }},
	"ignore_broadcast_ssid": {want: "0 (broadcast the SSID) or 1 (empty SSID in beacons)",
		set: func(o *options, v string) error { return setBool(&o.core.HideSSID, v) }},
	"country_code": {flag: "country", want: "a two-letter ISO 3166 code such as US or DE",
		set: func(o *options, v string) error {
			o.radioOpt.country = v
			if len(v) != 2 || v[0] < 'A' || v[0] > 'Z' || v[1] < 'A' || v[1] > 'Z' {
				return errWant
			}
			return nil
		}},
	"hw_mode": {want: "a (5 GHz), b or g (2.4 GHz)",
		set: func(o *options, v string) error { o.hwMode = v; return oneOf(v, "a", "b", "g") }},
	"channel": {flag: "channel", want: "a channel number: 1-14, or 36-177 on 5 GHz; 0 or acs_survey for automatic selection (acs.go)",
		set: func(o *options, v string) error {
			if v == "acs_survey" {
				v = "0"
			}
			return setInt(&o.channel, v, 0, 196)
		}},
	"beacon_int": {flag: "beacon-int", want: "15 to 65535 TU",
		set: func(o *options, v string) error { return setInt(&o.core.BeaconInterval, v, 15, 65535) }},
	"dtim_period": {flag: "dtim", want: "1 to 255 beacons",
		set: func(o *options, v string) error { return setInt(&o.core.DTIMPeriod, v, 1, 255) }},
	"wmm_enabled": {flag: "wmm", want: "0 or 1",
		set: func(o *options, v string) error { return setBool(&o.wmm, v) }},
	"max_num_sta": {flag: "max-sta", want: "1 to 2007",
		set: func(o *options, v string) error { return setInt(&o.core.MaxStations, v, 1, 2007) }},
	"ap_isolate": {want: "0 or 1",
		set: func(o *options, v string) error { return setBool(&o.core.APIsolate, v) }},
	"multicast_to_unicast": {want: "0 or 1",
		set: func(o *options, v string) error { return setBool(&o.core.MulticastToUnicast, v) }},
	"ap_max_inactivity": {want: "1 to 86400 seconds",
		set: func(o *options, v string) error {
			var s int
			err := setInt(&s, v, 1, 86400)
			o.core.InactivityTimeout = time.Duration(s) * time.Second
			return err
		}},
	"auth_algs": {want: "1 (open system; 3 is accepted and means the same: shared key is never offered)",
		set: func(o *options, v string) error { return oneOf(v, "1", "3") }},
	"macaddr_acl": {reload: true, want: "0 (accept unless in deny_mac_file) or 1 (deny unless in accept_mac_file)",
		set: setACLMode},
	"accept_mac_file": {reload: true, want: "a file of MAC addresses, one a line (acl.go); lines add to the list",
		set: func(o *options, v string) error { return readMACFile(&o.acl.accept, v) }},
	"deny_mac_file": {reload: true, want: "a file of MAC addresses, one a line (acl.go); lines add to the list",
		set: func(o *options, v string) error { return readMACFile(&o.acl.deny, v) }},
	"supported_rates": {want: "rates in 100 kbit/s separated by spaces, from 10 20 55 110 60 90 120 180 240 360 480 540",
		set: func(o *options, v string) error { return setRates(&o.core.Rates, v) }},
	"basic_rates": {want: "rates in 100 kbit/s separated by spaces, a subset of supported_rates",
		set: func(o *options, v string) error { return setRates(&o.core.BasicRates, v) }},
	"beacon_rate": {want: "a legacy rate in 100 kbit/s (10 20 55 110 60 90 120 180 240 360 480 540), one of basic_rates",
		set: func(o *options, v string) error {
			var r []int
			if err := setRates(&r, v); err != nil || len(r) != 1 {
				return errWant
			}
			o.core.BeaconRate = r[0]
			return nil
		}},

	// airq's own.
	"aql_txq_limit": {flag: "aql-txq-limit", reload: true, want: "AC=LOW:HIGH in µs, e.g. BE=500:1000,VO=5000:12000 (lines merge)",
		set: func(o *options, v string) error { return o.core.AQL.Set(v) }},
	"aql_threshold": {flag: "aql-threshold", reload: true, want: "1 to 2147483648 µs",
		set: func(o *options, v string) error { return setUint(&o.aqlThreshold, v, 1, 1<<31) }},
	"airtime_weight": {flag: "airtime-weight", reload: true, want: "1 to 65535 (the default weight of a new station)",
		set: func(o *options, v string) error { return setUint(&o.airtimeWeight, v, 1, 65535) }},
	"inflight_per_ac": {flag: "inflight-per-ac", want: "1 to 1024 frames",
		set: func(o *options, v string) error { return setInt(&o.inflight, v, 1, 1024) }},
	"log_level": {flag: "log-level", reload: true, want: "debug, info, warn or error",
		set: func(o *options, v string) error {
			o.level = v
			var l slog.Level
			if l.UnmarshalText([]byte(v)) != nil {
				return errWant
			}
			return nil
		}},
	"control": {flag: "control", want: "a unix socket path of at most 107 bytes, or empty for none",
		set: func(o *options, v string) error { o.control = v; return lenOK(v, 0, 107) }},
	"metrics": {flag: "metrics", want: "a listen address such as 127.0.0.1:9101, or empty for none",
		set: func(o *options, v string) error { o.metrics = v; return nil }},
	"pcap": {flag: "pcap", want: "a file path, or empty for none",
		set: func(o *options, v string) error { o.pcap = v; return nil }},
	"radio": {flag: "radio", want: "nl80211 or sim",
		set: func(o *options, v string) error { o.radio = v; return oneOf(v, "nl80211", "sim") }},
	"phy": {flag: "phy", want: "a wiphy name such as phy0",
		set: func(o *options, v string) error { o.phy = v; return lenOK(v, 1, 31) }},
	"tap": {flag: "tap", want: "an interface name of 1 to 15 characters",
		set: func(o *options, v string) error { o.tap = v; return ifnameOK(v) }},
	"bssid": {flag: "bssid", want: "a unicast MAC address like 02:00:00:00:02:00",
		set: func(o *options, v string) error {
			o.bssid = v
			mac, err := ieee80211.ParseMAC(v)
			if err != nil || mac.IsMulticast() || mac.IsZero() {
				return errWant
			}
			return nil
		}},
}

// notYet are hostapd keys airq knows and does not implement yet, with what
// to say about them. They are errors: running open where WPA2 was asked
// for, say, must not happen silently.
var notYet = map[string]string{
	"wpa": "WPA/WPA2", "wpa_passphrase": "WPA/WPA2", "wpa_psk": "WPA/WPA2", "wpa_psk_file": "WPA/WPA2",
	"wpa_key_mgmt": "WPA/WPA2", "wpa_pairwise": "WPA/WPA2", "rsn_pairwise": "WPA/WPA2", "wpa_group_rekey": "WPA/WPA2",
	"sae_password": "WPA3-SAE", "ieee80211w": "management frame protection (802.11w)",
	"ieee80211r": "fast transition (802.11r)", "mobility_domain": "fast transition (802.11r)",
	"ft_over_ds": "fast transition (802.11r)", "ieee8021x": "802.1X", "eap_server": "802.1X",
	"auth_server_addr": "RADIUS", "own_ip_addr": "RADIUS",
	"wep_key0": "WEP", "wep_key1": "WEP", "wep_key2": "WEP", "wep_key3": "WEP", "wep_default_key": "WEP",
	"ieee80211n": "HT (802.11n)", "ht_capab": "HT (802.11n)", "ieee80211ac": "VHT (802.11ac)",
	"vht_capab": "VHT (802.11ac)", "vht_oper_chwidth": "VHT (802.11ac)",
	"vht_oper_centr_freq_seg0_idx": "VHT (802.11ac)", "ieee80211ax": "HE (802.11ax)",
	"ieee80211d": "the Country element (802.11d)", "ieee80211h": "DFS (802.11h)",
	"ssid2": "ssid2 (use ssid)", "utf8_ssid": "utf8_ssid",
	"ctrl_interface": "hostapd's control interface (airqctl uses control=PATH)", "ctrl_interface_group": "hostapd's control interface",
	"logger_syslog": "logger_* (use log_level)", "logger_syslog_level": "logger_* (use log_level)",
	"logger_stdout": "logger_* (use log_level)", "logger_stdout_level": "logger_* (use log_level)",
	"rts_threshold": "rts_threshold", "fragm_threshold": "fragm_threshold", "preamble": "preamble",
	"uapsd_advertisement_enabled": "U-APSD", "disassoc_low_ack": "disassoc_low_ack",
	"bss_transition": "BSS transition (802.11v)", "rrm_neighbor_report": "neighbour reports (802.11k)",
	"airtime_mode":       "airtime_mode (airq always schedules by airtime; see airtime_weight)",
	"airtime_sta_weight": "airtime_sta_weight (use airqctl station set MAC airtime_weight N)",
}

var errWant = fmt.Errorf("invalid")

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

// parseConfig parses a file's text and checks every value; apply then sets
// the options. Errors are "path:line: key: ...".
func parseConfig(path string, data []byte) (*confFile, error) {
	c := &confFile{path: path}
	var scratch options
	for n, raw := range bytes.Split(data, []byte{'\n'}) {
		line := strings.TrimSuffix(string(raw), "\r")
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed == "" || trimmed[0] == '#' {
			continue
		}
		key, value, ok := strings.Cut(trimmed, "=")
		key = strings.TrimRight(key, " \t")
		if !ok || key == "" {
			return nil, fmt.Errorf("%s:%d: %q is not key=value", path, n+1, clip(trimmed))
		}
		if key != "ssid" { // an SSID may begin or end with blanks, as in hostapd
			value = strings.TrimSpace(value)
		}
		l := confLine{key: key, value: value, line: n + 1}
		if err := c.check(&scratch, l); err != nil {
			return nil, err
		}
		c.lines = append(c.lines, l)
	}
	return c, nil
}

func (c *confFile) check(o *options, l confLine) error {
	if what, ok := notYet[l.key]; ok {
		return fmt.Errorf("%s:%d: %s: not supported yet (%s); remove the line to run without it", c.path, l.line, l.key, what)
	}
	k, ok := confKeys[l.key]
	if !ok {
		return fmt.Errorf("%s:%d: unknown key %q; accepted keys: %s", c.path, l.line, clip(l.key),
			strings.Join(slices.Sorted(maps.Keys(confKeys)), " "))
	}
	if err := k.set(o, l.value); err != nil {
		if se, ok := err.(saysWhy); ok { // the setter says what is wrong: a file's line, say
			return fmt.Errorf("%s:%d: %s: %w", c.path, l.line, l.key, se.error)
		}
		return fmt.Errorf("%s:%d: %s: %q: want %s", c.path, l.line, l.key, clip(l.value), k.want)
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

// readConfig reads and parses the file at path.
func readConfig(path string) (*confFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-config: %w", err)
	}
	return parseConfig(path, b)
}

// apply sets o from the file, except the keys whose flag was given, then
// checks what only the whole file shows.
func (c *confFile) apply(o *options, flagSet map[string]bool) error {
	last := map[string]confLine{}
	for _, l := range c.lines {
		k := confKeys[l.key]
		if k.flag != "" && flagSet[k.flag] || l.key == "channel" && flagSet["freq"] {
			continue
		}
		if err := c.check(o, l); err != nil {
			return err
		}
		last[l.key] = l
	}
	where := func(key string) string { return fmt.Sprintf("%s:%d: %s", c.path, last[key].line, key) }
	if l, ok := last["hw_mode"]; ok {
		five := o.channel >= 36
		if o.channel != 0 && (l.value == "a") != five { // 0: ACS picks in hw_mode's band
			return fmt.Errorf("%s: %q does not match channel %d (a is 5 GHz, b and g are 2.4 GHz)", where("hw_mode"), l.value, o.channel)
		}
		if l.value == "b" && o.core.Rates == nil {
			o.core.Rates, o.core.BasicRates = []int{1000, 2000, 5500, 11000}, []int{1000, 2000}
		}
	}
	_, hasRates := last["supported_rates"]
	_, hasBasic := last["basic_rates"]
	switch {
	case hasRates && !hasBasic:
		return fmt.Errorf("%s: basic_rates is needed with supported_rates", where("supported_rates"))
	case hasBasic && !hasRates:
		return fmt.Errorf("%s: supported_rates is needed with basic_rates", where("basic_rates"))
	case hasBasic:
		for _, r := range o.core.BasicRates {
			if !slices.Contains(o.core.Rates, r) {
				return fmt.Errorf("%s: %d is not in supported_rates", where("basic_rates"), r/100)
			}
		}
	}
	if _, ok := last["beacon_rate"]; ok && o.core.BasicRates != nil && !slices.Contains(o.core.BasicRates, o.core.BeaconRate) {
		return fmt.Errorf("%s: %d is not one of basic_rates", where("beacon_rate"), o.core.BeaconRate/100)
	}
	return nil
}

// values is the file's effective value of each key (aql_txq_limit lines
// joined), for telling which keys a reload changes.
func (c *confFile) values() map[string]string {
	m := map[string]string{}
	for _, l := range c.lines {
		if l.key == "aql_txq_limit" && m[l.key] != "" {
			m[l.key] += "," + l.value
			continue
		}
		m[l.key] = l.value
	}
	return m
}

// reloader applies a changed configuration file to the running daemon on
// SIGHUP: the keys marked reload go to the core through the control path,
// the log level to the handler; any other changed key is logged as needing
// a restart.
type reloader struct {
	args  []string // the command line, re-parsed with the new file
	cur   options
	srv   *shell.ControlServer
	level *slog.LevelVar
	log   *slog.Logger
}

// reload re-reads the file. A file that no longer parses changes nothing.
func (r *reloader) reload(ctx context.Context) error {
	if r.cur.configPath == "" {
		r.log.Info("SIGHUP: no -config file to reload")
		return nil
	}
	next, err := parseFlags(r.args)
	if err != nil {
		r.log.Error("reload: configuration refused; keeping the running one", "err", err)
		return err
	}
	oldV, newV := r.cur.conf.values(), next.conf.values()
	for _, key := range slices.Sorted(maps.Keys(confKeys)) {
		if oldV[key] == newV[key] {
			continue
		}
		k := confKeys[key]
		switch {
		case k.flag != "" && next.flagSet[k.flag]:
			r.log.Info("reload: key changed in the file but set by a flag, which wins", "key", key, "flag", "-"+k.flag)
		case key == "channel" && next.flagSet["freq"]:
			r.log.Info("reload: key changed in the file but set by a flag, which wins", "key", key, "flag", "-freq")
		case !k.reload:
			r.log.Warn("reload: key changed; restart airqd to apply it", "key", key, "old", oldV[key], "new", newV[key])
		}
	}
	var errs []error
	ol, nl := r.cur.core.AQL, next.core.AQL
	for ac := range ieee80211.AC(ieee80211.NumACs) {
		if ol.Low[ac] == nl.Low[ac] && ol.High[ac] == nl.High[ac] {
			continue
		}
		// A zero limit in the file is meant: the file takes it at start too.
		req := ctl.Request{Op: ctl.OpAQLSet, AC: ac, Low: nl.Low[ac], High: nl.High[ac], Force: true}
		if _, err := r.srv.Call(ctx, req); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", req, err))
			nl.Low[ac], nl.High[ac] = ol.Low[ac], ol.High[ac]
			continue
		}
		r.log.Info("reload: applied", "aql_txq_limit", fmt.Sprintf("%s=%d:%d", ac, nl.Low[ac], nl.High[ac]))
	}
	if ol.Threshold != nl.Threshold {
		req := ctl.Request{Op: ctl.OpAQLThreshold, Threshold: nl.Threshold}
		if _, err := r.srv.Call(ctx, req); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", req, err))
			nl.Threshold = ol.Threshold
		} else {
			r.log.Info("reload: applied", "aql_threshold", nl.Threshold)
		}
	}
	if next.logLevel != r.cur.logLevel {
		r.level.Set(next.logLevel)
		r.log.Info("reload: applied", "log_level", next.logLevel.String())
	}
	if err := r.reloadACL(ctx, &next); err != nil {
		errs = append(errs, err)
	}
	// What was not applied stays as it runs, so the next reload compares
	// against the running state.
	applied := r.cur
	applied.core.AQL = nl
	applied.logLevel = next.logLevel
	applied.conf = next.conf
	r.cur = applied
	if len(errs) > 0 {
		err := fmt.Errorf("reload: %v", errs)
		r.log.Error("reload: not applied", "err", err)
		return err
	}
	return nil
}

// reloadable lists the keys SIGHUP applies, for the usage text.
func reloadable() string {
	var keys []string
	for k, v := range confKeys {
		if v.reload {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return strings.Join(keys, ", ")
}
