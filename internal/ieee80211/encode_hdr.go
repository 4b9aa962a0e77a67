package ieee80211

import "encoding/binary"

// All encoders append to dst and allocate only when dst lacks capacity.

// fc builds a Frame Control value.
func fc(typ, subtype uint8, flags uint16) uint16 {
	return uint16(typ)<<2 | uint16(subtype)<<4 | flags
}

func appendLE16(dst []byte, v uint16) []byte { return binary.LittleEndian.AppendUint16(dst, v) }

// AppendMgmtHeader appends a 24-byte management header: Addr1 = da,
// Addr2 = sa, Addr3 = bssid, duration 0 (mac80211 fills it in).
func AppendMgmtHeader(dst []byte, subtype uint8, da, sa, bssid MAC, seq uint16) []byte {
	dst = appendLE16(dst, fc(TypeMgmt, subtype, 0))
	dst = appendLE16(dst, 0)
	dst = append(dst, da[:]...)
	dst = append(dst, sa[:]...)
	dst = append(dst, bssid[:]...)
	return appendLE16(dst, seq<<4)
}

// DataHeader describes the header of a data frame.
type DataHeader struct {
	Flags    uint16 // FC flag bits: FCToDS, FCFromDS, FCPwrMgt, FCMoreData, FCRetry, FCProtected, FCOrder
	Duration uint16
	Addr1    MAC
	Addr2    MAC
	Addr3    MAC
	Addr4    MAC // written only when both FCToDS and FCFromDS are set
	Seq      uint16
	Frag     uint8
	QoS      bool  // QoS subtype with a QoS Control field
	TID      uint8 // QoS only
	AMSDU    bool  // QoS only: the body is an A-MSDU
	EOSP     bool  // QoS only: end of a U-APSD service period
	NoAck    bool  // QoS only: ack policy "no ack"
	Null     bool  // Null / QoS Null: no payload
}

// Len returns the length of the header AppendDataHeader writes for h.
func (h DataHeader) Len() int {
	n := DataHeaderLen
	if h.Flags&(FCToDS|FCFromDS) == FCToDS|FCFromDS {
		n += 6
	}
	if h.QoS {
		n += qosControlLen
		if h.Flags&FCOrder != 0 {
			n += htControlLen
		}
	}
	return n
}

// subtype returns the data subtype h describes.
func (h DataHeader) subtype() uint8 {
	var s uint8 = SubtypeData
	if h.QoS {
		s |= SubtypeQoSData
	}
	if h.Null {
		s |= SubtypeNull
	}
	return s
}

// AppendDataHeader appends a data frame header. On QoS frames the Order bit
// announces an HT Control field, written as zeros.
func AppendDataHeader(dst []byte, h DataHeader) []byte {
	flags := h.Flags
	dst = appendLE16(dst, fc(TypeData, h.subtype(), flags))
	dst = appendLE16(dst, h.Duration)
	dst = append(dst, h.Addr1[:]...)
	dst = append(dst, h.Addr2[:]...)
	dst = append(dst, h.Addr3[:]...)
	dst = appendLE16(dst, h.Seq<<4|uint16(h.Frag&15))
	if flags&(FCToDS|FCFromDS) == FCToDS|FCFromDS {
		dst = append(dst, h.Addr4[:]...)
	}
	if !h.QoS {
		return dst
	}
	qc := uint16(h.TID & QoSTIDMask)
	if h.AMSDU {
		qc |= QoSAMSDU
	}
	if h.EOSP {
		qc |= QoSEOSP
	}
	if h.NoAck {
		qc |= QoSNoAck
	}
	dst = appendLE16(dst, qc)
	if flags&FCOrder != 0 {
		dst = append(dst, 0, 0, 0, 0) // HT Control
	}
	return dst
}

// AppendPSPoll appends a PS-Poll from a station: the AID with its two high
// bits set, as 802.11 requires, RA = bssid, TA = sta.
func AppendPSPoll(dst []byte, aid uint16, bssid, sta MAC) []byte {
	dst = appendLE16(dst, fc(TypeCtrl, SubtypePSPoll, FCPwrMgt))
	dst = appendLE16(dst, aid&AIDMask|0xc000)
	dst = append(dst, bssid[:]...)
	return append(dst, sta[:]...)
}

// AppendNullData appends a Null data frame from a station to its AP; the PM
// bit tells the AP whether the station is about to doze.
func AppendNullData(dst []byte, bssid, sta MAC, seq uint16, pm bool) []byte {
	h := DataHeader{Flags: FCToDS, Addr1: bssid, Addr2: sta, Addr3: bssid, Seq: seq, Null: true}
	if pm {
		h.Flags |= FCPwrMgt
	}
	return AppendDataHeader(dst, h)
}

// AppendACK appends an ACK to ra.
func AppendACK(dst []byte, ra MAC) []byte {
	dst = appendLE16(dst, fc(TypeCtrl, SubtypeACK, 0))
	dst = appendLE16(dst, 0)
	return append(dst, ra[:]...)
}
