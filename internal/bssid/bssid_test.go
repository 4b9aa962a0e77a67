package bssid

import (
	"slices"
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

func mac(s string) ieee80211.MAC {
	m, err := ieee80211.ParseMAC(s)
	if err != nil {
		panic(err)
	}
	return m
}

// macs parses addresses, "" as none (zero).
func macs(ss ...string) []ieee80211.MAC {
	out := make([]ieee80211.MAC, len(ss))
	for i, s := range ss {
		if s != "" {
			out[i] = mac(s)
		}
	}
	return out
}

// wantErr fails t unless err contains want ("": no error).
func wantErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("err = %v, want none", err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("err = %v, want one containing %q", err, want)
	}
}

// hostapd.conf: "BSSIDs are assigned in order to each BSS, unless an
// explicit BSSID is specified"; hostapd.c counts on from the last derived
// address (the first BSS's to begin with), skipping any a section names.
func TestDerive(t *testing.T) {
	for _, tc := range []struct {
		name      string
		radio     string
		given     []string // "" for none; the first is the first BSS's
		want      []string
		derivedAt []int
	}{
		{"all derived", "02:00:00:00:01:00", []string{"", "", "", ""},
			[]string{"02:00:00:00:01:00", "02:00:00:00:01:01", "02:00:00:00:01:02", "02:00:00:00:01:03"}, []int{0, 1, 2, 3}},
		{"hostapd.conf's wlan0_0 and wlan0_1 (bssid=00:13:10:95:fe:0b)", "00:13:10:95:fe:08", []string{"", "", "00:13:10:95:fe:0b"},
			[]string{"00:13:10:95:fe:08", "00:13:10:95:fe:09", "00:13:10:95:fe:0b"}, []int{0, 1}},
		{"a named BSSID is skipped", "02:00:00:00:01:00", []string{"", "", "02:00:00:00:01:01"},
			[]string{"02:00:00:00:01:00", "02:00:00:00:01:02", "02:00:00:00:01:01"}, []int{0, 1}},
		{"counting on from the last derived, not from a named one", "02:00:00:00:01:00", []string{"", "06:00:00:00:01:10", ""},
			[]string{"02:00:00:00:01:00", "06:00:00:00:01:10", "02:00:00:00:01:01"}, []int{0, 2}},
		{"the first BSS's bssid= is where counting starts", "02:00:00:00:01:00", []string{"0a:00:00:00:00:20", ""},
			[]string{"0a:00:00:00:00:20", "0a:00:00:00:00:21"}, []int{1}},
		{"the carry crosses octets", "00:11:22:33:44:ff", []string{"", ""},
			[]string{"00:11:22:33:44:ff", "00:11:22:33:45:00"}, []int{0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, derived := Derive(mac(tc.radio), macs(tc.given...))
			if !slices.Equal(got, macs(tc.want...)) {
				t.Errorf("BSSIDs %v, want %v", got, tc.want)
			}
			var at []int
			for i, d := range derived {
				if d {
					at = append(at, i)
				}
			}
			if !slices.Equal(at, tc.derivedAt) {
				t.Errorf("derived %v, want %v", at, tc.derivedAt)
			}
		})
	}
}

// ValidateConfig checks what hostapd checks at start
// (hostapd_validate_bssid_configuration): the mask rule when an address
// is derived, nothing when every BSS after the first names its own.
func TestValidateConfig(t *testing.T) {
	for _, tc := range []struct {
		name  string
		radio string
		given []string
		err   string
	}{
		{"four derived", "02:00:00:00:01:00", []string{"", "", "", ""}, ""},
		{"hostapd.conf's example", "00:13:10:95:fe:08", []string{"", "", "00:13:10:95:fe:0b"}, ""},
		{"a given one widens the block", "02:00:00:00:01:00", []string{"", "02:00:00:00:01:06", ""}, ""},
		{"the carry leaves the radio's address unaligned", "02:00:00:00:01:ff", []string{"02:00:00:00:01:ff", ""},
			"the mask is ff:ff:ff:ff:ff:fe, and the first BSSID 02:00:00:00:01:ff is not the first address of its block"},
		{"own address not the first of its block", "02:00:00:00:01:01", []string{"", ""},
			"with 2 BSSIDs the mask is ff:ff:ff:ff:ff:fe, and the first BSSID 02:00:00:00:01:01 is not the first address of its block (addr & mask == addr)"},
		{"every BSSID given: no rule", "02:00:00:00:01:01", []string{"", "06:00:00:00:01:05"}, ""},
		{"the locally administered bit given beside a derived one", "00:00:00:00:01:00", []string{"", "02:00:00:00:01:00", ""},
			"differ from 00:00:00:00:01:00 in 42 low bits, more than 40"},
		{"one BSS", "02:00:00:00:01:01", []string{""}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantErr(t, ValidateConfig(mac(tc.radio), macs(tc.given...)), tc.err)
		})
	}
}

func TestDriverRule(t *testing.T) {
	for driver, want := range map[string]Rule{
		"mac80211_hwsim": RuleAnyAddress, "ath9k": RuleMask, "ath9k_htc": RuleMask, "ath5k": RuleMask,
		"mt76x2u": RuleSlots, "mt76x0e": RuleSlots, "iwlwifi": RuleUnknown, "mt7921e": RuleUnknown, "": RuleUnknown,
	} {
		if got := DriverRule(driver); got != want {
			t.Errorf("DriverRule(%q) = %v, want %v", driver, got, want)
		}
	}
}

