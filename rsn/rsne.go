package rsn

import (
	"encoding/binary"
	"errors"

	"github.com/airq/airq/internal/ieee80211"
)

// Field names the optional fields of an RSN element in their order; an
// element that carries one carries all before it.
type Field uint8

const (
	FieldNone      Field = iota // version only
	FieldGroup                  // Group Data Cipher Suite
	FieldPairwise               // Pairwise Cipher Suite Count and List
	FieldAKM                    // AKM Suite Count and List
	FieldCaps                   // RSN Capabilities
	FieldPMKID                  // PMKID Count and List
	FieldGroupMgmt              // Group Management Cipher Suite
)

// RSN Capabilities bits (802.11-2020 9.4.2.24.4).
const (
	CapPreauth       = 0x0001
	CapNoPairwise    = 0x0002
	CapPTKSAReplay16 = 0x000c // 16 PTKSA replay counters (WMM)
	CapGTKSAReplay16 = 0x0030
	CapMFPR          = 0x0040
	CapMFPC          = 0x0080
	CapSPPAMSDUCap   = 0x0400
	CapSPPAMSDUReq   = 0x0800
	CapExtKeyID      = 0x2000 // Extended Key ID for Individually Addressed Frames
	CapOCVC          = 0x4000
)

// Version is the only RSN version.
const Version = 1

// Element is a decoded RSN element. Fields beyond Last are absent and the
// defaults of 9.4.2.24 apply (GroupCipher and the other accessors return
// them); Extra keeps octets after the last known field, which hostapd
// ignores.
type Element struct {
	Version   uint16
	Group     Cipher
	Pairwise  []Cipher
	AKMs      []AKM
	Caps      uint16
	PMKIDs    []PMKID
	GroupMgmt Cipher
	Last      Field
	Extra     []byte
}

// Errors of ParseElement; all of them make hostapd answer status 40.
var (
	ErrElementID  = errors.New("rsn: not an RSN element")
	ErrLength     = errors.New("rsn: RSN element length does not match")
	ErrVersion    = errors.New("rsn: unknown RSN version")
	ErrTruncated  = errors.New("rsn: RSN element field truncated")
	ErrSuiteCount = errors.New("rsn: suite count is zero or exceeds the element")
	ErrPMKIDCount = errors.New("rsn: PMKID count exceeds the element")
)

// ParseElement decodes an RSN element, ID and length octets included,
// with the structural checks of hostapd's wpa_parse_wpa_ie_rsn: version 1,
// counts that fit and are not zero, no field cut short. Selector values
// are not judged here (Policy.Validate does).
func ParseElement(b []byte) (Element, error) {
	var e Element
	if len(b) < 4 || b[0] != ieee80211.ElemRSN {
		if len(b) >= 2 && b[0] != ieee80211.ElemRSN {
			return e, ErrElementID
		}
		return e, ErrTruncated
	}
	if int(b[1]) != len(b)-2 {
		return e, ErrLength
	}
	e.Version = binary.LittleEndian.Uint16(b[2:])
	if e.Version != Version {
		return e, ErrVersion
	}
	p := b[4:]
	if len(p) == 0 {
		return e, nil
	}
	if len(p) < 4 {
		return e, ErrTruncated
	}
	e.Group, p, e.Last = Cipher(binary.BigEndian.Uint32(p)), p[4:], FieldGroup
	if len(p) == 0 {
		return e, nil
	}
	sel, p, err := suiteList(p)
	if err != nil {
		return e, err
	}
	for _, s := range sel {
		e.Pairwise = append(e.Pairwise, Cipher(s))
	}
	e.Last = FieldPairwise
	if len(p) == 0 {
		return e, nil
	}
	sel, p, err = suiteList(p)
	if err != nil {
		return e, err
	}
	for _, s := range sel {
		e.AKMs = append(e.AKMs, AKM(s))
	}
	e.Last = FieldAKM
	if len(p) < 2 {
		return e.withExtra(p), nil // hostapd ignores one octet here
	}
	e.Caps, p, e.Last = binary.LittleEndian.Uint16(p), p[2:], FieldCaps
	if len(p) < 2 {
		return e.withExtra(p), nil
	}
	n := int(binary.LittleEndian.Uint16(p))
	if n > (len(p)-2)/16 {
		return e, ErrPMKIDCount
	}
	for i := 0; i < n; i++ {
		var id PMKID
		copy(id[:], p[2+16*i:])
		e.PMKIDs = append(e.PMKIDs, id)
	}
	p, e.Last = p[2+16*n:], FieldPMKID
	if len(p) < 4 {
		return e.withExtra(p), nil
	}
	e.GroupMgmt, p, e.Last = Cipher(binary.BigEndian.Uint32(p)), p[4:], FieldGroupMgmt
	return e.withExtra(p), nil
}

