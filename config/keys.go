package config

import (
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"time"

	"github.com/airq/airq/aql"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/tap"
)

// Key describes one key the file accepts.
type Key struct {
	// Flags are the command-line flags that override the key; none if it
	// has no flag.
	Flags []string
	// Reload says SIGHUP applies a change live; other changes need a
	// restart.
	Reload bool
	// Want says what the key accepts, for errors.
	Want string
	set  func(s *Settings, v string) error
}

// keys are the keys airqd accepts, hostapd's first. Each setter checks the
// value and stores it; an error other than a saysWhy makes the message
// name Want.
var keys = merge(baseKeys, wmmKeys(), phyKeys, rsnKeys, saeKeys, pmfKeys, compatKeys, ctrlKeys, airtimeKeys, sectionKeys)

var baseKeys = map[string]Key{
	"bridge": {Flags: flag("bridge"), Want: "a bridge name of at most 15 characters, without blanks",
		set: func(s *Settings, v string) error {
			s.Bridge = v
			if v == "" {
				return nil
			}
			return ifnameOK(v)
		}},
	"tap_offload": {Flags: flag("tap-offload"), Want: "gro (merged writes to the host), tso (also cut the host's 64 KiB sends; the default at a nice value below 0) or off",
		set: func(s *Settings, v string) (err error) {
			s.TapOffload, err = tap.ParseOffload(v)
			return err
		}},
	"nice": {Flags: flag("nice"), Want: "-20 to 19 (the nice value of airqd's threads; default -10)",
		set: func(s *Settings, v string) error { return setInt(&s.Nice, v, -20, 19) }},
	"memory_limit": {Flags: flag("memory-limit"), Want: "0 (the default: 1.5 times the most the core can hold) or 32 to 65536 MiB, the Go runtime's soft memory limit",
		set: func(s *Settings, v string) error {
			if trimBlanks(v) == "0" {
				s.MemoryLimitMB = 0
				return nil
			}
			return setInt(&s.MemoryLimitMB, v, 32, 65536)
		}},
	"ssid": {Flags: flag("ssid"), Want: "1 to 32 bytes, taken as written (blanks included)",
		set: func(s *Settings, v string) error { s.Core.SSID = v; return lenOK(v, 1, 32) }},
	"ssid2": {Flags: flag("ssid"), Want: `1 to 32 bytes as "text" in quotes, P"text" with \n-style escapes, or hex digits`,
		set: func(s *Settings, v string) (err error) {
			s.Core.SSID, err = parseSSID2(v)
			return err
		}},
	"ignore_broadcast_ssid": {Want: "0 (broadcast the SSID) or 1 (empty SSID in beacons)",
		set: func(s *Settings, v string) error {
			if trimBlanks(v) == "2" {
				return saysWhy{fmt.Errorf("2 (the SSID zeroed, its length kept) is not supported; want 0 or 1 (empty SSID in beacons)")}
			}
			return setBool(&s.Core.HideSSID, v)
		}},
	"country_code": {Flags: flag("country"), Want: "a two-letter ISO 3166 code such as US or DE",
		set: func(s *Settings, v string) error { s.Country = v; return countryOK(v) }},
	"hw_mode": {Want: "a (5 GHz), b or g (2.4 GHz)",
		set: func(s *Settings, v string) error { s.HWMode = v; return oneOf(v, "a", "b", "g") }},
	"channel": {Flags: flag("channel", "freq"), Want: "a channel number: 1-14, or 36-177 on 5 GHz; 0 or acs_survey for automatic selection (acs_* keys)",
		set: func(s *Settings, v string) error {
			if v == "acs_survey" {
				v = "0"
			}
			return setInt(&s.Channel, v, 0, 196)
		}},
	"beacon_int": {Flags: flag("beacon-int"), Want: "15 to 65535 TU",
		set: func(s *Settings, v string) error { return setInt(&s.Core.BeaconInterval, v, 15, 65535) }},
	"dtim_period": {Flags: flag("dtim"), Want: "1 to 255 beacons",
		set: func(s *Settings, v string) error { return setInt(&s.Core.DTIMPeriod, v, 1, 255) }},
	"wmm_enabled": {Flags: flag("wmm"), Want: "0 or 1",
		set: func(s *Settings, v string) error { return setBool(&s.Core.WMM, v) }},
	"wme_enabled": {Flags: flag("wmm"), Want: "0 or 1 (hostapd's older name of wmm_enabled)",
		set: func(s *Settings, v string) error { return setBool(&s.Core.WMM, v) }},
	"max_num_sta": {Flags: flag("max-sta"), Want: "1 to 2007",
		set: func(s *Settings, v string) error { return setInt(&s.Core.MaxStations, v, 1, 2007) }},
	"ap_isolate": {Want: "0 or 1",
		set: func(s *Settings, v string) error { return setBool(&s.Core.APIsolate, v) }},
	"multicast_to_unicast": {Want: "0 or 1",
		set: func(s *Settings, v string) error { return setBool(&s.Core.MulticastToUnicast, v) }},
	"ap_max_inactivity": {Want: "1 to 86400 seconds",
		set: func(s *Settings, v string) error {
			var n int
			err := setInt(&n, v, 1, 86400)
			s.Core.InactivityTimeout = time.Duration(n) * time.Second
			return err
		}},
	"auth_algs": {Want: "1 (open system; 3 is accepted and means the same: shared key is never offered)",
		set: func(s *Settings, v string) error {
			var n int
			if err := setInt(&n, v, 1, 3); err != nil {
				return err
			}
			if n == 2 {
				return saysWhy{fmt.Errorf("2 (shared key only) is not supported: shared key authentication needs WEP; want 1 (open system) or 3")}
			}
			return nil
		}},
	"macaddr_acl": {Reload: true, Want: "0 (accept unless in deny_mac_file) or 1 (deny unless in accept_mac_file)",
		set: setACLMode},
	"accept_mac_file": {Reload: true, Want: "a file of MAC addresses, one a line (see configs/airqd.conf); lines add to the list",
		set: func(s *Settings, v string) error { return readMACFile(&s.Core.ACL.Accept, v) }},
	"deny_mac_file": {Reload: true, Want: "a file of MAC addresses, one a line (see configs/airqd.conf); lines add to the list",
		set: func(s *Settings, v string) error { return readMACFile(&s.Core.ACL.Deny, v) }},
	"supported_rates": {Want: "rates in 100 kbit/s separated by spaces, from 10 20 55 110 60 90 120 180 240 360 480 540",
		set: func(s *Settings, v string) error { return setRates(&s.Core.Rates, v) }},
	"basic_rates": {Want: "rates in 100 kbit/s separated by spaces, a subset of supported_rates",
		set: func(s *Settings, v string) error { return setRates(&s.Core.BasicRates, v) }},
	"beacon_rate": {Want: "a legacy rate in 100 kbit/s (10 20 55 110 60 90 120 180 240 360 480 540), one of basic_rates",
		set: func(s *Settings, v string) error {
			var r []int
			if err := setRates(&r, v); err != nil || len(r) != 1 {
				return errWant
			}
			s.Core.BeaconRate = r[0]
			return nil
		}},
	"acs_exclude_dfs": {Flags: flag("acs-exclude-dfs"), Want: "0 or 1",
		set: func(s *Settings, v string) error { return setBool(&s.ACS.ExcludeDFS, v) }},
	"acs_num_scans": {Flags: flag("acs-num-scans"), Want: "1 to 100",
		set: func(s *Settings, v string) error { return setInt(&s.ACS.NumScans, v, 1, 100) }},
	"acs_chan_bias": {Flags: flag("acs-chan-bias"), Want: "channel:factor pairs such as 1:0.8 6:0.8 11:0.8",
		set: func(s *Settings, v string) error {
			s.ACS.Bias = v
			_, _, err := ParseChanBias(v)
			return err
		}},
	// airq's own.
	"amsdu": {Flags: flag("amsdu"), Want: "0 (off) or 3839 to 11424 octets",
		set: func(s *Settings, v string) error { return setInt(&s.PHY.AMSDU, v, 0, 11424) }},
	"scan": {Flags: flag("scan"), Want: "0 or 1", set: func(s *Settings, v string) error { return setBool(&s.Scan.On, v) }},
	"scan_mode": {Flags: flag("scan-mode"), Want: "continuous or periodic",
		set: func(s *Settings, v string) error { s.Scan.Mode = v; return oneOf(v, "continuous", "periodic") }},
	"scan_period": {Flags: flag("scan-period"), Want: "a duration such as 60s",
		set: func(s *Settings, v string) error {
			d, err := time.ParseDuration(v)
			s.Scan.Period = d
			return err
		}},
	"scan_miss_beacon": {Flags: flag("scan-miss-beacon"), Want: "0 or 1",
		set: func(s *Settings, v string) error { return setBool(&s.Scan.MissBeacon, v) }},
	"scan_budget": {Flags: flag("scan-budget"), Want: "30ms to 1s (the longest trip; default 125ms, mac80211's)",
		set: func(s *Settings, v string) error {
			return setDuration(&s.Scan.Budget, v, 30*time.Millisecond, time.Second)
		}},
	"scan_guard": {Flags: flag("scan-guard"), Want: "1ms to 50ms (kept before the next beacon; default 3ms)",
		set: func(s *Settings, v string) error {
			return setDuration(&s.Scan.Guard, v, time.Millisecond, 50*time.Millisecond)
		}},
	"scan_max_defers": {Flags: flag("scan-max-defers"), Want: "0 to 100 beacons a due trip may wait while the core is busy (0: never waits; default 5)",
		set: func(s *Settings, v string) error { return setInt(&s.Scan.MaxDefers, v, 0, 100) }},
	"scan_max_defer_time": {Flags: flag("scan-max-defer-time"), Want: "10ms to 60s a due trip may wait while the core is busy (default 1s)",
		set: func(s *Settings, v string) error {
			return setDuration(&s.Scan.MaxDeferTime, v, 10*time.Millisecond, time.Minute)
		}},
	"sim_stations": {Flags: flag("sim-stations"), Want: "0 to 64 simulated stations with radio=sim, each with a bulk download and a ping (without sim_scenario)",
		set: func(s *Settings, v string) error { return setInt(&s.Sim.Stations, v, 0, 64) }},
	"sim_join": {Flags: flag("sim-join"), Want: "0s to 1h between simulated stations joining",
		set: func(s *Settings, v string) error { return setDuration(&s.Sim.Join, v, 0, time.Hour) }},
	"sim_scenario": {Flags: flag("sim-scenario"), Want: "a scenario file (one station a line, see README) or a built-in scenario's name",
		set: func(s *Settings, v string) error { s.Sim.Scenario = v; return lenOK(v, 1, 4096) }},
	"sim_retune": {Flags: flag("sim-retune"), Want: "100us to 20ms, the simulated radio's channel change time (default 2ms)",
		set: func(s *Settings, v string) error {
			return setDuration(&s.Sim.Retune, v, 100*time.Microsecond, 20*time.Millisecond)
		}},
	"sim_retune_jitter": {Flags: flag("sim-retune-jitter"), Want: "0s to 20ms added to each simulated retune, uniformly drawn below it",
		set: func(s *Settings, v string) error { return setDuration(&s.Sim.RetuneJitter, v, 0, 20*time.Millisecond) }},
	"aql_txq_limit": {Flags: flag("aql-txq-limit"), Reload: true, Want: "AC=LOW:HIGH in µs, e.g. BE=500:1000,VO=5000:12000 (lines merge)",
		set: func(s *Settings, v string) error {
			err := s.Core.AQL.Set(v)
			if errors.Is(err, aql.ErrLowAboveHigh) { // the reason, not the syntax
				return saysWhy{fmt.Errorf("%q: %w", v, err)}
			}
			return err
		}},
	"aql_threshold": {Flags: flag("aql-threshold"), Reload: true, Want: "1 to 2147483648 µs",
		set: func(s *Settings, v string) error { return setUint(&s.AQLThreshold, v, 1, 1<<31) }},
	"airtime_weight": {Flags: flag("airtime-weight"), Reload: true, Want: "1 to 65535 (the default weight of a new station)",
		set: func(s *Settings, v string) error { return setUint(&s.AirtimeWeight, v, 1, 65535) }},
	"inflight_per_ac": {Flags: flag("inflight-per-ac"), Want: "1 to 1024 frames",
		set: func(s *Settings, v string) error { return setInt(&s.Core.InFlightPerAC, v, 1, 1024) }},
	"log_level": {Flags: flag("log-level"), Reload: true, Want: "debug, info, warn or error",
		set: func(s *Settings, v string) error {
			s.LogLevel = v
			var l slog.Level
			if l.UnmarshalText([]byte(v)) != nil {
				return errWant
			}
			return nil
		}},
	"control": {Flags: flag("control"), Want: "a unix socket path of at most 107 bytes, or empty for none",
		set: func(s *Settings, v string) error { s.Control = v; return lenOK(v, 0, 107) }},
	"metrics": {Flags: flag("metrics"), Want: "a listen address such as 127.0.0.1:9101, or empty for none",
		set: func(s *Settings, v string) error { s.Metrics = v; return nil }},
	"pcap": {Flags: flag("pcap"), Want: "a file path, or empty for none",
		set: func(s *Settings, v string) error { s.Pcap = v; return nil }},
	"radio": {Flags: flag("radio"), Want: "nl80211 or sim",
		set: func(s *Settings, v string) error { s.Radio = v; return oneOf(v, "nl80211", "sim") }},
	"phy": {Flags: flag("phy"), Want: "a wiphy name such as phy0",
		set: func(s *Settings, v string) error { s.Phy = v; return lenOK(v, 1, 31) }},
	"tap": {Flags: flag("tap"), Want: "an interface name of 1 to 15 characters",
		set: func(s *Settings, v string) error { s.Tap = v; return ifnameOK(v) }},
	"bssid": {Flags: flag("bssid"), Want: "a unicast MAC address like 02:00:00:00:02:00",
		set: func(s *Settings, v string) error {
			s.BSSID = v
			mac, err := ieee80211.ParseMAC(v)
			if err != nil || mac.IsMulticast() || mac.IsZero() {
				return errWant
			}
			return nil
		}},
}

