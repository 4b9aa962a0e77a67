package config

import (
	"slices"
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// macs parses addresses, "" as none (zero).
func macs(t *testing.T, ss ...string) []ieee80211.MAC {
	var out []ieee80211.MAC
	for _, s := range ss {
		var m ieee80211.MAC
		if s != "" {
			m = mac(t, s)
		}
		out = append(out, m)
	}
	return out
}

// BSSIDs are derived and masked as hostapd 2.10 derives and masks them
// (hostapd.c: the address after the last derived one, skipping those
// given; the mask covering the count of BSSes and every given BSSID; the
// radio's address the first of its block), on hostapd.conf's examples and
// the edges of its rule.
func TestBSSIDs(t *testing.T) {
	for _, c := range []struct {
		name  string
		own   string
		given []string // "" for none; the first is the first BSS's
		want  []string
		mask  string
		bits  int
		err   string
	}{
		{name: "four derived", own: "02:00:00:00:01:00", given: []string{"", "", "", ""},
			want: []string{"02:00:00:00:01:00", "02:00:00:00:01:01", "02:00:00:00:01:02", "02:00:00:00:01:03"}, mask: "ff:ff:ff:ff:ff:fc", bits: 2},
		{name: "hostapd.conf's wlan0_0 and wlan0_1 (bssid=00:13:10:95:fe:0b)", own: "00:13:10:95:fe:08", given: []string{"", "", "00:13:10:95:fe:0b"},
			want: []string{"00:13:10:95:fe:08", "00:13:10:95:fe:09", "00:13:10:95:fe:0b"}, mask: "ff:ff:ff:ff:ff:fc", bits: 2},
		{name: "a derived address skips one given", own: "02:00:00:00:01:00", given: []string{"", "", "02:00:00:00:01:01"},
			want: []string{"02:00:00:00:01:00", "02:00:00:00:01:02", "02:00:00:00:01:01"}, mask: "ff:ff:ff:ff:ff:fc", bits: 2},
		{name: "derived after a given one continue from the last derived", own: "02:00:00:00:01:00", given: []string{"", "02:00:00:00:01:06", ""},
			want: []string{"02:00:00:00:01:00", "02:00:00:00:01:06", "02:00:00:00:01:01"}, mask: "ff:ff:ff:ff:ff:f8", bits: 3},
		{name: "carry", own: "02:00:00:00:01:ff", given: []string{"02:00:00:00:01:ff", ""},
			want: []string{"02:00:00:00:01:ff", "02:00:00:00:02:00"}, mask: "ff:ff:ff:ff:ff:fe", bits: 1, err: "not the first of its block"},
		{name: "own address not the first of its block", own: "02:00:00:00:01:01", given: []string{"", ""},
			want: []string{"02:00:00:00:01:01", "02:00:00:00:01:02"}, mask: "ff:ff:ff:ff:ff:fe", bits: 1, err: "addr AND mask == addr"},
		{name: "every BSSID given: no rule", own: "02:00:00:00:01:01", given: []string{"", "06:00:00:00:01:05"},
			want: []string{"02:00:00:00:01:01", "06:00:00:00:01:05"}, mask: "ff:ff:ff:ff:ff:fe", bits: 1},
		{name: "the locally administered bit given beside a derived one", own: "00:00:00:00:01:00", given: []string{"", "02:00:00:00:01:00", ""},
			want: []string{"00:00:00:00:01:00", "02:00:00:00:01:00", "00:00:00:00:01:01"}, err: "more than 40", bits: 42},
	} {
		given := macs(t, c.given...)
		if got := DeriveBSSIDs(mac(t, c.own), given); !slices.Equal(got, macs(t, c.want...)) {
			t.Errorf("%s: BSSIDs %v, want %v", c.name, got, c.want)
		}
		mask, n, err := BSSIDMask(mac(t, c.own), given)
		if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		}
		if n != c.bits || c.mask != "" && mask != mac(t, c.mask) {
			t.Errorf("%s: mask %s (%d bits), want %s (%d bits)", c.name, mask, n, c.mask, c.bits)
		}
	}
}