func TestCheck(t *testing.T) {
	const perm = "00:0c:42:10:20:30"
	for _, tc := range []struct {
		name   string
		rule   Rule
		bssids []ieee80211.MAC
		err    string // "" passes; else a part of the error
	}{
		{"hwsim takes any addresses", RuleAnyAddress, macs("02:00:00:00:00:00", "42:11:22:33:44:55"), ""},
		{"an unknown driver is not refused here", RuleUnknown, macs("02:00:00:00:00:00", "42:11:22:33:44:55"), ""},
		{"a group address", RuleAnyAddress, macs("02:00:00:00:00:00", "03:00:00:00:00:01"), "bss 2: BSSID 03:00:00:00:00:01 is not an individual address"},
		{"the same BSSID twice", RuleAnyAddress, macs("02:00:00:00:00:00", "02:00:00:00:00:00"), "bss 2: BSSID 02:00:00:00:00:00 is bss 1's too"},

		// hostapd's rule: with the radio address ending in 0x30 (four zero
		// bits), up to 16 BSSIDs counted on from it fit the mask
		{"mask: two in order", RuleMask, macs("00:0c:42:10:20:30", "00:0c:42:10:20:31"), ""},
		{"mask: four in order", RuleMask, macs("00:0c:42:10:20:30", "00:0c:42:10:20:31", "00:0c:42:10:20:32", "00:0c:42:10:20:33"), ""},
		{"mask: the first is not the block's first", RuleMask, macs("00:0c:42:10:20:31", "00:0c:42:10:20:32"),
			"BSSID mask rule: with 2 BSSIDs the mask is ff:ff:ff:ff:ff:fc, and the first BSSID 00:0c:42:10:20:31 is not the first address of its block"},
		{"mask: three BSSIDs need two bits", RuleMask, macs("00:0c:42:10:20:32", "00:0c:42:10:20:33", "00:0c:42:10:20:34"),
			"mask is ff:ff:ff:ff:ff:f8"},
		{"mask: a far BSSID widens the block", RuleMask, macs("00:0c:42:10:20:30", "00:0c:42:10:21:30"),
			"mask is ff:ff:ff:ff:fe:00"},
		{"mask: a far BSSID from an aligned first", RuleMask, macs("00:0c:42:10:00:00", "00:0c:42:10:20:30"), ""},
		{"mask: more than 40 bits", RuleMask, macs("00:00:00:00:01:00", "02:00:00:00:01:00"), "differ from 00:00:00:00:01:00 in 42 low bits, more than 40"},

		// mt76x02: the radio's address and the locally administered ones
		// with octet 0's bits 2-4 naming slots 1-7
		{"slots: first two", RuleSlots, macs(perm, "02:0c:42:10:20:30"), ""},
		{"slots: eight", RuleSlots, macs(perm, "02:0c:42:10:20:30", "06:0c:42:10:20:30", "0a:0c:42:10:20:30",
			"0e:0c:42:10:20:30", "12:0c:42:10:20:30", "16:0c:42:10:20:30", "1a:0c:42:10:20:30"), ""},
		{"slots: slot 8 does not exist", RuleSlots, macs(perm, "1e:0c:42:10:20:30"),
			"mt76x02's address slots: bss 2's BSSID 1e:0c:42:10:20:30 falls in slot 8"},
		{"slots: another octet differs", RuleSlots, macs(perm, "02:0c:42:10:20:31"),
			"mt76x02's address slots: bss 2's BSSID 02:0c:42:10:20:31 differs from 00:0c:42:10:20:30 outside octet 0's bits 1-4"},
		{"slots: two BSSIDs in one slot", RuleSlots, macs("02:0c:42:10:20:30", perm, "00:0c:42:10:20:30"),
			"bss 3: BSSID 00:0c:42:10:20:30 is bss 2's too"},
		{"slots: without the locally administered bit, slot 0 again", RuleSlots, macs(perm, "04:0c:42:10:20:30"),
			"bss 2's BSSID 04:0c:42:10:20:30 takes slot 0, bss 1's: the driver refuses it (-EBUSY)"},
		{"slots: a first vif outside the block becomes the base", RuleSlots, macs("00:0c:42:99:99:99", "02:0c:42:99:99:99"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantErr(t, Check(tc.rule, mac(perm), tc.bssids), tc.err)
		})
	}
}

// TestMT76SlotBase: a first vif inside the radio's block (06:..., slot
// 2) leaves the radio's address as the base, so 02:... is slot 1 and the
// radio's own address slot 0.
func TestMT76SlotBase(t *testing.T) {
	perm := mac("00:0c:42:10:20:30")
	if err := Check(RuleSlots, perm, macs("06:0c:42:10:20:30", "02:0c:42:10:20:30", "00:0c:42:10:20:30")); err != nil {
		t.Errorf("slots 2, 1 and 0: %v", err)
	}
	for a, want := range map[string]int{"06:0c:42:10:20:30": 2, "02:0c:42:10:20:30": 1, "00:0c:42:10:20:30": 0, "1a:0c:42:10:20:30": 7} {
		if s := mt76Slot(perm, mac(a)); s != want {
			t.Errorf("slot of %s = %d, want %d", a, s, want)
		}
	}
}