func (e Element) withExtra(p []byte) Element {
	if len(p) > 0 {
		e.Extra = append([]byte(nil), p...)
	}
	return e
}

// suiteList reads a count and that many selectors.
func suiteList(p []byte) ([]uint32, []byte, error) {
	if len(p) < 2 {
		return nil, p, ErrTruncated
	}
	n := int(binary.LittleEndian.Uint16(p))
	p = p[2:]
	if n == 0 || n > len(p)/4 {
		return nil, p, ErrSuiteCount
	}
	s := make([]uint32, n)
	for i := range s {
		s[i] = binary.BigEndian.Uint32(p[4*i:])
	}
	return s, p[4*n:], nil
}

// GroupCipher returns the group data cipher, CCMP when absent (hostapd's
// default outside 60 GHz).
func (e Element) GroupCipher() Cipher {
	if e.Last < FieldGroup {
		return CipherCCMP
	}
	return e.Group
}

// PairwiseCiphers returns the pairwise ciphers, CCMP when absent.
func (e Element) PairwiseCiphers() []Cipher {
	if e.Last < FieldPairwise {
		return []Cipher{CipherCCMP}
	}
	return e.Pairwise
}

// AKMSuites returns the AKMs, 802.1X when absent (9.4.2.24.3).
func (e Element) AKMSuites() []AKM {
	if e.Last < FieldAKM {
		return []AKM{AKM8021X}
	}
	return e.AKMs
}

// GroupMgmtCipher returns the group management cipher, BIP-CMAC-128 when
// absent (9.4.2.24.2).
func (e Element) GroupMgmtCipher() Cipher {
	if e.Last < FieldGroupMgmt {
		return CipherBIPCMAC128
	}
	return e.GroupMgmt
}

// Append encodes e, ID and length included, with the fields up to Last and
// Extra, so a parsed element encodes back to its own bytes.
func (e Element) Append(dst []byte) []byte {
	start := len(dst)
	dst = append(dst, ieee80211.ElemRSN, 0)
	dst = binary.LittleEndian.AppendUint16(dst, e.Version)
	if e.Last >= FieldGroup {
		dst = binary.BigEndian.AppendUint32(dst, uint32(e.Group))
	}
	if e.Last >= FieldPairwise {
		dst = binary.LittleEndian.AppendUint16(dst, uint16(len(e.Pairwise)))
		for _, c := range e.Pairwise {
			dst = binary.BigEndian.AppendUint32(dst, uint32(c))
		}
	}
	if e.Last >= FieldAKM {
		dst = binary.LittleEndian.AppendUint16(dst, uint16(len(e.AKMs)))
		for _, a := range e.AKMs {
			dst = binary.BigEndian.AppendUint32(dst, uint32(a))
		}
	}
	if e.Last >= FieldCaps {
		dst = binary.LittleEndian.AppendUint16(dst, e.Caps)
	}
	if e.Last >= FieldPMKID {
		dst = binary.LittleEndian.AppendUint16(dst, uint16(len(e.PMKIDs)))
		for _, id := range e.PMKIDs {
			dst = append(dst, id[:]...)
		}
	}
	if e.Last >= FieldGroupMgmt {
		dst = binary.BigEndian.AppendUint32(dst, uint32(e.GroupMgmt))
	}
	dst = append(dst, e.Extra...)
	dst[start+1] = byte(len(dst) - start - 2)
	return dst
}
