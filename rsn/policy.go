package rsn

import (
	"errors"
	"fmt"
	"slices"

	"github.com/airq/airq/internal/ieee80211"
)

// MFP is the management frame protection setting (hostapd ieee80211w).
type MFP uint8

const (
	MFPDisabled MFP = iota
	MFPOptional
	MFPRequired
)

// Policy is what the AP offers and accepts: hostapd's rsn_pairwise,
// wpa_key_mgmt, ieee80211w, group_mgmt_cipher and extended_key_id.
type Policy struct {
	Group         Cipher   // group data cipher: CCMP
	Pairwise      []Cipher // rsn_pairwise: CCMP
	AKMs          []AKM    // wpa_key_mgmt: WPA-PSK, WPA-PSK-SHA256 and/or SAE
	MFP           MFP      // ieee80211w
	GroupMgmt     Cipher   // group_mgmt_cipher when MFP is on: AES-128-CMAC
	ExtendedKeyID int      // extended_key_id: 0 off, 1 on, 2 on and start with key ID 1
	WMM           bool     // advertise 16 PTKSA replay counters, as hostapd does with WMM
	// SAEH2E advertises SAE's hash-to-element in the RSNXE (sae_pwe 1
	// or 2); it means nothing without AKM SAE.
	SAEH2E bool
	// SAERequireMFP refuses SAE stations without MFPC when ieee80211w=1
	// (sae_require_mfp), with status 31.
	SAERequireMFP bool
}

// DefaultPolicy is hostapd's wpa=2 with WPA-PSK and CCMP.
func DefaultPolicy() Policy {
	return Policy{Group: CipherCCMP, Pairwise: []Cipher{CipherCCMP}, AKMs: []AKM{AKMPSK},
		GroupMgmt: CipherBIPCMAC128, WMM: true}
}

// Check refuses a policy with a suite this package does not implement,
// naming it: TKIP and GCMP among the ciphers, any AKM but the two PSK
// ones and SAE.
func (p Policy) Check() error {
	if p.Group != CipherCCMP {
		return fmt.Errorf("rsn: group cipher %v is not supported (only CCMP)", p.Group)
	}
	if len(p.Pairwise) == 0 {
		return errors.New("rsn: rsn_pairwise is empty")
	}
	for _, c := range p.Pairwise {
		if c != CipherCCMP {
			return fmt.Errorf("rsn: rsn_pairwise %v is not supported (only CCMP)", c)
		}
	}
	if len(p.AKMs) == 0 {
		return errors.New("rsn: wpa_key_mgmt is empty")
	}
	for _, a := range p.AKMs {
		if a != AKMPSK && a != AKMPSKSHA256 && a != AKMSAE {
			return fmt.Errorf("rsn: wpa_key_mgmt %v is not supported (WPA-PSK, WPA-PSK-SHA256, SAE)", a)
		}
	}
	if p.MFP > MFPRequired {
		return fmt.Errorf("rsn: ieee80211w %d is not 0, 1 or 2", p.MFP)
	}
	if p.MFP != MFPDisabled && p.GroupMgmt != CipherBIPCMAC128 {
		return fmt.Errorf("rsn: group_mgmt_cipher %v is not supported (only AES-128-CMAC)", p.GroupMgmt)
	}
	if p.ExtendedKeyID < 0 || p.ExtendedKeyID > 2 {
		return fmt.Errorf("rsn: extended_key_id %d is not 0, 1 or 2", p.ExtendedKeyID)
	}
	return nil
}

// akmOrder is the order hostapd writes AKMs into its RSNE.
var akmOrder = []AKM{AKM8021X, AKMPSK, AKMFT8021X, AKMFTPSK, AKM8021XSHA256, AKMPSKSHA256, AKMSAE, AKMFTSAE}

// akmPreference is the order in which hostapd's wpa_validate_wpa_ie picks a
// station's AKM when it offers several (the PSK ones and SAE): a station
// offering WPA-PSK and SAE on a transition BSS gets SAE.
var akmPreference = []AKM{AKMPSKSHA256, AKMSAE, AKMPSK}

// pairwisePreference is hostapd's wpa_pick_pairwise_cipher order.
var pairwisePreference = []Cipher{CipherCCMP256, CipherGCMP256, CipherCCMP, CipherGCMP128, CipherTKIP}

// Element returns the AP's RSN element, as hostapd's wpa_write_rsn_ie lays
// it out for the beacon, probe responses and message 3.
func (p Policy) Element() []byte {
	e := Element{Version: Version, Group: p.Group, Last: FieldCaps}
	for _, c := range pairwisePreference {
		if slices.Contains(p.Pairwise, c) {
			e.Pairwise = append(e.Pairwise, c)
		}
	}
	for _, a := range akmOrder {
		if slices.Contains(p.AKMs, a) {
			e.AKMs = append(e.AKMs, a)
		}
	}
	if p.WMM {
		e.Caps |= CapPTKSAReplay16
	}
	switch p.MFP {
	case MFPRequired:
		e.Caps |= CapMFPC | CapMFPR
	case MFPOptional:
		e.Caps |= CapMFPC
	}
	if p.ExtendedKeyID != 0 {
		e.Caps |= CapExtKeyID
	}
	if p.MFP != MFPDisabled && p.GroupMgmt != CipherBIPCMAC128 {
		e.Last = FieldGroupMgmt
		e.GroupMgmt = p.GroupMgmt
	}
	return e.Append(nil)
}

