// Package hwsimnl speaks mac80211_hwsim's generic netlink family
// (MAC80211_HWSIM), the interface wmediumd uses: after HWSIM_CMD_REGISTER
// every frame a radio transmits comes to userspace as HWSIM_CMD_FRAME and
// stays pending in the driver until HWSIM_CMD_TX_INFO_FRAME returns its
// status; userspace delivers frames with HWSIM_CMD_FRAME. The codec is
// pure; conn_linux.go holds the socket.
//
// Numbers from drivers/net/wireless/virtual/mac80211_hwsim.h (Linux 6.12).
package hwsimnl

import (
	"encoding/binary"
	"errors"

	"github.com/airq/airq/internal/ieee80211"
)

// FamilyName is the generic netlink family of mac80211_hwsim.
const FamilyName = "MAC80211_HWSIM"

// Commands (enum hwsim_commands).
const (
	CmdRegister    = 1
	CmdFrame       = 2
	CmdTxInfoFrame = 3
	CmdAddMACAddr  = 7
	CmdDelMACAddr  = 8
)

// Attributes (enum hwsim_attrs).
const (
	attrAddrReceiver    = 1
	attrAddrTransmitter = 2
	attrFrame           = 3
	attrFlags           = 4
	attrRxRate          = 5
	attrSignal          = 6
	attrTxInfo          = 7
	attrCookie          = 8
	attrFreq            = 19
	attrTxInfoFlags     = 21
)

// TX control flags (enum hwsim_tx_control_flags). TxStatBatchEnd is the
// study's extension (patches/hwsim-aql.patch): the last status of a frame
// exchange, after which hwsim's tx_round=2 runs the scheduling round, as a
// driver does once per BlockAck's batch of completions. Stock hwsim
// ignores it.
const (
	TxCtlReqTxStatus = 1 << 0
	TxCtlNoAck       = 1 << 1
	TxStatAck        = 1 << 2
	TxStatBatchEnd   = 1 << 3
)

// Rate flags (enum hwsim_tx_rate_flags).
const (
	RateUseRTSCTS   = 1 << 0
	RateCTSProtect  = 1 << 1
	RateShortPre    = 1 << 2
	RateMCS         = 1 << 3
	RateGreenField  = 1 << 4
	Rate40MHz       = 1 << 5
	RateDupData     = 1 << 6
	RateShortGI     = 1 << 7
	RateVHTMCS      = 1 << 8
	Rate80MHz       = 1 << 9
	Rate160MHz      = 1 << 10
	MaxRates        = 4 // IEEE80211_TX_MAX_RATES
	txInfoLen       = MaxRates * 2
	txInfoFlagsLen  = MaxRates * 3
	nlHdrLen        = 16
	genlHdrLen      = 4
	nlaHdrLen       = 4
	nlmsgError      = 2
	nlmsgDone       = 3
	nlmFRequest     = 1
	nlmFAck         = 4
	genlIDCtrl      = 0x10
	ctrlCmdGetFam   = 3
	ctrlCmdNewFam   = 1
	ctrlAttrFamID   = 1
	ctrlAttrFamName = 2
	genlVersion     = 1
)

// TxRate is one entry of a frame's retry chain: a rate index (legacy:
// into the band's bitrate table; HT: the MCS; VHT: (NSS-1)<<4 | MCS), how
// many attempts at it, and its flags. Idx < 0 ends the chain.
type TxRate struct {
	Idx   int8
	Count uint8
	Flags uint16
}

// Frame is a HWSIM_CMD_FRAME from the driver: a radio transmits Data.
// Data aliases the buffer it was decoded from.
type Frame struct {
	Transmitter ieee80211.MAC // the radio's hardware address (addresses[1])
	Data        []byte        // the 802.11 frame, no FCS
	Flags       uint32        // TxCtl*
	Freq        uint32        // MHz
	Rates       [MaxRates]TxRate
	Cookie      uint64
}

// AddrChange is HWSIM_CMD_ADD_MAC_ADDR or _DEL_MAC_ADDR: an interface
// address Receiver came to (or left) the radio Transmitter.
type AddrChange struct {
	Add         bool
	Transmitter ieee80211.MAC
	Receiver    ieee80211.MAC
}

// Errors of the decoder.
var (
	ErrShort     = errors.New("hwsimnl: truncated message")
	ErrAttr      = errors.New("hwsimnl: malformed attribute")
	ErrMissing   = errors.New("hwsimnl: required attribute missing")
	ErrNotFamily = errors.New("hwsimnl: no family id in the reply")
)

// Message is one netlink message of a datagram.
type Message struct {
	Type    uint16
	Flags   uint16
	Seq     uint32
	Payload []byte // after the netlink header
}

