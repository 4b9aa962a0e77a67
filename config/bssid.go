package config

import (
	"fmt"
	"math/bits"

	"github.com/airq/airq/internal/ieee80211"
)

// A radio's BSSIDs as hostapd 2.10 gives them (hostapd.c): a BSS with
// bssid= has that one; every other BSS after the first takes the address
// after the last one so taken (the first BSS's address to begin with)
// that no BSS names in bssid=. Hardware that ACKs its BSSIDs through one
// address and a mask (ath9k, ath5k) needs the radio's address to be the
// first of the block the mask covers: hostapd checks addr AND mask == addr
// (hostapd_validate_bssid_configuration), and so does BSSIDMask.

// DeriveBSSIDs returns each BSS's BSSID, the first BSS's address being
// own and given[i] the ith BSS's bssid= (zero: none).
func DeriveBSSIDs(own ieee80211.MAC, given []ieee80211.MAC) []ieee80211.MAC {
	out := make([]ieee80211.MAC, len(given))
	prev := own
	for i, g := range given {
		switch {
		case i == 0:
			out[i] = own
		case !g.IsZero():
			out[i] = g
		default:
			next := prev
			for {
				next = nextMAC(next)
				if !macGiven(given, next) {
					break
				}
			}
			out[i], prev = next, next
		}
	}
	return out
}

// nextMAC is the address after a, the six octets read as one number
// (hostapd's inc_byte_array), wrapping at the top.
func nextMAC(a ieee80211.MAC) ieee80211.MAC {
	for i := len(a) - 1; i >= 0; i-- {
		a[i]++
		if a[i] != 0 {
			break
		}
	}
	return a
}

func macGiven(given []ieee80211.MAC, a ieee80211.MAC) bool {
	for _, g := range given {
		if g == a {
			return true
		}
	}
	return false
}

// BSSIDMask returns hostapd's BSSID mask of a radio whose first BSS has
// address own and whose BSSes give given (as DeriveBSSIDs), with the
// number of low bits it leaves free: enough for the count of BSSes and
// for every bssid= given. It refuses what hostapd refuses when a BSS's
// address is derived: a mask of more than 40 bits, and an own address
// that is not the first of its block. With every BSS after the first
// given, hostapd checks nothing, and neither does BSSIDMask: its mask then
// covers the count of BSSes only.
func BSSIDMask(own ieee80211.MAC, given []ieee80211.MAC) (ieee80211.MAC, int, error) {
	n := 0
	for i := len(given) - 1; i > 0; i >>= 1 {
		n++
	}
	var diff ieee80211.MAC
	derived := false
	for j, g := range given {
		if g.IsZero() {
			derived = derived || j > 0
			continue
		}
		for i := range diff {
			diff[i] |= g[i] ^ own[i]
		}
	}
	if !derived {
		return maskOf(n), n, nil
	}
	for i, d := range diff {
		if d != 0 {
			n = max(n, (5-i)*8+bits.Len8(d))
			break
		}
	}
	if n > 40 {
		return ieee80211.MAC{}, n, fmt.Errorf("the BSSIDs given are too far from the radio's address %s for derived ones beside them: a BSSID mask of %d bits, more than 40", own, n)
	}
	mask := maskOf(n)
	for i := range own {
		if own[i]&mask[i] != own[i] {
			return mask, n, fmt.Errorf("the radio's address %s is not the first of its block under the BSSID mask %s (addr AND mask == addr, hostapd's rule for derived BSSIDs): give the first BSS an address whose %d low bits are 0, or each bss= section its bssid=", own, mask, n)
		}
	}
	return mask, n, nil
}

// maskOf is the mask with its n low bits clear.
func maskOf(n int) ieee80211.MAC {
	var m ieee80211.MAC
	for i := range m {
		free := min(max(n-(5-i)*8, 0), 8) // the free bits of octet i
		m[i] = byte(0xff << free)
	}
	return m
}
