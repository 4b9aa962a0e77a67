package ieee80211

import "encoding/binary"

// VHT Capabilities Information bits (IEEE 802.11-2020 9.4.2.157.2).
const (
	VHTCapMaxMPDUMask      = 0x00000003 // 0: 3895, 1: 7991, 2: 11454 octets
	VHTCapMaxMPDU7991      = 0x00000001
	VHTCapMaxMPDU11454     = 0x00000002
	VHTCapWidthMask        = 0x0000000c // supported channel width set
	VHTCapWidth160         = 0x00000004 // 160 MHz
	VHTCapWidth160And80P80 = 0x00000008 // 160 and 80+80 MHz
	VHTCapRxLDPC           = 0x00000010
	VHTCapSGI80            = 0x00000020
	VHTCapSGI160           = 0x00000040
	VHTCapTxSTBC           = 0x00000080
	VHTCapRxSTBCMask       = 0x00000700
	VHTCapSUBeamformer     = 0x00000800
	VHTCapSUBeamformee     = 0x00001000
	VHTCapMUBeamformer     = 0x00080000
	VHTCapMUBeamformee     = 0x00100000
	VHTCapMaxAMPDUShift    = 23 // 3 bits: 2^(13+n)-1 octets
	VHTCapExtNSSBWShift    = 30 // 2 bits
	vhtCapLen              = 12
	vhtOperLen             = 5
)

// VHT MCS map values, two bits per spatial stream.
const (
	VHTMCS07   = 0 // MCS 0-7
	VHTMCS08   = 1 // MCS 0-8
	VHTMCS09   = 2 // MCS 0-9
	VHTMCSNone = 3 // stream not supported
)

// VHT Operation channel widths.
const (
	VHTOperWidth20or40 = 0 // the width comes from HT Operation
	VHTOperWidth80     = 1 // 80, 160 or 80+80 MHz (CCFS1 tells)
	VHTOperWidth160    = 2 // deprecated encoding of 160 MHz
	VHTOperWidth80P80  = 3 // deprecated encoding of 80+80 MHz
)

// VHTCap is a received VHT Capabilities element body, viewed in place.
type VHTCap []byte

// ParseVHTCap checks the length of a VHT Capabilities body.
func ParseVHTCap(b []byte) (VHTCap, error) {
	if len(b) < vhtCapLen {
		return nil, ErrBody
	}
	return VHTCap(b), nil
}

// VHTCap returns the VHT Capabilities element of e, if present and long
// enough.
func (e Elements) VHTCap() (VHTCap, bool) {
	b, ok := e.Find(ElemVHTCap)
	if !ok {
		return nil, false
	}
	c, err := ParseVHTCap(b)
	return c, err == nil
}

// Info returns the VHT Capabilities Information field (VHTCap* bits).
func (c VHTCap) Info() uint32 { return binary.LittleEndian.Uint32(c) }
func (c VHTCap) LDPC() bool   { return c.Info()&VHTCapRxLDPC != 0 }
func (c VHTCap) SGI80() bool  { return c.Info()&VHTCapSGI80 != 0 }
func (c VHTCap) SGI160() bool { return c.Info()&VHTCapSGI160 != 0 }

// MaxMPDU returns the longest MPDU the station receives: 3895, 7991 or
// 11454 octets (the reserved value 3 reads as the smallest).
func (c VHTCap) MaxMPDU() int {
	switch c.Info() & VHTCapMaxMPDUMask {
	case VHTCapMaxMPDU7991:
		return 7991
	case VHTCapMaxMPDU11454:
		return 11454
	}
	return 3895
}

// MaxWidth returns the widest channel the station supports in MHz: 80, or
// 160 when the supported channel width set (or Extended NSS BW support,
// which lets a station do 160 MHz at reduced NSS) says so.
func (c VHTCap) MaxWidth() int {
	if c.Info()&VHTCapWidthMask != 0 || c.Info()>>VHTCapExtNSSBWShift != 0 {
		return 160
	}
	return 80
}

// RxMCSMap returns the Rx VHT-MCS Map: two bits per stream, stream 1 lowest.
func (c VHTCap) RxMCSMap() uint16 { return binary.LittleEndian.Uint16(c[4:]) }

