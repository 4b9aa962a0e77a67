package hwsimnl

import (
	"encoding/binary"

	"github.com/airq/airq/internal/ieee80211"
)

// TxInfo is a HWSIM_CMD_TX_INFO_FRAME: the status of the frame Cookie of
// radio Transmitter. Rates holds the attempts made (Idx and Count; entries
// after the last one used have Idx -1 and Count 0); Flags carries
// TxStatAck when the frame was acknowledged, and the frame's own TxCtl
// flags.
type TxInfo struct {
	Transmitter ieee80211.MAC
	Flags       uint32
	Signal      int32
	Rates       [MaxRates]TxRate
	Cookie      uint64
}

// RxFrame is a HWSIM_CMD_FRAME to the driver: radio Receiver receives
// Data on Freq. RxRate indexes the band's legacy bitrates (the driver's
// netlink path takes no HT/VHT receive rate).
type RxFrame struct {
	Receiver ieee80211.MAC
	Data     []byte
	RxRate   uint32
	Signal   int32
	Freq     uint32
}

// begin appends a netlink + genl header and returns the message's start.
func begin(dst []byte, typ uint16, flags uint16, seq uint32, cmd uint8) ([]byte, int) {
	start := len(dst)
	dst = binary.LittleEndian.AppendUint32(dst, 0) // length, set by end
	dst = binary.LittleEndian.AppendUint16(dst, typ)
	dst = binary.LittleEndian.AppendUint16(dst, flags|nlmFRequest)
	dst = binary.LittleEndian.AppendUint32(dst, seq)
	dst = binary.LittleEndian.AppendUint32(dst, 0) // to the kernel
	dst = append(dst, cmd, genlVersion, 0, 0)
	return dst, start
}

func end(dst []byte, start int) []byte {
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start))
	return dst
}

func attr(dst []byte, typ uint16, v []byte) []byte {
	dst = binary.LittleEndian.AppendUint16(dst, uint16(nlaHdrLen+len(v)))
	dst = binary.LittleEndian.AppendUint16(dst, typ)
	dst = append(dst, v...)
	for len(dst)%4 != 0 {
		dst = append(dst, 0)
	}
	return dst
}

func attrU32(dst []byte, typ uint16, v uint32) []byte {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], v)
	return attr(dst, typ, b[:])
}

// AppendGetFamily appends CTRL_CMD_GETFAMILY for FamilyName.
func AppendGetFamily(dst []byte, seq uint32) []byte {
	dst, s := begin(dst, genlIDCtrl, 0, seq, ctrlCmdGetFam)
	dst = attr(dst, ctrlAttrFamName, append([]byte(FamilyName), 0))
	return end(dst, s)
}

// AppendRegister appends HWSIM_CMD_REGISTER, acknowledged.
func AppendRegister(dst []byte, family uint16, seq uint32) []byte {
	dst, s := begin(dst, family, nlmFAck, seq, CmdRegister)
	return end(dst, s)
}

// AppendTxInfo appends t as a HWSIM_CMD_TX_INFO_FRAME.
func AppendTxInfo(dst []byte, family uint16, seq uint32, t *TxInfo) []byte {
	dst, s := begin(dst, family, 0, seq, CmdTxInfoFrame)
	dst = attr(dst, attrAddrTransmitter, t.Transmitter[:])
	dst = attrU32(dst, attrFlags, t.Flags)
	dst = attrU32(dst, attrSignal, uint32(t.Signal))
	var ti [txInfoLen]byte
	for i, r := range t.Rates {
		ti[2*i], ti[2*i+1] = byte(r.Idx), r.Count
	}
	dst = attr(dst, attrTxInfo, ti[:])
	var c [8]byte
	binary.LittleEndian.PutUint64(c[:], t.Cookie)
	dst = attr(dst, attrCookie, c[:])
	return end(dst, s)
}

// AppendRxFrame appends f as a HWSIM_CMD_FRAME to the driver.
func AppendRxFrame(dst []byte, family uint16, seq uint32, f *RxFrame) []byte {
	dst, s := begin(dst, family, 0, seq, CmdFrame)
	dst = attr(dst, attrAddrReceiver, f.Receiver[:])
	dst = attr(dst, attrFrame, f.Data)
	dst = attrU32(dst, attrRxRate, f.RxRate)
	dst = attrU32(dst, attrSignal, uint32(f.Signal))
	if f.Freq != 0 {
		dst = attrU32(dst, attrFreq, f.Freq)
	}
	return end(dst, s)
}
