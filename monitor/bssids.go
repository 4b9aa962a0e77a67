package monitor

import (
	"fmt"
	"math/bits"

	"github.com/airq/airq/internal/ieee80211"
)

// AddressRule is what a driver's hardware ACKs when several interfaces
// (vifs) run on one phy: the rule a BSSID must follow for its frames to be
// ACKed. A radio cannot see its own ACKs, so airq checks the rule at start
// and watches for retries at run time (package internal/ackmiss).
type AddressRule uint8

const (
	// RuleUnknown: a driver whose rule airq does not know. Its BSSIDs are
	// started with a warning.
	RuleUnknown AddressRule = iota
	// RuleAnyAddress: mac80211_hwsim ACKs the address of every running
	// interface (mac80211_hwsim_addr_match over the active interfaces).
	RuleAnyAddress
	// RuleBSSIDMask: ath5k, ath9k and ath9k_htc have one address register
	// and a BSSID mask computed over every vif (mask &= ~(hw ^ vif)): the
	// hardware ACKs every address the mask lets through, so BSSIDs must
	// sit in one aligned block that starts at the first BSS's, as hostapd
	// requires (addr & mask == addr).
	RuleBSSIDMask
	// RuleSlots: mt76x02 (mt76x0e/u, mt76x2e/u) runs 8 BSSIDs in hardware
	// (MT_MAC_BSSID_DW1_MBSS_MODE 3): the first BSS's address and up to 7
	// more equal to it but in octet 0's bits 1-4, the locally administered
	// bit set and bits 2-4 naming the slot; mt76x02_add_interface refuses a
	// taken slot or slot 8 with -EBUSY.
	RuleSlots
)

func (r AddressRule) String() string {
	switch r {
	case RuleAnyAddress:
		return "any address (mac80211_hwsim)"
	case RuleBSSIDMask:
		return "BSSID mask (addr & mask == addr, as hostapd checks)"
	case RuleSlots:
		return "mt76x02's 8 address slots"
	}
	return "unknown"
}

// DriverRule returns the address rule of the driver named as in
// /sys/class/ieee80211/PHY/device/driver.
func DriverRule(driver string) AddressRule {
	switch driver {
	case "mac80211_hwsim":
		return RuleAnyAddress
	case "ath5k", "ath9k", "ath9k_htc":
		return RuleBSSIDMask
	case "mt76x0e", "mt76x0u", "mt76x2e", "mt76x2u":
		return RuleSlots
	}
	return RuleUnknown
}

// DeriveBSSIDs fills in the BSSIDs left zero in bssids, which lists every
// BSS of the radio in order, as hostapd assigns them: the first BSS takes
// radio (the phy's address) and each later one the previous BSS's address
// plus one, skipping addresses another BSS names itself. derived says which
// entries were filled in.
func DeriveBSSIDs(radio ieee80211.MAC, bssids []ieee80211.MAC) (out []ieee80211.MAC, derived []bool) {
	out = make([]ieee80211.MAC, len(bssids))
	derived = make([]bool, len(bssids))
	taken := func(a ieee80211.MAC) bool {
		for _, b := range bssids {
			if b == a {
				return true
			}
		}
		return false
	}
	for i, b := range bssids {
		switch {
		case !b.IsZero():
			out[i] = b
		case i == 0:
			out[i], derived[i] = radio, true
		default:
			a := out[i-1]
			for {
				a = incMAC(a)
				if !taken(a) {
					break
				}
			}
			out[i], derived[i] = a, true
		}
	}
	return out, derived
}

// incMAC adds one to a as a 48-bit number, carrying into higher octets.
func incMAC(a ieee80211.MAC) ieee80211.MAC {
	for i := len(a) - 1; i >= 0; i-- {
		a[i]++
		if a[i] != 0 {
			break
		}
	}
	return a
}

