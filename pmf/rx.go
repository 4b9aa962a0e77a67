package pmf

import "github.com/airq/airq/internal/ieee80211"

// Verdict is what the receive-side rules of 802.11w make of a management
// frame from a station.
type Verdict uint8

const (
	// Pass: handle the frame as without MFP (it is not robust, or the
	// station does not use MFP).
	Pass Verdict = iota
	// Open: a protected unicast frame from an MFP station; decrypt it
	// under the station's PTK (ccmp.Key.OpenMgmt) before anything else.
	Open
	// The drops, each counted by its reason, each changing nothing about
	// the station: an unprotected Deauthentication, Disassociation or
	// robust Action frame claiming to come from an MFP station (anyone can
	// send one), a group-addressed robust frame from an MFP station (a
	// non-AP station has no IGTK to sign it), and a protected management
	// frame from a station without MFP, or of a kind that is never
	// protected (an Authentication, a Probe Request: nothing decrypts it).
	DropUnprotectedDeauth
	DropUnprotectedDisassoc
	DropUnprotectedAction
	DropGroupAddressed
	DropProtected
)

var verdictNames = [...]string{"pass", "open", "unprotected_deauth", "unprotected_disassoc", "unprotected_action",
	"group_addressed_robust", "protected_unexpected"}

// String names v as a counter label.
func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return "verdict?"
}

// Check applies 802.11w's receive rules (mac80211's
// ieee80211_drop_unencrypted_mgmt, hostapd's handle_action) to a
// management frame from a station; mfp says the station negotiated MFP
// (rsn.Negotiated.MFP). It looks at the header, and at the category of an
// unprotected Action frame, and allocates nothing.
//
// MFP counts from the association. mac80211 still lets an unprotected
// Deauthentication or Disassociation through while the station has no
// PTK (it gives up during the 4-way handshake): the caller, which knows
// the keys, makes that exception.
func Check(f ieee80211.Frame, mfp bool) Verdict {
	if len(f) < ieee80211.MgmtHeaderLen || f.Type() != ieee80211.TypeMgmt {
		return Pass
	}
	robust := IsRobust(f)
	if f.Protected() && (!mfp || !robust) {
		return DropProtected
	}
	if !mfp || !robust {
		return Pass
	}
	switch {
	case f.Addr1().IsMulticast():
		return DropGroupAddressed
	case f.Protected():
		return Open
	case f.Subtype() == ieee80211.SubtypeDeauth:
		return DropUnprotectedDeauth
	case f.Subtype() == ieee80211.SubtypeDisassoc:
		return DropUnprotectedDisassoc
	}
	return DropUnprotectedAction
}
