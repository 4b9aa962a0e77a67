package bssid

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/airq/airq/internal/ieee80211"
)

// ValidateConfig is hostapd's own check of a radio's BSSIDs
// (hostapd_validate_bssid_configuration), given as Derive takes them with
// radio the phy's address: when a BSS after the first derives its BSSID,
// the BSSIDs must fit the mask rule (RuleMask); when every BSS after the
// first names its own, hostapd checks nothing, and neither does
// ValidateConfig.
func ValidateConfig(radio ieee80211.MAC, given []ieee80211.MAC) error {
	all, derived := Derive(radio, given)
	if !slices.Contains(derived[min(1, len(derived)):], true) {
		return nil
	}
	// hostapd sizes the mask by the count and the addresses given, not
	// the derived ones: the same verdict, and hostapd's mask in the reason
	var named []ieee80211.MAC
	for _, g := range given {
		if !g.IsZero() {
			named = append(named, g)
		}
	}
	return checkMask(all[0], len(all), named)
}

// maskBits is the number of low address bits hostapd's BSSID mask leaves
// free for count BSSIDs: enough to count them, and enough to cover how
// far any of span is from first.
func maskBits(first ieee80211.MAC, count int, span []ieee80211.MAC) int {
	n := bits.Len(uint(count - 1))
	for _, b := range span {
		n = max(n, bits.Len64(macBits(b)^macBits(first)))
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

// maskOf is the BSSID mask with its n low bits free (clear).
func maskOf(n int) ieee80211.MAC {
	var mask ieee80211.MAC
	m := ^uint64(0) << n
	for i := range mask {
		mask[i] = byte(m >> (8 * (5 - i)))
	}
	return mask
}

// checkMask is hostapd's rule for count BSSIDs, the first being first:
// the mask frees the low maskBits bits, at most 40, and first must be the
// block's first address (addr & mask == addr).
func checkMask(first ieee80211.MAC, count int, span []ieee80211.MAC) error {
	n := maskBits(first, count, span)
	if n > 40 {
		return fmt.Errorf("BSSID mask rule: the BSSIDs differ from %v in %d low bits, more than 40", first, n)
	}
	if low := macBits(first) & (1<<n - 1); low != 0 {
		return fmt.Errorf("BSSID mask rule: with %d BSSIDs the mask is %v, and the first BSSID %v is not the first address of its block (addr & mask == addr): choose the BSSIDs so that the first ends in %d zero bits",
			count, maskOf(n), first, n)
	}
	return nil
}