// CheckBSSIDs returns the first reason the radio's BSSIDs (bssids[0] is
// the first BSS's, the address of airqd's monitor) cannot all be ACKed
// under rule on the phy whose permanent address is perm, naming the BSS
// (1-based, in configuration order) and the rule. Every rule wants
// distinct individual addresses.
func CheckBSSIDs(rule AddressRule, perm ieee80211.MAC, bssids []ieee80211.MAC) error {
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
	case RuleBSSIDMask:
		return checkMask(bssids)
	case RuleSlots:
		return checkSlots(perm, bssids)
	}
	return nil
}

// maskBits is the number of low address bits hostapd's BSSID mask leaves
// free for the BSSIDs: enough to count them, and enough to cover how far
// any of them is from the first.
func maskBits(bssids []ieee80211.MAC) int {
	n := bits.Len(uint(len(bssids) - 1))
	first := macBits(bssids[0])
	for _, b := range bssids[1:] {
		n = max(n, bits.Len64(macBits(b)^first))
	}
	return n
}

func macBits(a ieee80211.MAC) uint64 {
	var v uint64
	for _, o := range a {
		v = v<<8 | uint64(o)
	}
	return v
}

// checkMask is hostapd's rule (hostapd_validate_bssid_configuration): the
// mask frees the low maskBits bits, at most 40, and the first BSSID must
// be the block's first address (addr & mask == addr).
func checkMask(bssids []ieee80211.MAC) error {
	n := maskBits(bssids)
	if n > 40 {
		return fmt.Errorf("BSSID mask rule: the BSSIDs differ from %v in %d low bits, more than 40", bssids[0], n)
	}
	if low := macBits(bssids[0]) & (1<<n - 1); low != 0 {
		var mask ieee80211.MAC
		m := ^uint64(0) << n
		for i := range mask {
			mask[i] = byte(m >> (8 * (5 - i)))
		}
		return fmt.Errorf("BSSID mask rule: with %d BSSIDs the mask is %v, and the first BSSID %v is not the first address of its block (addr & mask == addr): choose the BSSIDs so that the first ends in %d zero bits",
			len(bssids), mask, bssids[0], n)
	}
	return nil
}

// mt76Slot returns the hardware slot mt76x02_add_interface gives a
// monitor or AP vif with address a on a device whose base address is
// base: 0 without the locally administered bit, else 1 plus octet 0's
// bits 2-4 where they differ from the base's.
func mt76Slot(base, a ieee80211.MAC) int {
	if a[0]&0x02 == 0 {
		return 0
	}
	return 1 + int((base[0]^a[0])>>2&7)
}

// slotBase is the address mt76x02 bases its slots on: the phy's own,
// unless the first vif's (the first BSSID) differs from it outside octet
// 0's bits 1-4, which makes the driver take the vif's.
func slotBase(perm, first ieee80211.MAC) ieee80211.MAC {
	if sameBlock(perm, first) {
		return perm
	}
	return first
}

// sameBlock: a and b are equal but in octet 0's bits 1-4.
func sameBlock(a, b ieee80211.MAC) bool {
	return [5]byte(a[1:]) == [5]byte(b[1:]) && (a[0]^b[0])&^0x1e == 0
}

// checkSlots is mt76x02's rule: every BSSID equals the base but in octet
// 0's bits 1-4, and each has its own slot below 8.
func checkSlots(perm ieee80211.MAC, bssids []ieee80211.MAC) error {
	base := slotBase(perm, bssids[0])
	used := make(map[int]int, len(bssids))
	for i, b := range bssids {
		if !sameBlock(base, b) {
			return fmt.Errorf("mt76x02's address slots: bss %d's BSSID %v differs from %v outside octet 0's bits 1-4", i+1, b, base)
		}
		s := mt76Slot(base, b)
		if s > 7 {
			return fmt.Errorf("mt76x02's address slots: bss %d's BSSID %v falls in slot %d, and there are 8 (0-7): the driver refuses it (-EBUSY)", i+1, b, s)
		}
		if j, ok := used[s]; ok {
			return fmt.Errorf("mt76x02's address slots: bss %d's BSSID %v takes slot %d, bss %d's: the driver refuses it (-EBUSY)", i+1, b, s, j+1)
		}
		used[s] = i
	}
	return nil
}
