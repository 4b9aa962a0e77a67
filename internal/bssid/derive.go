package bssid

import "github.com/airq/airq/internal/ieee80211"

// Derive returns each BSS's BSSID as hostapd 2.10 assigns them, given[i]
// being the ith BSS's bssid= (zero: none) in configuration order. The
// first BSS takes its bssid=, else radio (the phy's address). Each later
// BSS without bssid= takes the address after the last one so derived (the
// first BSS's to begin with: hostapd_setup_interface_complete counts on
// from a derived address only), skipping every address a bssid= names
// (mac_in_conf). derived says which entries were filled in.
func Derive(radio ieee80211.MAC, given []ieee80211.MAC) (out []ieee80211.MAC, derived []bool) {
	out = make([]ieee80211.MAC, len(given))
	derived = make([]bool, len(given))
	var prev ieee80211.MAC
	for i, g := range given {
		switch {
		case !g.IsZero():
			out[i] = g
		case i == 0:
			out[i], derived[i] = radio, true
		default:
			a := prev
			for {
				a = next(a)
				if !named(given, a) {
					break
				}
			}
			out[i], derived[i] = a, true
		}
		if i == 0 || derived[i] {
			prev = out[i]
		}
	}
	return out, derived
}

// next is the address after a, the six octets read as one number
// (hostapd's inc_byte_array), wrapping at the top.
func next(a ieee80211.MAC) ieee80211.MAC {
	for i := len(a) - 1; i >= 0; i-- {
		a[i]++
		if a[i] != 0 {
			break
		}
	}
	return a
}

func named(given []ieee80211.MAC, a ieee80211.MAC) bool {
	for _, g := range given {
		if g == a {
			return true
		}
	}
	return false
}
