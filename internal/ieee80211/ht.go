package ieee80211

import "encoding/binary"

// HT Capabilities Information bits (IEEE 802.11-2020 9.4.2.55.2).
const (
	HTCapLDPC          = 0x0001 // receives LDPC-coded PPDUs
	HTCapWidth40       = 0x0002 // supported channel width set: 20 and 40 MHz
	HTCapSMPSMask      = 0x000c // SM power save mode
	HTCapSMPSStatic    = 0x0000
	HTCapSMPSDynamic   = 0x0004
	HTCapSMPSDisabled  = 0x000c
	HTCapGreenfield    = 0x0010
	HTCapSGI20         = 0x0020
	HTCapSGI40         = 0x0040
	HTCapTxSTBC        = 0x0080
	HTCapRxSTBCMask    = 0x0300 // spatial streams receivable with STBC
	HTCapDelayedBA     = 0x0400
	HTCapMaxAMSDU7935  = 0x0800 // clear: 3839 octets
	HTCapDSSSCCK40     = 0x1000 // DSSS/CCK allowed in a 40 MHz BSS
	HTCap40Intolerant  = 0x4000
	HTCapLSIGTXOPProt  = 0x8000
	htCapLen           = 26
	htOperLen          = 22
	htMCSBitmapOctets  = 10 // MCS 0-76
	htRxHighestMask    = 0x03ff
	HTTxMCSSetDefined  = 0x01 // octet 12 of the Supported MCS Set
	HTTxRxMCSNotEqual  = 0x02
	HTAMPDUMaxLenMask  = 0x03 // A-MPDU parameters: 2^(13+n)-1 octets
	HTAMPDUSpacingMask = 0x1c // minimum MPDU start spacing
)

// HT Operation Information, first octet.
const (
	HTOperSecondaryMask  = 0x03
	HTOperSecondaryNone  = 0    // SCN: no secondary channel
	HTOperSecondaryAbove = 1    // SCA: secondary 20 MHz above the primary
	HTOperSecondaryBelow = 3    // SCB: secondary 20 MHz below the primary
	HTOperAnyWidth       = 0x04 // STA channel width: any supported width
	HTOperRIFS           = 0x08
)

// HTCap is a received HT Capabilities element body, viewed in place.
type HTCap []byte

// ParseHTCap checks the length of an HT Capabilities body. Trailing octets
// beyond the 26 defined ones are tolerated and ignored, as by mac80211.
func ParseHTCap(b []byte) (HTCap, error) {
	if len(b) < htCapLen {
		return nil, ErrBody
	}
	return HTCap(b), nil
}

// HTCap returns the HT Capabilities element of e, if present and long enough.
func (e Elements) HTCap() (HTCap, bool) {
	b, ok := e.Find(ElemHTCap)
	if !ok {
		return nil, false
	}
	c, err := ParseHTCap(b)
	return c, err == nil
}

// Info returns the HT Capabilities Information field (HTCap* bits).
func (c HTCap) Info() uint16      { return binary.LittleEndian.Uint16(c) }
func (c HTCap) LDPC() bool        { return c.Info()&HTCapLDPC != 0 }
func (c HTCap) Width40() bool     { return c.Info()&HTCapWidth40 != 0 }
func (c HTCap) SGI20() bool       { return c.Info()&HTCapSGI20 != 0 }
func (c HTCap) SGI40() bool       { return c.Info()&HTCapSGI40 != 0 }
func (c HTCap) SMPS() uint16      { return c.Info() & HTCapSMPSMask }
func (c HTCap) AMPDUParams() byte { return c[2] }

// MaxAMSDU returns the longest A-MSDU the station receives: 3839 or 7935.
func (c HTCap) MaxAMSDU() int {
	if c.Info()&HTCapMaxAMSDU7935 != 0 {
		return 7935
	}
	return 3839
}

// MaxAMPDU returns the longest A-MPDU the station receives, in octets.
func (c HTCap) MaxAMPDU() int { return 1<<(13+int(c[2]&HTAMPDUMaxLenMask)) - 1 }

// MCS reports whether the station receives HT MCS i (0-76).
func (c HTCap) MCS(i int) bool {
	if i < 0 || i >= htMCSBitmapOctets*8 {
		return false
	}
	return c[3+i/8]&(1<<(i%8)) != 0
}

