package bssid

import (
	"fmt"

	"github.com/airq/airq/internal/ieee80211"
)

// Rule is what a driver's hardware ACKs when several interfaces (vifs)
// run on one phy: the rule a BSSID must follow for its frames to be
// ACKed. A radio cannot see its own ACKs, so airq checks the rule at start
// and watches for retries at run time (package internal/ackmiss).
type Rule uint8

const (
	// RuleUnknown: a driver whose rule airq does not know. Its BSSIDs are
	// started with a warning.
	RuleUnknown Rule = iota
	// RuleAnyAddress: mac80211_hwsim ACKs the address of every running
	// interface (mac80211_hwsim_addr_match over the active interfaces).
	RuleAnyAddress
	// RuleMask: ath5k, ath9k and ath9k_htc have one address register and
	// a BSSID mask computed over every vif (mask &= ~(hw ^ vif)): the
	// hardware ACKs every address the mask lets through, so BSSIDs must
	// sit in one aligned block that starts at the first BSS's, as hostapd
	// requires (addr & mask == addr).
	RuleMask
	// RuleSlots: mt76x02 (mt76x0e/u, mt76x2e/u) runs 8 BSSIDs in hardware
	// (MT_MAC_BSSID_DW1_MBSS_MODE 3): the first BSS's address and up to 7
	// more equal to it but in octet 0's bits 1-4, the locally administered
	// bit set and bits 2-4 naming the slot; mt76x02_add_interface refuses a
	// taken slot or slot 8 with -EBUSY.
	RuleSlots
)

func (r Rule) String() string {
	switch r {
	case RuleAnyAddress:
		return "any address (mac80211_hwsim)"
	case RuleMask:
		return "BSSID mask (addr & mask == addr, as hostapd checks)"
	case RuleSlots:
		return "mt76x02's 8 address slots"
	}
	return "unknown"
}

// DriverRule returns the address rule of the driver named as in
// /sys/class/ieee80211/PHY/device/driver.
func DriverRule(driver string) Rule {
	switch driver {
	case "mac80211_hwsim":
		return RuleAnyAddress
	case "ath5k", "ath9k", "ath9k_htc":
		return RuleMask
	case "mt76x0e", "mt76x0u", "mt76x2e", "mt76x2u":
		return RuleSlots
	}
	return RuleUnknown
}

// Check returns the first reason the radio's BSSIDs (bssids[0] is the
// first BSS's) cannot all be ACKed under rule on the phy whose permanent
// address is perm, naming the BSS (1-based, in configuration order) and
// the rule. Every rule wants distinct individual addresses.
func Check(rule Rule, perm ieee80211.MAC, bssids []ieee80211.MAC) error {
	for i, b := range bssids {
		if b.IsZero() || b[0]&1 != 0 {
			return fmt.Errorf("bss %d: BSSID %v is not an individual address", i+1, b)
		}
		for j := range i {
			if bssids[j] == b {
				return fmt.Errorf("bss %d: BSSID %v is bss %d's too", i+1, b, j+1)
			}
		}
	}
	switch rule {
	case RuleMask:
		return checkMask(bssids[0], len(bssids), bssids[1:])
	case RuleSlots:
		return checkSlots(perm, bssids)
	}
	return nil
}
