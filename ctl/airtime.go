package ctl

import (
	"fmt"
	"strconv"
	"strings"
)

// Airtime is the radio's airtime policy (hostapd's airtime_mode and
// airtime_update_interval), each of its BSSes' keys and airtime, and each
// associated station's weight and backlog: airqctl airtime.
type Airtime struct {
	Mode int `json:"airtime_mode"` // 0 off, 1 static, 2 dynamic, 3 limit
	// ModeName is the mode in words.
	ModeName string `json:"mode"`
	// UpdateIntervalMs is airtime_update_interval in force (modes 2, 3).
	UpdateIntervalMs int64            `json:"airtime_update_interval_ms"`
	BSSes            []AirtimeBSS     `json:"bsses"`
	Stations         []AirtimeStation `json:"stations"`
}

// AirtimeBSS is one BSS's airtime keys and use.
type AirtimeBSS struct {
	Index int `json:"index"` // the radio's BSS number, its scheduler group
	// Name is the BSS's name (its bss= section's), which airtime set bss
	// takes as it takes the index.
	Name   string `json:"name"`
	BSSID  MAC    `json:"bssid"`
	Weight int    `json:"airtime_bss_weight"`
	Limit  bool   `json:"airtime_bss_limit"`
	// CapPercent is airtime_bss_cap (100: no cap); CapCreditUs the cap's
	// budget now in µs of airtime, negative while over it.
	CapPercent  int   `json:"airtime_bss_cap"`
	CapCreditUs int64 `json:"cap_credit_us"`
	// Backlogged is the number of its stations the last update of modes
	// 2 and 3 counted as backlogged.
	Backlogged int `json:"backlogged_stations"`
	// TxAirtimeUs is the airtime its stations' frames used, summed over
	// its associated stations.
	TxAirtimeUs int64 `json:"tx_airtime_us"`
}

// AirtimeStation is one associated station's share of the policy.
type AirtimeStation struct {
	Addr MAC `json:"mac"`
	BSS  int `json:"bss"`
	// Weight is the scheduler's weight now; StaWeight the station's
	// airtime_sta_weight (0: none).
	Weight        int   `json:"airtime_weight"`
	StaWeight     int   `json:"airtime_sta_weight"`
	BacklogFrames int   `json:"backlog_frames"`
	BacklogBytes  int   `json:"backlog_bytes"`
	TxAirtimeUs   int64 `json:"tx_airtime_us"`
}

// maxAirtimeBSSes bounds a reply's airtime_bss sections: a radio's BSSes.
const maxAirtimeBSSes = 8

// The keys "airtime set" changes, the file's names.
var airtimeSetKeys = map[string]struct{ lo, hi uint64 }{
	"airtime_mode":            {0, 3},
	"airtime_update_interval": {1, 3600000},
	"airtime_bss_weight":      {0, 65535},
	"airtime_bss_limit":       {0, 1},
	"airtime_bss_cap":         {1, 100},
	"airtime_sta_weight":      {0, 65535}, // 0: the station's line removed
}

// radioAirtimeKey reports whether key is the radio's, not a BSS's.
func radioAirtimeKey(key string) bool {
	return key == "airtime_mode" || key == "airtime_update_interval"
}

// maxBSSName bounds a BSS's name in a request: an interface name.
const maxBSSName = 15

const airtimeSetForms = "airtime set airtime_mode 0-3, airtime_update_interval MS, or [bss NAME|INDEX] and airtime_bss_weight N, " +
	"airtime_bss_limit 0|1, airtime_bss_cap PERCENT or airtime_sta_weight MAC N"