// MCSMask returns the receive bitmap of MCS 0-31, the equal-modulation
// rates of one to four streams: bit i is MCS i.
func (c HTCap) MCSMask() uint32 { return binary.LittleEndian.Uint32(c[3:]) }

// Streams returns the number of spatial streams the station receives: the
// highest n for which any of MCS 8(n-1)..8n-1 is supported, up to 4.
func (c HTCap) Streams() int {
	m := c.MCSMask()
	for n := 4; n > 0; n-- {
		if m>>(8*(n-1))&0xff != 0 {
			return n
		}
	}
	return 0
}

// RxHighest returns the Rx Highest Supported Data Rate in Mbit/s, 0 if the
// station does not state one.
func (c HTCap) RxHighest() uint16 { return binary.LittleEndian.Uint16(c[13:]) & htRxHighestMask }

// Spec returns every field of the element, for re-encoding or inspection.
func (c HTCap) Spec() HTCapSpec {
	s := HTCapSpec{
		Info:      c.Info(),
		AMPDU:     c[2],
		RxHighest: binary.LittleEndian.Uint16(c[13:]),
		TxMCS:     c[15],
		Ext:       binary.LittleEndian.Uint16(c[19:]),
		TxBF:      binary.LittleEndian.Uint32(c[21:]),
		ASEL:      c[25],
	}
	copy(s.RxMCS[:], c[3:13])
	copy(s.TxMCSRes[:], c[16:19])
	return s
}

// HTCapSpec holds the fields of an HT Capabilities element as they are
// encoded: AppendHTCap(Spec()) reproduces a 26-octet body exactly.
type HTCapSpec struct {
	Info      uint16   // HTCap* bits
	AMPDU     uint8    // A-MPDU parameters: HTAMPDUMaxLenMask | HTAMPDUSpacingMask
	RxMCS     [10]byte // receive bitmap, bit i = MCS i
	RxHighest uint16   // Mbit/s in bits 0-9; bits 10-15 reserved
	TxMCS     uint8    // HTTxMCSSetDefined, HTTxRxMCSNotEqual, max streams, UEQM
	TxMCSRes  [3]byte  // reserved tail of the Supported MCS Set
	Ext       uint16   // HT Extended Capabilities
	TxBF      uint32   // Transmit Beamforming Capabilities
	ASEL      uint8    // ASEL Capabilities
}

// AppendHTCap appends an HT Capabilities element.
func AppendHTCap(dst []byte, s HTCapSpec) []byte {
	dst = append(dst, ElemHTCap, htCapLen)
	dst = binary.LittleEndian.AppendUint16(dst, s.Info)
	dst = append(dst, s.AMPDU)
	dst = append(dst, s.RxMCS[:]...)
	dst = binary.LittleEndian.AppendUint16(dst, s.RxHighest)
	dst = append(dst, s.TxMCS)
	dst = append(dst, s.TxMCSRes[:]...)
	dst = binary.LittleEndian.AppendUint16(dst, s.Ext)
	dst = binary.LittleEndian.AppendUint32(dst, s.TxBF)
	return append(dst, s.ASEL)
}

// HTPHY is what the AP's radio can deliver with HT when every frame is
// injected one at a time.
type HTPHY struct {
	Streams    int  // spatial streams, 1-4
	Width40    bool // the operating channel is 40 MHz wide (or wider)
	SGI20      bool
	SGI40      bool
	LDPC       bool
	MaxAMSDU   int  // 7935 to announce long A-MSDUs; anything else means 3839
	DSSSCCK40  bool // allow DSSS/CCK in a 40 MHz BSS on 2.4 GHz
	Greenfield bool // the radio receives HT-greenfield PPDUs
	Intolerant bool // 40 MHz intolerant
}

