package bss

import (
	"encoding/binary"

	"github.com/airq/airq/rate"
)

// The HT Operation element's operation mode is the radio's, as
// hostapd keeps ht_op_mode in its hostapd_iface: a non-HT station
// associated with any BSS of the radio (one with HT turned off too)
// changes the protection every HT BSS of it announces.

// HT Operation mode bits (IEEE 802.11-2020 9.4.2.56, octets 2-3 of the
// HT Operation Information).
const (
	HTProtNone      = 0 // every station is HT, of the BSS's width
	HTProtNonMember = 1 // non-HT stations may be on the air, not ours
	HTProt20MHz     = 2 // a 20 MHz HT station in a 20/40 MHz BSS
	HTProtMixed     = 3 // a non-HT station is associated

	HTOpModeProtMask = 0x0003
	HTOpModeNonGF    = 0x0004 // HT stations that cannot receive greenfield are associated
	HTOpModeOBSSNoHT = 0x0010 // non-HT stations associated or heard on the channel
)

// HTProtection counts what the operation mode follows: the radio's
// associated stations, by what their HT allows, and the non-HT BSSes
// heard on its channel (hostapd's num_sta_no_ht, num_sta_ht_no_gf,
// num_sta_ht_20mhz and olbc_ht). Every BSS of a radio counts its
// stations in the radio's one. Intolerant40 (num_sta_ht40_intolerant)
// makes a 40 MHz radio on 2.4 GHz 20 MHz (ap's coex_run.go).
type HTProtection struct {
	NoHT         int  // associated stations without HT
	NoGF         int  // HT ones that cannot receive HT-greenfield PPDUs
	HT20         int  // HT ones limited to 20 MHz
	Intolerant40 int  // HT ones that set Forty MHz Intolerant
	NonHTBSS     bool // a BSS without HT was heard on the primary or secondary channel
}

// HTClass is what a station's HT means to the protection: its HT in use
// and, if so, what its HT Capabilities Information field lacks or asks.
type HTClass struct {
	HT, NoGF, Only20, Intolerant40 bool
}

// ClassOf is the class of a station whose HT is in use (ht) and that
// announced caps.
func ClassOf(ht bool, caps rate.Caps) HTClass {
	if !ht {
		return HTClass{}
	}
	return HTClass{HT: true, NoGF: !caps.Greenfield, Only20: !caps.HT40, Intolerant40: caps.Intolerant40}
}

// Join counts an associated station of class c; Leave undoes it.
func (p *HTProtection) Join(c HTClass)  { p.add(c, 1) }
func (p *HTProtection) Leave(c HTClass) { p.add(c, -1) }

func (p *HTProtection) add(c HTClass, n int) {
	if !c.HT {
		p.NoHT += n
		return
	}
	if c.NoGF {
		p.NoGF += n
	}
	if c.Only20 {
		p.HT20 += n
	}
	if c.Intolerant40 {
		p.Intolerant40 += n
	}
}

// With is the counts once a station of class c being admitted is
// associated too: what its association response announces (hostapd
// counts it before it answers).
func (p HTProtection) With(c HTClass) HTProtection {
	p.Join(c)
	return p
}

// OpMode is the operation mode field, by hostapd's rules
// (hostapd_ht_operation_update): mixed mode while a non-HT station is
// associated; else 20 MHz protection on a 20/40 MHz channel (width40)
// while a 20 MHz HT station is; else non-member protection while a non-HT
// BSS is heard; else none. The non-greenfield bit follows the HT stations
// that cannot receive greenfield, the OBSS bit the non-HT stations and
// BSSes.
func (p HTProtection) OpMode(width40 bool) uint16 {
	var m uint16
	switch {
	case p.NoHT > 0:
		m = HTProtMixed
	case width40 && p.HT20 > 0:
		m = HTProt20MHz
	case p.NonHTBSS:
		m = HTProtNonMember
	}
	if p.NoGF > 0 {
		m |= HTOpModeNonGF
	}
	if p.NoHT > 0 || p.NonHTBSS {
		m |= HTOpModeOBSSNoHT
	}
	return m
}

// htOpMode is the operation mode the BSS's HT Operation element carries:
// the radio's, with a station of class c being admitted if c is not nil.
func (b *BSS) htOpMode(c *HTClass) uint16 {
	p := b.shared().HT
	if c != nil {
		p.Join(*c)
	}
	return p.OpMode(b.PHY.Width >= 40)
}

// HTClass is what s's HT means to the radio's protection.
func (s *Station) HTClass() HTClass { return ClassOf(s.HT, s.Caps) }

// htOpModeAt is where the operation mode sits in an HT Operation element:
// after its ID, length, primary channel and first octet of information.
const htOpModeAt = 4

// appendHTOper appends the HT Operation element oper (nil: none) with
// operation mode m.
func appendHTOper(b, oper []byte, m uint16) []byte {
	if oper == nil {
		return b
	}
	n := len(b) + htOpModeAt
	b = append(b, oper...)
	const field = HTOpModeProtMask | HTOpModeNonGF | HTOpModeOBSSNoHT
	binary.LittleEndian.PutUint16(b[n:], binary.LittleEndian.Uint16(b[n:])&^field|m)
	return b
}