// parseAirtime parses "airtime" and "airtime set [bss NAME|INDEX] KEY
// [MAC] VALUE".
func parseAirtime(f []string) (Request, error) {
	if len(f) == 1 {
		return Request{Op: OpAirtime}, nil
	}
	if f[1] != "set" {
		return Request{}, fmt.Errorf("airtime: unknown subcommand %q: want set (or nothing, to show the policy)", f[1])
	}
	r := Request{Op: OpAirtimeSet}
	f = f[2:] // KEY [MAC] VALUE, after bss NAME
	if len(f) > 0 && f[0] == "bss" {
		if len(f) < 2 {
			return Request{}, fmt.Errorf("airtime set bss: missing name: want airtime set bss NAME|INDEX KEY [MAC] N")
		}
		if r.BSS = f[1]; len(r.BSS) > maxBSSName || strings.ContainsAny(r.BSS, "/=\"") {
			return Request{}, fmt.Errorf("airtime set bss %q: want a BSS's name (1 to %d characters) or index", r.BSS, maxBSSName)
		}
		f = f[2:]
	}
	if len(f) < 1 {
		return Request{}, fmt.Errorf("airtime set: missing key: want %s", airtimeSetForms)
	}
	r.Key = f[0]
	rng, ok := airtimeSetKeys[r.Key]
	if !ok {
		return Request{}, fmt.Errorf("airtime set: key %q: want %s", r.Key, airtimeSetForms)
	}
	if r.BSS != "" && radioAirtimeKey(r.Key) {
		return Request{}, fmt.Errorf("airtime set bss %s: %s is the radio's, not a BSS's: want airtime set %s N", r.BSS, r.Key, r.Key)
	}
	form := "airtime set " + r.Key + " N"
	n := 1
	if r.Key == "airtime_sta_weight" {
		form, n = "airtime set airtime_sta_weight MAC N", 2
	}
	if err := nArgs(append([]string{"airtime", "set"}, f...), n+1, form); err != nil {
		return Request{}, err
	}
	if n == 2 {
		var err error
		if r.Addr, err = parseMAC([]string{"airtime", "set", f[1]}); err != nil {
			return Request{}, err
		}
	}
	v, err := strconv.ParseUint(f[n], 10, 32)
	if err != nil || v < rng.lo || v > rng.hi {
		return Request{}, fmt.Errorf("airtime set: %s %q: want %d to %d", r.Key, f[n], rng.lo, rng.hi)
	}
	r.Value = uint32(v)
	return r, nil
}

// airtimeSetString is an airtime set request's canonical line.
func (r Request) airtimeSetString() string {
	bss := ""
	if r.BSS != "" {
		bss = "bss " + r.BSS + " "
	}
	if r.Key == "airtime_sta_weight" {
		return fmt.Sprintf("airtime set %s%s %s %d", bss, r.Key, r.Addr, r.Value)
	}
	return fmt.Sprintf("airtime set %s%s %d", bss, r.Key, r.Value)
}

// AppendAirtime appends the policy as airqctl airtime prints it: the mode,
// a row per BSS, a row per associated station.
func (a *Airtime) AppendAirtime(b []byte) []byte {
	b = fmt.Appendf(b, "airtime_mode %d (%s)", a.Mode, a.ModeName)
	if a.Mode >= 2 {
		b = fmt.Appendf(b, ", airtime_update_interval %d ms", a.UpdateIntervalMs)
	}
	b = append(b, "\nBSS\tname\tBSSID\t\t\tweight\tlimit\tcap\tcap credit\tbacklogged\tairtime\n"...)
	for i := range a.BSSes {
		s := &a.BSSes[i]
		limit := 0
		if s.Limit {
			limit = 1
		}
		name := s.Name
		if name == "" {
			name = "-"
		}
		b = fmt.Appendf(b, "%d\t%s\t%s\t%d\t%d\t%d%%\t", s.Index, name, s.BSSID, s.Weight, limit, s.CapPercent)
		if s.CapPercent < 100 {
			b = fmt.Appendf(b, "%d us", s.CapCreditUs)
		} else {
			b = append(b, '-')
		}
		b = fmt.Appendf(b, "\t\t%d\t\t%d us\n", s.Backlogged, s.TxAirtimeUs)
	}
	b = append(b, "station\t\t\tBSS\tweight\tsta_weight\tbacklog\t\t\tairtime\n"...)
	for i := range a.Stations {
		s := &a.Stations[i]
		b = fmt.Appendf(b, "%s\t%d\t%d\t", s.Addr, s.BSS, s.Weight)
		if s.StaWeight != 0 {
			b = fmt.Appendf(b, "%d", s.StaWeight)
		} else {
			b = append(b, '-')
		}
		b = fmt.Appendf(b, "\t\t%d frames %d bytes\t%d us\n", s.BacklogFrames, s.BacklogBytes, s.TxAirtimeUs)
	}
	return b
}
