package ctl

import (
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

var sta = ieee80211.MAC{2, 0, 0, 0, 1, 0}

func TestParseRequest(t *testing.T) {
	for _, c := range []struct {
		line string
		want Request
	}{
		{"status", Request{Op: OpStatus}},
		{"  status \n", Request{Op: OpStatus}},
		{"station dump", Request{Op: OpStationDump}},
		{"station get 02:00:00:00:01:00", Request{Op: OpStationGet, Addr: sta}},
		{"station get 02-00-00-00-01-00", Request{Op: OpStationGet, Addr: sta}},
		{"station set 02:00:00:00:01:00 airtime_weight 512", Request{Op: OpStationSet, Addr: sta, Weight: 512}},
		{"station del 02:00:00:00:01:00", Request{Op: OpStationDel, Addr: sta}},
		{"aql", Request{Op: OpAQL}},
		{"aql set BE 500 1000", Request{Op: OpAQLSet, AC: ieee80211.ACBE, Low: 500, High: 1000}},
		{"aql set bk 0 4294967295 force", Request{Op: OpAQLSet, AC: ieee80211.ACBK, High: 4294967295, Force: true}},
		{"aql set BE 0 0 force", Request{Op: OpAQLSet, AC: ieee80211.ACBE, Force: true}},
		{"aql set VO 1000 1000 force", Request{Op: OpAQLSet, AC: ieee80211.ACVO, Low: 1000, High: 1000, Force: true}},
		{"aql set 1 5000 12000", Request{Op: OpAQLSet, AC: ieee80211.ACVI, Low: 5000, High: 12000}},
		{"aql threshold 24000", Request{Op: OpAQLThreshold, Threshold: 24000}},
		{"scheduler", Request{Op: OpScheduler}},
		{"events", Request{Op: OpEvents}},
		{"scan", Request{Op: OpScan}},
		{"scan dump", Request{Op: OpScanDump}},
		{" survey  dump\n", Request{Op: OpSurveyDump}},
		{"station get 02-00-00-00-01-00 rates", Request{Op: OpStationRates, Addr: sta}},
		{"snapshot", Request{Op: OpSnapshot}},
		{"airtime", Request{Op: OpAirtime}},
		{"airtime set airtime_bss_cap 30", Request{Op: OpAirtimeSet, Key: "airtime_bss_cap", Value: 30}},
		{"airtime set airtime_mode 0", Request{Op: OpAirtimeSet, Key: "airtime_mode"}},
		{"airtime set airtime_sta_weight 02-00-00-00-01-00 768", Request{Op: OpAirtimeSet, Key: "airtime_sta_weight", Addr: sta, Value: 768}},
		{"dev", Request{Op: OpDev}},
		{"dev guest station dump", Request{Op: OpStationDump, Dev: "guest"}},
		{"dev guest station get 02:00:00:00:01:00", Request{Op: OpStationGet, Addr: sta, Dev: "guest"}},
		{"dev wlan0-1 station get 02:00:00:00:01:00 rates", Request{Op: OpStationRates, Addr: sta, Dev: "wlan0-1"}},
		{"dev guest station del 02:00:00:00:01:00", Request{Op: OpStationDel, Addr: sta, Dev: "guest"}},
		{"dev guest station set 02:00:00:00:01:00 airtime_weight 9", Request{Op: OpStationSet, Addr: sta, Weight: 9, Dev: "guest"}},
	} {
		got, err := ParseRequest(c.line)
		if err != nil || got != c.want {
			t.Errorf("ParseRequest(%q) = %+v, %v; want %+v", c.line, got, err, c.want)
			continue
		}
		if again, err := ParseRequest(got.String()); err != nil || again != got {
			t.Errorf("%q: String %q does not parse back: %+v, %v", c.line, got.String(), again, err)
		}
	}
}

// Bad requests are refused with an error that names the argument and what
// is accepted.
func TestParseRequestErrors(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"", "empty request: want one of status"},
		{"reboot", `unknown command "reboot": want one of status, station dump`},
		{"status now", `status: unexpected argument "now"`},
		{"station", "station: missing subcommand: want dump"},
		{"station list", `station: unknown subcommand "list": want dump, get, set or del`},
		{"station dump all", `station dump: unexpected argument "all"`},
		{"station get", `station get: missing arguments: want "station get MAC"`},
		{"station get 02:00:00:00:01", `station get: MAC "02:00:00:00:01": want six hex octets`},
		{"station del zz:00:00:00:01:00", `station del: MAC "zz:00:00:00:01:00"`},
		{"station set 02:00:00:00:01:00 airtime_weight", "station set: missing arguments"},
		{"station set 02:00:00:00:01:00 weight 5", `station set: attribute "weight": want airtime_weight`},
		{"station set 02:00:00:00:01:00 airtime_weight 0", `station set: airtime_weight "0": want 1 to 65535`},
		{"station set 02:00:00:00:01:00 airtime_weight 65536", `airtime_weight "65536": want 1 to 65535`},
		{"station set 02:00:00:00:01:00 airtime_weight -1", `airtime_weight "-1": want 1 to 65535`},
		{"aql get", `aql: unknown subcommand "get"`},
		{"dev guest", "dev guest: want station dump, station get MAC"},
		{"dev guest scan dump", "dev guest: want station dump"},
		{"dev guest station list", `dev guest: station: unknown subcommand "list"`},
		{"dev guest station dump all", `dev guest: station dump: unexpected argument "all"`},
		{"dev a-name-too-long-for-linux station dump", `dev: name "a-name-too-long-for-linux": want an interface name of 1 to 15 characters`},
		{"airtime show", `airtime: unknown subcommand "show": want set`},
		{"airtime set", "airtime set: missing key"},
		{"airtime set airtime_weight 5", `airtime set: key "airtime_weight": want airtime set airtime_mode`},
		{"airtime set airtime_bss_cap 0", `airtime set: airtime_bss_cap "0": want 1 to 100`},
		{"airtime set airtime_mode 4", `airtime set: airtime_mode "4": want 0 to 3`},
		{"airtime set airtime_bss_cap 30 40", `airtime set: unexpected argument "40": want "airtime set airtime_bss_cap N"`},
		{"airtime set airtime_sta_weight 5", `airtime set: missing arguments: want "airtime set airtime_sta_weight MAC N"`},
		{"airtime set airtime_sta_weight 02:00 5", `airtime set: MAC "02:00": want six hex octets`},
		{"aql set XX 1 2", `aql set: AC "XX": want VO, VI, BE, BK or 0 to 3`},
		{"aql set 4 1 2", `aql set: AC "4"`},
		{"aql set BE -1 2", `aql set: low "-1": want 0 to 4294967295 µs`},
		{"aql set BE 1 4294967296", `aql set: high "4294967296": want 0 to 4294967295 µs`},
		{"aql set BE 1 +2", `aql set: high "+2"`},
		{"aql set BE 1", `aql set: missing arguments: want "aql set AC LOW HIGH [force]"`},
		{"aql set BE 2000 1000", "aql set: low 2000 µs is above high 1000 µs: want LOW <= HIGH"},
		{"aql set BE 2000 1000 force", "aql set: low 2000 µs is above high 1000 µs"},
		{"aql set BE 0 0", "aql set: high 0 µs stops all BE traffic: add force (aql set BE 0 0 force)"},
		{"aql set VI 0 4000", "aql set: low 0 µs holds every VI station while the total pending airtime is above the threshold: add force (aql set VI 0 4000 force)"},
		{"aql set BE 1 2 forced", `aql set: unexpected argument "forced"`},
		{"aql set BE force 1 2", `aql set: unexpected argument "2"`},
		{"aql set BE 1 2 3", `aql set: unexpected argument "3"`},
		{"aql threshold", `aql threshold: missing arguments`},
		{"aql threshold 0x10", `aql threshold: "0x10": want 0 to 4294967295 µs`},
		{"scheduler reset", `scheduler: unexpected argument "reset"`},
		{"events all", `events: unexpected argument "all"`},
		{"scan now", `scan: unknown subcommand "now": want dump`},
		{"scan dump all", `scan dump: unexpected argument "all"`},
		{"survey", "survey: missing subcommand: want survey dump"},
		{"survey get", `survey: unknown subcommand "get": want dump`},
		{"survey dump 2412", `survey dump: unexpected argument "2412"`},
		{"station get 02:00:00:00:01:00 txpower", `station get: attribute "txpower": want rates`},
		{"station get 02:00:00:00:01:00 rates all", `station get: unexpected argument "all": want "station get MAC rates"`},
		{"station get 02:00:00:00:01 rates", `station get: MAC "02:00:00:00:01"`},
	} {
		_, err := ParseRequest(c.line)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseRequest(%q): error %v, want one containing %q", c.line, err, c.want)
		}
	}
}

func TestReadOnly(t *testing.T) {
	for op := OpStatus; op <= OpStationRates; op++ {
		want := op != OpStationSet && op != OpStationDel && op != OpAQLSet && op != OpAQLThreshold
		if got := (Request{Op: op}).ReadOnly(); got != want {
			t.Errorf("%v: ReadOnly %v", Request{Op: op}, got)
		}
	}
}
