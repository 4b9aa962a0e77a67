package bssid

import (
	"fmt"

	"github.com/airq/airq/internal/ieee80211"
)

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