// TxMCSMap returns the Tx VHT-MCS Map.
func (c VHTCap) TxMCSMap() uint16 { return binary.LittleEndian.Uint16(c[8:]) }

// RxMaxMCS returns the highest VHT MCS the station receives with nss
// streams (1-8), or -1 if it does not receive that many.
func (c VHTCap) RxMaxMCS(nss int) int { return VHTMapMaxMCS(c.RxMCSMap(), nss) }

// RxHighest returns the Rx Highest Supported Long GI Data Rate in Mbit/s,
// 0 if not stated.
func (c VHTCap) RxHighest() uint16 { return binary.LittleEndian.Uint16(c[6:]) & 0x1fff }

// VHTMapMaxMCS decodes one stream of a VHT-MCS map: the highest MCS for
// nss streams (1-8), or -1 if that stream count is not supported.
func VHTMapMaxMCS(m uint16, nss int) int {
	if nss < 1 || nss > 8 {
		return -1
	}
	switch m >> (2 * (nss - 1)) & 3 {
	case VHTMCS07:
		return 7
	case VHTMCS08:
		return 8
	case VHTMCS09:
		return 9
	}
	return -1
}

// VHTMap returns the VHT-MCS map of nss streams (0-8) each with MCS 0-9.
func VHTMap(nss int) uint16 {
	m := uint16(0xffff)
	for i := range min(max(nss, 0), 8) {
		m &^= VHTMCSNone << (2 * i)
		m |= VHTMCS09 << (2 * i)
	}
	return m
}

// Spec returns every field of the element.
func (c VHTCap) Spec() VHTCapSpec {
	return VHTCapSpec{
		Info:      c.Info(),
		RxMCSMap:  c.RxMCSMap(),
		RxHighest: binary.LittleEndian.Uint16(c[6:]),
		TxMCSMap:  c.TxMCSMap(),
		TxHighest: binary.LittleEndian.Uint16(c[10:]),
	}
}

// VHTCapSpec holds the fields of a VHT Capabilities element as encoded:
// AppendVHTCap(Spec()) reproduces a 12-octet body exactly.
type VHTCapSpec struct {
	Info      uint32 // VHTCap* bits
	RxMCSMap  uint16
	RxHighest uint16 // Mbit/s in bits 0-12, Max NSTS Total in 13-15
	TxMCSMap  uint16
	TxHighest uint16 // Mbit/s in bits 0-12, Extended NSS BW Capable in bit 13
}

// AppendVHTCap appends a VHT Capabilities element.
func AppendVHTCap(dst []byte, s VHTCapSpec) []byte {
	dst = append(dst, ElemVHTCap, vhtCapLen)
	dst = binary.LittleEndian.AppendUint32(dst, s.Info)
	dst = binary.LittleEndian.AppendUint16(dst, s.RxMCSMap)
	dst = binary.LittleEndian.AppendUint16(dst, s.RxHighest)
	dst = binary.LittleEndian.AppendUint16(dst, s.TxMCSMap)
	return binary.LittleEndian.AppendUint16(dst, s.TxHighest)
}

// VHTPHY is what the AP's radio can deliver with VHT when every frame is
// injected one at a time.
type VHTPHY struct {
	Streams int  // spatial streams, 1-8
	Width   int  // operating channel width in MHz: 20, 40, 80 or 160
	SGI80   bool // short GI at 80 MHz
	SGI160  bool // short GI at 160 MHz
	LDPC    bool
	// MaxMPDU is the longest MPDU the AP receives: 7991 or 11454 octets
	// (hostapd's [MAX-MPDU-7991], [MAX-MPDU-11454]); anything else means
	// 3895.
	MaxMPDU int
}

