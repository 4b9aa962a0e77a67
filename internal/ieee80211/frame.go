package ieee80211

import "encoding/binary"

// Frame is an 802.11 MAC frame (header and body, without FCS) viewed in
// place. Build one with ParseFrame, which checks that the header the Frame
// Control field announces is all there; the accessors then never read past
// it.
type Frame []byte

// Minimum lengths of the fixed parts.
const (
	MgmtHeaderLen = 24
	DataHeaderLen = 24
	ctrlShortLen  = 10 // ACK, CTS: FC, duration, RA
	ctrlLongLen   = 16 // RTS, PS-Poll, BAR, BA, CF-End: + TA
	htControlLen  = 4
	qosControlLen = 2
)

// ParseFrame checks b as an 802.11 frame and returns it as a Frame. b must not
// include an FCS (strip it when the radiotap FLAGS say it is there).
func ParseFrame(b []byte) (Frame, error) {
	if len(b) < ctrlShortLen {
		return nil, ErrShort
	}
	if b[0]&3 != 0 {
		return nil, ErrVersion
	}
	f := Frame(b)
	if f.Type() == TypeExt {
		return nil, ErrFrameType
	}
	if len(b) < f.HeaderLen() {
		return nil, ErrShort
	}
	return f, nil
}

// HeaderLen returns the length of the MAC header the Frame Control field
// announces, as Linux's ieee80211_hdrlen computes it: +6 for a fourth
// address, +2 for QoS Control, +4 for HT Control (Order bit on QoS data and
// on management frames).
func (f Frame) HeaderLen() int {
	switch f.Type() {
	case TypeMgmt:
		if f.Order() {
			return MgmtHeaderLen + htControlLen
		}
		return MgmtHeaderLen
	case TypeCtrl:
		if s := f.Subtype(); s == SubtypeACK || s == SubtypeCTS {
			return ctrlShortLen
		}
		return ctrlLongLen
	case TypeData:
		n := DataHeaderLen
		if f.ToDS() && f.FromDS() {
			n += 6
		}
		if f.IsQoS() {
			n += qosControlLen
			if f.Order() {
				n += htControlLen
			}
		}
		return n
	}
	return DataHeaderLen
}

// FC returns the Frame Control field as a little-endian 16-bit value.
func (f Frame) FC() uint16 { return binary.LittleEndian.Uint16(f) }

// Type returns TypeMgmt, TypeCtrl, TypeData or TypeExt.
func (f Frame) Type() uint8 { return f[0] >> 2 & 3 }

// Subtype returns the subtype within the frame's type.
func (f Frame) Subtype() uint8 { return f[0] >> 4 }

// Is reports whether the frame has type t and subtype s.
func (f Frame) Is(t, s uint8) bool { return f.Type() == t && f.Subtype() == s }

func (f Frame) ToDS() bool      { return f.FC()&FCToDS != 0 }
func (f Frame) FromDS() bool    { return f.FC()&FCFromDS != 0 }
func (f Frame) MoreFrag() bool  { return f.FC()&FCMoreFrag != 0 }
func (f Frame) Retry() bool     { return f.FC()&FCRetry != 0 }
func (f Frame) PwrMgt() bool    { return f.FC()&FCPwrMgt != 0 }
func (f Frame) MoreData() bool  { return f.FC()&FCMoreData != 0 }
func (f Frame) Protected() bool { return f.FC()&FCProtected != 0 }
func (f Frame) Order() bool     { return f.FC()&FCOrder != 0 }

// Duration returns the Duration/ID field.
func (f Frame) Duration() uint16 { return binary.LittleEndian.Uint16(f[2:]) }

// AID returns the association ID a PS-Poll carries in its Duration/ID field.
func (f Frame) AID() uint16 { return f.Duration() & AIDMask }

// addr returns the address at off, or the zero MAC when the frame is too
// short to hold it (ACK and CTS have only Addr1).
func (f Frame) addr(off int) MAC {
	var m MAC
	if len(f) >= off+6 {
		copy(m[:], f[off:])
	}
	return m
}

func (f Frame) Addr1() MAC { return f.addr(4) }
func (f Frame) Addr2() MAC { return f.addr(10) }
func (f Frame) Addr3() MAC { return f.addr(16) }

// Addr4 returns the fourth address of a data frame with both DS bits set,
// or the zero MAC.
func (f Frame) Addr4() MAC {
	if f.Type() == TypeData && f.ToDS() && f.FromDS() {
		return f.addr(24)
	}
	return MAC{}
}

// hasSeq reports whether the header has a Sequence Control field.
func (f Frame) hasSeq() bool { return f.Type() != TypeCtrl && len(f) >= 24 }

// SeqCtl returns the Sequence Control field, or 0 for control frames.
func (f Frame) SeqCtl() uint16 {
	if !f.hasSeq() {
		return 0
	}
	return binary.LittleEndian.Uint16(f[22:])
}

// Seq returns the 12-bit sequence number.
func (f Frame) Seq() uint16 { return f.SeqCtl() >> 4 }

// Frag returns the 4-bit fragment number.
func (f Frame) Frag() uint8 { return uint8(f.SeqCtl() & 15) }

// IsQoS reports whether this is a QoS data subtype (it has QoS Control).
func (f Frame) IsQoS() bool { return f.Type() == TypeData && f.Subtype()&8 != 0 }

// IsNullData reports whether the data frame carries no payload (Null, QoS
// Null, and the CF-Ack and CF-Poll subtypes).
func (f Frame) IsNullData() bool { return f.Type() == TypeData && f.Subtype()&4 != 0 }

// IsNull reports a Null or QoS Null frame: of the no-data subtypes, the
// only ones a station sends (for power save), with no body to protect.
func (f Frame) IsNull() bool {
	sub := f.Subtype()
	return f.Type() == TypeData && (sub == SubtypeNull || sub == SubtypeQoSNull)
}

// qosOffset is where QoS Control sits in a QoS data frame.
func (f Frame) qosOffset() int {
	if f.ToDS() && f.FromDS() {
		return 30
	}
	return 24
}

// QoSControl returns the QoS Control field, or 0 for non-QoS frames.
func (f Frame) QoSControl() uint16 {
	// Small enough to inline: every data frame in and out asks.
	off := 24
	if f[1]&3 == 3 { // ToDS and FromDS: four addresses (qosOffset)
		off = 30
	}
	if !f.IsQoS() || len(f) < off+2 {
		return 0
	}
	return binary.LittleEndian.Uint16(f[off:])
}

// TID returns the traffic identifier of a QoS data frame (0 otherwise).
func (f Frame) TID() uint8 { return uint8(f.QoSControl() & QoSTIDMask) }

// AMSDUPresent reports whether the body of a QoS data frame is an A-MSDU.
func (f Frame) AMSDUPresent() bool { return f.QoSControl()&QoSAMSDU != 0 }

// Body returns what follows the MAC header.
func (f Frame) Body() []byte {
	n := f.HeaderLen()
	if n > len(f) {
		return nil
	}
	return f[n:]
}
