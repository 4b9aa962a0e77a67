package bss

import (
	"fmt"

	"github.com/airq/airq/internal/ieee80211"
)

// ValidWMM fills in hostapd's default parameters and checks each AC's:
// AIFSN 2 to 15 (stations need 2 or more), CWmin up to CWmax, and no
// admission control, which would need ADDTS.
func ValidWMM(p [ieee80211.NumACs]ieee80211.EDCA) ([ieee80211.NumACs]ieee80211.EDCA, error) {
	if p == ([ieee80211.NumACs]ieee80211.EDCA{}) {
		return ieee80211.DefaultEDCA(), nil
	}
	for ac, e := range p {
		name := ieee80211.AC(ac).String()
		switch {
		case e.AIFSN < 2 || e.AIFSN > 15:
			return p, fmt.Errorf("wmm_ac: %s AIFSN %d, want 2 to 15", name, e.AIFSN)
		case e.ECWMin > e.ECWMax || e.ECWMax > 15:
			return p, fmt.Errorf("wmm_ac: %s ECWmin %d, ECWmax %d, want 0 <= ECWmin <= ECWmax <= 15", name, e.ECWMin, e.ECWMax)
		case e.ACM:
			return p, fmt.Errorf("wmm_ac: %s admission control is not supported (it needs ADDTS)", name)
		}
	}
	return p, nil
}