// Cap returns the VHT Capabilities airq announces: MaxMPDU's maximum MPDU
// length, 160 MHz only on a 160 MHz channel, no STBC, no beamforming, no
// +HTC or link adaptation, and the smallest A-MPDU exponent since the AP
// declines ADDBA. The MCS maps announce MCS 0-9 for every stream on both
// sides.
func (p VHTPHY) Cap() VHTCapSpec {
	var s VHTCapSpec
	switch p.MaxMPDU {
	case 7991:
		s.Info |= VHTCapMaxMPDU7991
	case 11454:
		s.Info |= VHTCapMaxMPDU11454
	}
	if p.LDPC {
		s.Info |= VHTCapRxLDPC
	}
	if p.SGI80 && p.Width >= 80 {
		s.Info |= VHTCapSGI80
	}
	if p.Width >= 160 {
		s.Info |= VHTCapWidth160
		if p.SGI160 {
			s.Info |= VHTCapSGI160
		}
	}
	m := VHTMap(min(max(p.Streams, 1), 8))
	s.RxMCSMap, s.TxMCSMap = m, m
	return s
}

// VHTOper is a received VHT Operation element body, viewed in place.
type VHTOper []byte

// ParseVHTOper checks the length of a VHT Operation body.
func ParseVHTOper(b []byte) (VHTOper, error) {
	if len(b) < vhtOperLen {
		return nil, ErrBody
	}
	return VHTOper(b), nil
}

// VHTOper returns the VHT Operation element of e, if present and long
// enough.
func (e Elements) VHTOper() (VHTOper, bool) {
	b, ok := e.Find(ElemVHTOper)
	if !ok {
		return nil, false
	}
	o, err := ParseVHTOper(b)
	return o, err == nil
}

func (o VHTOper) ChannelWidth() uint8 { return o[0] }
func (o VHTOper) CCFS0() uint8        { return o[1] }
func (o VHTOper) CCFS1() uint8        { return o[2] }
func (o VHTOper) BasicMCSMap() uint16 { return binary.LittleEndian.Uint16(o[3:]) }

// Width returns the BSS bandwidth in MHz that the element describes: 80 or
// 160 (both encodings), or 0 when the HT Operation decides (20/40 MHz).
// 80+80 counts as 160.
func (o VHTOper) Width() int {
	switch o.ChannelWidth() {
	case VHTOperWidth20or40:
		return 0
	case VHTOperWidth80:
		d := int(o.CCFS1()) - int(o.CCFS0())
		if o.CCFS1() != 0 && (d == 8 || d == -8 || d > 16 || d < -16) {
			return 160
		}
		return 80
	case VHTOperWidth160, VHTOperWidth80P80:
		return 160
	}
	return 0
}

// Spec returns every field of the element.
func (o VHTOper) Spec() VHTOperSpec {
	return VHTOperSpec{Width: o[0], CCFS0: o[1], CCFS1: o[2], BasicMCSMap: o.BasicMCSMap()}
}

// VHTOperSpec holds the fields of a VHT Operation element as encoded.
type VHTOperSpec struct {
	Width       uint8 // VHTOperWidth*
	CCFS0       uint8
	CCFS1       uint8
	BasicMCSMap uint16
}

// NewVHTOper returns the VHT Operation of a BSS of width MHz whose channel
// (all of it, not the primary 20 MHz) is centred on channel number center.
// A 160 MHz channel uses the current encoding (width 1, CCFS0 the centre of
// the 80 MHz segment holding primary, CCFS1 the 160 MHz centre), which older
// stations also read correctly as 80 MHz. The basic map requires MCS 0-7 of
// one stream, the least a VHT station must support.
func NewVHTOper(width int, primary, center uint8) VHTOperSpec {
	s := VHTOperSpec{BasicMCSMap: 0xfffc}
	switch {
	case width >= 160:
		s.Width, s.CCFS1, s.CCFS0 = VHTOperWidth80, center, center+8
		if primary < center {
			s.CCFS0 = center - 8
		}
	case width == 80:
		s.Width, s.CCFS0 = VHTOperWidth80, center
	}
	return s
}

// AppendVHTOper appends a VHT Operation element.
func AppendVHTOper(dst []byte, s VHTOperSpec) []byte {
	dst = append(dst, ElemVHTOper, vhtOperLen, s.Width, s.CCFS0, s.CCFS1)
	return binary.LittleEndian.AppendUint16(dst, s.BasicMCSMap)
}
