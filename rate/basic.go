package rate

import (
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// MgmtRate returns the rate of management frames and of anything sent
// before or without a station's rate table: the lowest basic rate of the
// BSS's Supported Rates octets, which every member must receive (mac80211's
// rate_control_send_low does the same). Without a basic rate it is the
// lowest rate, and without any rate radio.ModeNone (the driver's choice).
func MgmtRate(rates []byte) radio.Rate {
	low, lowBasic := uint8(0), uint8(0)
	for _, r := range rates {
		if ieee80211.IsSelector(r) || legacyBit(ieee80211.RateValue(r)) == 0 {
			continue
		}
		v := ieee80211.RateValue(r)
		if low == 0 || v < low {
			low = v
		}
		if ieee80211.IsBasic(r) && (lowBasic == 0 || v < lowBasic) {
			lowBasic = v
		}
	}
	switch {
	case lowBasic != 0:
		return legacy(lowBasic)
	case low != 0:
		return legacy(low)
	}
	return radio.Rate{}
}

// MulticastRate returns the rate of group-addressed data: kbps if it is
// one of the BSS's basic rates (hostapd's multicast_rate must be one every
// station receives), else MgmtRate. kbps 0 means MgmtRate.
func MulticastRate(rates []byte, kbps int) radio.Rate {
	for _, r := range rates {
		if ieee80211.IsBasic(r) && !ieee80211.IsSelector(r) && ieee80211.RateKbps(r) == kbps {
			return legacy(ieee80211.RateValue(r))
		}
	}
	return MgmtRate(rates)
}

func legacy(v uint8) radio.Rate {
	return radio.Rate{Mode: radio.ModeLegacy, Legacy: v, Bandwidth: radio.BW20}
}
