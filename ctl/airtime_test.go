package ctl

import (
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// TestParseAirtimeSetBSS: airtime set takes the BSS a BSS's key is for by
// name or index ("bss NAME|INDEX" before the key), keeps it in the
// request's canonical line, and refuses it for the radio's keys and
// names no interface could have.
func TestParseAirtimeSetBSS(t *testing.T) {
	sta := ieee80211.MAC{2, 0, 0, 0, 1, 0}
	for _, c := range []struct {
		line string
		want Request
	}{
		{"airtime set bss guest airtime_bss_cap 30", Request{Op: OpAirtimeSet, BSS: "guest", Key: "airtime_bss_cap", Value: 30}},
		{"airtime set bss 1 airtime_bss_weight 512", Request{Op: OpAirtimeSet, BSS: "1", Key: "airtime_bss_weight", Value: 512}},
		{"airtime set bss iot airtime_bss_limit 1", Request{Op: OpAirtimeSet, BSS: "iot", Key: "airtime_bss_limit", Value: 1}},
		{"airtime set bss guest airtime_sta_weight 02:00:00:00:01:00 768", Request{Op: OpAirtimeSet, BSS: "guest", Key: "airtime_sta_weight", Addr: sta, Value: 768}},
	} {
		got, err := ParseRequest(c.line)
		if err != nil || got != c.want {
			t.Errorf("ParseRequest(%q) = %+v, %v; want %+v", c.line, got, err, c.want)
			continue
		}
		if again, err := ParseRequest(got.String()); err != nil || again != got {
			t.Errorf("%q: String %q parses to %+v, %v", c.line, got.String(), again, err)
		}
	}
	for _, c := range []struct{ line, err string }{
		{"airtime set bss", "airtime set bss: missing name"},
		{"airtime set bss guest", "airtime set: missing key"},
		{"airtime set bss guest airtime_mode 2", "airtime set bss guest: airtime_mode is the radio's, not a BSS's"},
		{"airtime set bss 0 airtime_update_interval 100", "airtime_update_interval is the radio's"},
		{"airtime set bss a/b airtime_bss_cap 30", `airtime set bss "a/b": want a BSS's name`},
		{"airtime set bss " + strings.Repeat("x", 16) + " airtime_bss_cap 30", "want a BSS's name (1 to 15 characters) or index"},
		{"airtime set bss guest airtime_bss_cap 101", `airtime set: airtime_bss_cap "101": want 1 to 100`},
		{"airtime set bss guest airtime_sta_weight 768", `airtime set: missing arguments: want "airtime set airtime_sta_weight MAC N"`},
	} {
		_, err := ParseRequest(c.line)
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("ParseRequest(%q) error %v, want it to contain %q", c.line, err, c.err)
		}
	}
}