// RSNX capability bits (802.11-2020 9.4.2.241): the low four bits carry
// the field's length less one.
const rsnxCapSAEH2E = 1 << 5

// RSNXElement returns the AP's RSN Extension element, or nil when it has
// no capability to announce, as hostapd's wpa_write_rsnxe: the SAE
// hash-to-element bit with AKM SAE and sae_pwe 1 or 2.
func (p Policy) RSNXElement() []byte {
	if !p.SAEH2E || !slices.Contains(p.AKMs, AKMSAE) {
		return nil
	}
	return []byte{ElemRSNX, 1, rsnxCapSAEH2E}
}

// RSNXH2E reports whether an RSNXE (ID and length included, or nil)
// announces SAE hash-to-element.
func RSNXH2E(rsnxe []byte) bool {
	return len(rsnxe) >= 3 && rsnxe[0] == ElemRSNX && rsnxe[1] >= 1 && rsnxe[2]&rsnxCapSAEH2E != 0
}

// Negotiated is what a station's RSN element settles with the policy.
type Negotiated struct {
	AKM       AKM
	Pairwise  Cipher
	Group     Cipher
	GroupMgmt Cipher // meaningful when MFP
	MFP       bool   // management frames are protected with this station
	ExtKeyID  bool   // Extended Key ID for individually addressed frames
	KeyID     uint8  // the first pairwise key ID: 0, or 1 with extended_key_id=2
	PMKIDs    []PMKID
	RSNE      []byte // the station's element, compared with message 2's
}

// Validate answers a station's RSN element (ID and length included) from
// an association request as hostapd 2.10's wpa_validate_wpa_ie, mapped by
// wpa_res_to_status_code: 40 for no or a malformed element (a bad version,
// a bad count, an invalid group or group management selector, CMAC as
// pairwise), 41 for another group cipher, 43 for no AKM in common, 42 for
// no pairwise cipher in common, and with ieee80211w=2 31 when the station
// lacks MFPC and 46 for another group management cipher; with
// ieee80211w=1 and sae_require_mfp, 31 for an SAE station without MFPC.
// The PMKIDs are the caller's to look up (an SAE station's must be in
// the PMKSA cache, else 53).
func (p Policy) Validate(rsne []byte) (Negotiated, uint16) {
	var n Negotiated
	if len(rsne) == 0 {
		return n, ieee80211.StatusInvalidIE
	}
	e, err := ParseElement(rsne)
	if err != nil || !validGroup(e.GroupCipher()) || slices.Contains(e.PairwiseCiphers(), CipherBIPCMAC128) ||
		(e.Last >= FieldGroupMgmt && !validGroupMgmt(e.GroupMgmt)) {
		return n, ieee80211.StatusInvalidIE
	}
	if e.GroupCipher() != p.Group {
		return n, ieee80211.StatusInvalidGroupCipher
	}
	n.AKM = pick(akmPreference, e.AKMSuites(), p.AKMs)
	if n.AKM == 0 {
		return n, ieee80211.StatusInvalidAKMP
	}
	n.Pairwise = pick(pairwisePreference, e.PairwiseCiphers(), p.Pairwise)
	if n.Pairwise == 0 {
		return n, ieee80211.StatusInvalidPairwiseCipher
	}
	if p.MFP == MFPRequired {
		if e.Caps&CapMFPC == 0 {
			return n, ieee80211.StatusRobustMgmtPolicy
		}
		if e.GroupMgmtCipher() != p.GroupMgmt {
			return n, ieee80211.StatusCipherRejected
		}
	}
	if p.MFP == MFPOptional && p.SAERequireMFP && n.AKM == AKMSAE && e.Caps&CapMFPC == 0 {
		return n, ieee80211.StatusRobustMgmtPolicy
	}
	n.MFP = p.MFP != MFPDisabled && e.Caps&CapMFPC != 0
	if n.MFP && n.Pairwise == CipherTKIP {
		return n, ieee80211.StatusRobustMgmtPolicy
	}
	n.Group, n.GroupMgmt, n.PMKIDs = e.GroupCipher(), p.GroupMgmt, e.PMKIDs
	if p.ExtendedKeyID != 0 && n.Pairwise != CipherTKIP && e.Caps&CapExtKeyID != 0 {
		n.ExtKeyID = true
		if p.ExtendedKeyID == 2 {
			n.KeyID = 1
		}
	}
	n.RSNE = append([]byte(nil), rsne...)
	return n, ieee80211.StatusSuccess
}

// pick returns the first of order offered by the station and allowed by
// the policy, or 0.
func pick[S comparable](order, offered, allowed []S) S {
	var zero S
	for _, s := range order {
		if slices.Contains(offered, s) && slices.Contains(allowed, s) {
			return s
		}
	}
	return zero
}