// Split returns the next message of b and the rest.
func Split(b []byte) (Message, []byte, error) {
	if len(b) < nlHdrLen {
		return Message{}, nil, ErrShort
	}
	n := int(binary.LittleEndian.Uint32(b))
	if n < nlHdrLen || n > len(b) {
		return Message{}, nil, ErrShort
	}
	m := Message{
		Type:    binary.LittleEndian.Uint16(b[4:]),
		Flags:   binary.LittleEndian.Uint16(b[6:]),
		Seq:     binary.LittleEndian.Uint32(b[8:]),
		Payload: b[nlHdrLen:n],
	}
	next := align4(n)
	if next > len(b) {
		next = len(b)
	}
	return m, b[next:], nil
}

// Error returns the errno of an NLMSG_ERROR message (0 for an ACK) and
// whether m is one.
func (m Message) Error() (errno int32, ok bool) {
	if m.Type != nlmsgError || len(m.Payload) < 4 {
		return 0, false
	}
	return -int32(binary.LittleEndian.Uint32(m.Payload)), true
}

// Cmd returns the generic netlink command of m.
func (m Message) Cmd() (uint8, bool) {
	if len(m.Payload) < genlHdrLen {
		return 0, false
	}
	return m.Payload[0], true
}

// attrs calls fn for each attribute after the genl header.
func (m Message) attrs(fn func(typ uint16, val []byte) error) error {
	if len(m.Payload) < genlHdrLen {
		return ErrShort
	}
	b := m.Payload[genlHdrLen:]
	for len(b) > 0 {
		if len(b) < nlaHdrLen {
			return ErrAttr
		}
		n := int(binary.LittleEndian.Uint16(b))
		if n < nlaHdrLen || n > len(b) {
			return ErrAttr
		}
		if err := fn(binary.LittleEndian.Uint16(b[2:])&0x3fff, b[nlaHdrLen:n]); err != nil {
			return err
		}
		b = b[min(align4(n), len(b)):]
	}
	return nil
}

func align4(n int) int { return (n + 3) &^ 3 }

func mac(v []byte) (ieee80211.MAC, error) {
	var m ieee80211.MAC
	if len(v) != len(m) {
		return m, ErrAttr
	}
	copy(m[:], v)
	return m, nil
}

func u32(v []byte) (uint32, error) {
	if len(v) != 4 {
		return 0, ErrAttr
	}
	return binary.LittleEndian.Uint32(v), nil
}

// DecodeFrame decodes a HWSIM_CMD_FRAME message.
func DecodeFrame(m Message) (Frame, error) {
	var f Frame
	var have uint32
	err := m.attrs(func(typ uint16, v []byte) error {
		var err error
		switch typ {
		case attrAddrTransmitter:
			f.Transmitter, err = mac(v)
		case attrFrame:
			f.Data = v
		case attrFlags:
			f.Flags, err = u32(v)
		case attrFreq:
			f.Freq, err = u32(v)
		case attrCookie:
			if len(v) != 8 {
				return ErrAttr
			}
			f.Cookie = binary.LittleEndian.Uint64(v)
		case attrTxInfo:
			if len(v) != txInfoLen {
				return ErrAttr
			}
			for i := range MaxRates {
				f.Rates[i].Idx, f.Rates[i].Count = int8(v[2*i]), v[2*i+1]
			}
		case attrTxInfoFlags:
			if len(v) != txInfoFlagsLen {
				return ErrAttr
			}
			for i := range MaxRates {
				f.Rates[i].Flags = binary.LittleEndian.Uint16(v[3*i+1:])
			}
		default:
			return nil
		}
		have |= 1 << typ
		return err
	})
	if err != nil {
		return Frame{}, err
	}
	const need = 1<<attrAddrTransmitter | 1<<attrFrame | 1<<attrFlags | 1<<attrCookie | 1<<attrTxInfo
	if have&need != need {
		return Frame{}, ErrMissing
	}
	return f, nil
}

// DecodeAddrChange decodes HWSIM_CMD_ADD_MAC_ADDR and _DEL_MAC_ADDR.
func DecodeAddrChange(m Message) (AddrChange, error) {
	cmd, _ := m.Cmd()
	a := AddrChange{Add: cmd == CmdAddMACAddr}
	var have uint32
	err := m.attrs(func(typ uint16, v []byte) error {
		var err error
		switch typ {
		case attrAddrTransmitter:
			a.Transmitter, err = mac(v)
		case attrAddrReceiver:
			a.Receiver, err = mac(v)
		default:
			return nil
		}
		have |= 1 << typ
		return err
	})
	if err != nil {
		return AddrChange{}, err
	}
	if have != 1<<attrAddrTransmitter|1<<attrAddrReceiver {
		return AddrChange{}, ErrMissing
	}
	return a, nil
}

// DecodeFamilyID returns the family id of a CTRL_CMD_NEWFAMILY reply.
func DecodeFamilyID(m Message) (uint16, error) {
	if m.Type != genlIDCtrl {
		return 0, ErrNotFamily
	}
	var id uint16
	err := m.attrs(func(typ uint16, v []byte) error {
		if typ == ctrlAttrFamID {
			if len(v) != 2 {
				return ErrAttr
			}
			id = binary.LittleEndian.Uint16(v)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if id == 0 {
		return 0, ErrNotFamily
	}
	return id, nil
}