// phyKeys are the HT/VHT keys.
var phyKeys = map[string]Key{
	"ieee80211n": {Flags: flag("ht"), Want: "0 or 1", set: func(s *Settings, v string) error { return setBool(&s.PHY.HT, v) }},
	"ieee80211ac": {Flags: flag("vht"), Want: "0 or 1 (5 GHz)",
		set: func(s *Settings, v string) error { return setBool(&s.PHY.VHT, v) }},
	"ht_capab": {Want: htCapabWant,
		set: func(s *Settings, v string) error { return parseHTCapab(&s.PHY, v) }},
	"vht_capab": {Want: vhtCapabWant,
		set: func(s *Settings, v string) error { return parseVHTCapab(&s.PHY, v) }},
	"vht_oper_chwidth": {Flags: flag("width"), Want: "0 (20 or 40 MHz), 1 (80 MHz) or 2 (160 MHz)",
		set: func(s *Settings, v string) error {
			var w int
			if err := setInt(&w, v, 0, 2); err != nil {
				return err
			}
			s.PHY.Width = [3]int{0, 80, 160}[w]
			return nil
		}},
	"vht_oper_centr_freq_seg0_idx": {Want: "the centre channel of the 80/160 MHz channel (42, 58, 106, 122, 138, 155 or 50, 114, 163)",
		set: func(s *Settings, v string) error { return setInt(&s.PHY.Center, v, 0, 196) }},
	"ieee80211d": {Flags: flag("ieee80211d"), Want: "0 or 1 (1: advertise country_code in beacons, the Country element)",
		set: func(s *Settings, v string) error { return setBool(&s.IEEE80211D, v) }},

	"disable_11n": {Want: "0 or 1 (1: the BSS advertises and uses no HT nor VHT, whatever ieee80211n and ieee80211ac say, unless -ht or -vht is given; the radio's channel stays theirs)",
		set: func(s *Settings, v string) error { return setBool(&s.Core.NoHT, v) }},
	"disable_11ac": {Want: "0 or 1 (1: the BSS advertises and uses no VHT, whatever ieee80211ac says, unless -vht is given; the radio's channel stays its)",
		set: func(s *Settings, v string) error { return setBool(&s.Core.NoVHT, v) }},
}

// merge joins tables of keys that name each key once.
func merge(tables ...map[string]Key) map[string]Key {
	m := map[string]Key{}
	for _, t := range tables {
		maps.Copy(m, t)
	}
	return m
}

// flag lists a key's flags.
func flag(names ...string) []string { return names }

// Lookup returns the key called name.
func Lookup(name string) (Key, bool) {
	k, ok := keys[name]
	return k, ok
}

// Names lists the accepted keys in order.
func Names() []string { return slices.Sorted(maps.Keys(keys)) }

// Reloadable lists the keys SIGHUP applies, in order.
func Reloadable() []string {
	var out []string
	for _, name := range Names() {
		if keys[name].Reload {
			out = append(out, name)
		}
	}
	return out
}

// OverriddenBy returns the flag of flagSet (the flags given) that overrides
// the key, "" if none does.
func (k Key) OverriddenBy(flagSet map[string]bool) string {
	for _, f := range k.Flags {
		if flagSet[f] {
			return f
		}
	}
	return ""
}
