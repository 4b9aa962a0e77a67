package bss

import "github.com/airq/airq/internal/ieee80211"

// ElemRSNX is the RSN Extension element.
const ElemRSNX = 244

// onceInAssoc holds the element IDs that IEEE 802.11-2020 lists at most
// once in a (re)association request (tables 9-35 and 9-37): a second copy
// is refused with status 40 (invalid element). hostapd keeps the last copy
// and answers for what it says (a TKIP RSNE behind a valid one gets 42);
// airq reads the first. Refusing both removes the question of which copy
// counts, so that no check can read one while another part reads the
// other. Vendor Specific, Multi-band and the others the standard lets
// repeat are not here.
var onceInAssoc = idSet(
	ieee80211.ElemSSID,
	ieee80211.ElemSupportedRates,
	ieee80211.ElemPowerCap,
	ieee80211.ElemSupportedChannels,
	ieee80211.ElemHTCap,
	ieee80211.ElemRSN,
	ieee80211.ElemExtSupportedRates,
	46, // QoS Capability
	54, // Mobility Domain
	55, // Fast BSS Transition
	59, // Supported Operating Classes
	ieee80211.ElemRMEnabledCap,
	72,  // 20/40 BSS Coexistence
	89,  // QoS Traffic Capability
	94,  // TIM Broadcast Request
	107, // Interworking
	ieee80211.ElemExtCap,
	148, // DMG Capabilities
	ieee80211.ElemVHTCap,
	199, // Operating Mode Notification
	ElemRSNX,
)

// onceInAssocExt is the same for Element ID Extension values.
var onceInAssocExt = idSet(
	4,  // FILS Session
	32, // OWE Diffie-Hellman Parameter
	ieee80211.ElemExtHECap,
	59,  // HE 6 GHz Band Capabilities
	108, // EHT Capabilities
)

type elemIDs [4]uint64

func idSet(ids ...uint8) elemIDs {
	var s elemIDs
	for _, id := range ids {
		s.add(id)
	}
	return s
}

func (s *elemIDs) add(id uint8)      { s[id>>6] |= 1 << (id & 63) }
func (s *elemIDs) has(id uint8) bool { return s[id>>6]&(1<<(id&63)) != 0 }

// RepeatsOnceElement reports whether ies (already validated) holds a
// second copy of an element allowed once. It allocates nothing.
func RepeatsOnceElement(ies ieee80211.Elements) bool {
	var seen, seenExt elemIDs
	it := ies.Iter()
	for it.Next() {
		id, set, once := it.ID(), &seen, &onceInAssoc
		if id == ieee80211.ElemExtension {
			body := it.Body()
			if len(body) == 0 {
				continue
			}
			id, set, once = body[0], &seenExt, &onceInAssocExt
		}
		if !once.has(id) {
			continue
		}
		if set.has(id) {
			return true
		}
		set.add(id)
	}
	return false
}