// Cap returns the HT Capabilities airq announces. Injected frames are never
// aggregated and the AP declines every ADDBA request, so the A-MPDU
// parameters stay at their minimum (8191 octets, no spacing restriction),
// no beamforming, STBC or delayed Block Ack is claimed, and SM power save is
// disabled (the AP itself never switches receive chains off).
func (p HTPHY) Cap() HTCapSpec {
	s := HTCapSpec{Info: HTCapSMPSDisabled, TxMCS: HTTxMCSSetDefined}
	for _, f := range []struct {
		on  bool
		bit uint16
	}{{p.LDPC, HTCapLDPC}, {p.Width40, HTCapWidth40}, {p.SGI20, HTCapSGI20}, {p.Width40 && p.SGI40, HTCapSGI40},
		{p.MaxAMSDU == 7935, HTCapMaxAMSDU7935}, {p.Width40 && p.DSSSCCK40, HTCapDSSSCCK40},
		{p.Greenfield, HTCapGreenfield}, {p.Intolerant, HTCap40Intolerant}} {
		if f.on {
			s.Info |= f.bit
		}
	}
	n := min(max(p.Streams, 1), 4)
	for i := range n {
		s.RxMCS[i] = 0xff
	}
	return s
}

// HTOper is a received HT Operation element body, viewed in place.
type HTOper []byte

// ParseHTOper checks the length of an HT Operation body.
func ParseHTOper(b []byte) (HTOper, error) {
	if len(b) < htOperLen {
		return nil, ErrBody
	}
	return HTOper(b), nil
}

// HTOper returns the HT Operation element of e, if present and long enough.
func (e Elements) HTOper() (HTOper, bool) {
	b, ok := e.Find(ElemHTOper)
	if !ok {
		return nil, false
	}
	o, err := ParseHTOper(b)
	return o, err == nil
}

func (o HTOper) PrimaryChannel() uint8 { return o[0] }

// SecondaryOffset returns HTOperSecondaryNone, Above or Below (2 is
// reserved and returned as is).
func (o HTOper) SecondaryOffset() uint8 { return o[1] & HTOperSecondaryMask }

// AnyWidth reports the STA Channel Width bit: the AP may send 40 MHz PPDUs.
func (o HTOper) AnyWidth() bool { return o[1]&HTOperAnyWidth != 0 }

// Protection returns the HT Protection mode (0-3) of the second and third
// octets of the HT Operation Information.
func (o HTOper) Protection() uint8 { return o[2] & 0x03 }

// OpMode returns the HT Protection mode and the Nongreenfield HT STAs
// Present and OBSS Non-HT STAs Present bits (bits 0-2 and 4) of the second and
// third octets of the HT Operation Information.
func (o HTOper) OpMode() uint16 { return binary.LittleEndian.Uint16(o[2:]) & 0x0017 }

// CCFS2 returns Channel Center Frequency Segment 2 (160/80+80 MHz
// interoperability with VHT stations that read it from here).
func (o HTOper) CCFS2() uint8 { return uint8(binary.LittleEndian.Uint16(o[2:]) >> 5) }

// Spec returns every field of the element.
func (o HTOper) Spec() HTOperSpec {
	s := HTOperSpec{Primary: o[0]}
	copy(s.Info[:], o[1:6])
	copy(s.BasicMCS[:], o[6:22])
	return s
}

// HTOperSpec holds the fields of an HT Operation element as encoded.
type HTOperSpec struct {
	Primary  uint8
	Info     [5]byte  // HT Operation Information (HTOper* bits in Info[0])
	BasicMCS [16]byte // Basic HT-MCS Set
}

// NewHTOper returns the HT Operation of a BSS on primary channel primary.
// secondary is HTOperSecondaryAbove or Below for a 40 MHz channel and
// HTOperSecondaryNone for 20 MHz; the STA Channel Width bit follows it.
// Protection, RIFS and the basic MCS set stay zero: airq sends no RIFS
// bursts and requires no MCS of its stations.
func NewHTOper(primary, secondary uint8) HTOperSpec {
	s := HTOperSpec{Primary: primary}
	s.Info[0] = secondary & HTOperSecondaryMask
	if s.Info[0] != HTOperSecondaryNone {
		s.Info[0] |= HTOperAnyWidth
	}
	return s
}

// AppendHTOper appends an HT Operation element.
func AppendHTOper(dst []byte, s HTOperSpec) []byte {
	dst = append(dst, ElemHTOper, htOperLen, s.Primary)
	dst = append(dst, s.Info[:]...)
	return append(dst, s.BasicMCS[:]...)
}
