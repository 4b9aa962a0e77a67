package bss

import (
	"encoding/binary"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// Profile is how a BSS announces itself, fixed by its configuration.
type Profile struct {
	SSID string
	// Hidden sends beacons with an empty SSID and answers only probe
	// requests that name the SSID (ignore_broadcast_ssid).
	Hidden         bool
	BeaconInterval int // TU
	DTIMPeriod     int // beacons per DTIM
	// WMM advertises the WMM Parameter element with WMMParams.
	WMM       bool
	WMMParams [ieee80211.NumACs]ieee80211.EDCA
	Advert    Advert
	// RSNE is the RSN element (and the RSNXE) of a protected BSS; nil on
	// an open one.
	RSNE []byte
}

// Air is the radio's part of what a BSS announces: where the radio is,
// the regulatory element it is configured with, and the channel's load it
// measures.
type Air struct {
	Channel int // primary channel number
	Freq    int // MHz
	// Country and Subbands make the Country element; "" sends none.
	Country     string
	Subbands    []ieee80211.CountryTriplet
	ChannelUtil uint8 // the BSS Load element's channel utilization, 0 to 255
}

// AppendRates appends the BSS's Supported (and Extended Supported) Rates;
// with hash-to-element required (h2eOnly), BSS membership selector 123
// after the rates, as hostapd 2.11's hostapd_eid_supp_rates: a station that
// cannot do H2E (wpa_supplicant with sae_pwe=0) then skips the BSS.
func (b *BSS) AppendRates(dst []byte, h2eOnly bool) []byte {
	if !h2eOnly {
		return ieee80211.AppendRates(dst, b.Rates.IE)
	}
	var octets [255]byte
	n := copy(octets[:len(octets)-1], b.Rates.IE)
	octets[n] = ieee80211.RateBasic | ieee80211.SelectorSAEH2E
	return ieee80211.AppendRates(dst, octets[:n+1])
}

// AppendBeacon appends the body of the BSS's beacon, which the radio
// sends at now, its TBTT: the fixed fields with the radio's TSF, the SSID
// (empty when hidden) and the tail with the TIM. A DTIM beacon that
// announces buffered group frames opens the group window until the next
// beacon, and the DTIM count moves on to the next beacon. h2eOnly: the
// BSS's SAE requires hash-to-element.
func (b *BSS) AppendBeacon(dst []byte, r Radio, now time.Duration, h2eOnly bool) []byte {
	air := r.Air()
	dst = ieee80211.AppendBeaconFixed(dst, r.TSF(now), uint16(b.Profile.BeaconInterval), b.Capability(air.Freq))
	dst = b.AppendBeaconSSID(dst)
	tim, group := b.FillTIM(r, b.DTIM.Count() == 0)
	// Buffered group frames go right after the DTIM beacon that
	// announces them, until the next beacon.
	b.GroupWindow = group
	dst = b.AppendTail(dst, &air, h2eOnly, tim, group)
	b.DTIM.Beaconed(b.Profile.DTIMPeriod)
	return dst
}

// AppendBeaconSSID appends the SSID element of a beacon: empty when the
// BSS is hidden.
func (b *BSS) AppendBeaconSSID(dst []byte) []byte {
	if b.Profile.Hidden {
		return ieee80211.AppendSSID(dst, "")
	}
	return ieee80211.AppendSSID(dst, b.Profile.SSID)
}

// AppendTail appends the elements beacons and probe responses share after
// the SSID, in hostapd's order: rates, DS parameters, the TIM (beacons
// only: tim not nil, group set when group-addressed frames follow this
// DTIM), Country, Power Constraint, ERP, RSNE, BSS Load, HT, Extended
// Capabilities, VHT, WMM.
func (b *BSS) AppendTail(dst []byte, air *Air, h2eOnly bool, tim *ieee80211.TIMBitmap, group bool) []byte {
	p := &b.Profile
	dst = b.AppendRates(dst, h2eOnly)
	dst = ieee80211.AppendDSParams(dst, uint8(air.Channel))
	if tim != nil {
		dst = ieee80211.AppendTIM(dst, uint8(b.DTIM.Count()), uint8(p.DTIMPeriod), group, tim)
	}
	if air.Country != "" {
		dst = ieee80211.AppendCountry(dst, air.Country, ' ', air.Subbands)
	}
	dst = p.Advert.AppendPowerConstraint(dst, air.Freq)
	if air.Freq < 3000 {
		dst = ieee80211.AppendERP(dst, b.shared().ERP.Flags())
	}
	dst = append(dst, p.RSNE...)
	if p.Advert.BSSLoadPeriod != 0 {
		dst = b.appendBSSLoad(dst, air.ChannelUtil)
	}
	dst = b.PHY.Append(dst, true, b.ExtCap, b.htOpMode(nil))
	if p.WMM {
		dst = ieee80211.AppendWMMParam(dst, p.WMMParams, 0)
	}
	return dst
}

// appendBSSLoad is hostapd's BSS Load element: the station entries (every
// station the table holds, associated or not, as hostapd's num_sta), the
// channel utilization and no available admission capacity.
func (b *BSS) appendBSSLoad(dst []byte, util uint8) []byte {
	dst = append(dst, ieee80211.ElemBSSLoad, 5)
	dst = binary.LittleEndian.AppendUint16(dst, uint16(b.Stations.Stations()))
	dst = append(dst, util)
	return binary.LittleEndian.AppendUint16(dst, 0)
}

// AnswersProbe reports whether a probe request with elements ies, heard
// on channel, asks for this BSS: it names the SSID, or the wildcard SSID
// while the BSS is not hidden, and no DS Parameter Set names another
// channel (a probe sent on an adjacent channel and heard here).
func (b *BSS) AnswersProbe(ies ieee80211.Elements, channel int) bool {
	ssid, ok := ies.Find(ieee80211.ElemSSID)
	if !ok || (len(ssid) > 0 && string(ssid) != b.Profile.SSID) || (len(ssid) == 0 && b.Profile.Hidden) {
		return false
	}
	if ds, ok := ies.Find(ieee80211.ElemDSParams); ok && len(ds) == 1 && int(ds[0]) != channel {
		return false
	}
	return true
}
