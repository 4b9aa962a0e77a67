package pmf

import "github.com/airq/airq/internal/ieee80211"

// Action categories 802.11-2020 Table 9-51 marks as not robust, as
// hostapd's robust_action_frame lists them (and mac80211's
// _ieee80211_is_robust_mgmt_frame): every other category is robust.
const (
	categoryUnprotectedWNM = 11
	categorySelfProtected  = 15
	categoryUnprotectedDMG = 20
	categoryUnprotectedS1G = 22
	categoryHE             = 30
	categoryEHT            = 36
)

// RobustAction reports whether Action frames of category c are robust:
// protected under the PTK (unicast) or the IGTK (group-addressed) once
// MFP is on.
func RobustAction(c uint8) bool {
	switch c {
	case ieee80211.CategoryPublic, ieee80211.CategoryHT, categoryUnprotectedWNM, categorySelfProtected,
		categoryUnprotectedDMG, ieee80211.CategoryVHT, categoryUnprotectedS1G, categoryHE, categoryEHT,
		ieee80211.CategoryVendor:
		return false
	}
	return true
}

// IsRobust reports whether f is a robust management frame (802.11-2020
// 3.2 "robust management frame"): a Disassociation, a Deauthentication, or
// an Action frame (with or without Ack) of a robust category. The
// category of a protected unicast Action frame is encrypted: such a frame
// counts as robust, as mac80211 takes it.
func IsRobust(f ieee80211.Frame) bool {
	if len(f) < ieee80211.MgmtHeaderLen || f.Type() != ieee80211.TypeMgmt {
		return false
	}
	switch f.Subtype() {
	case ieee80211.SubtypeDisassoc, ieee80211.SubtypeDeauth:
		return true
	case ieee80211.SubtypeAction, ieee80211.SubtypeActionNoAck:
		if f.Protected() {
			return true
		}
		h := f.HeaderLen()
		return len(f) > h && RobustAction(f[h])
	}
	return false
}
