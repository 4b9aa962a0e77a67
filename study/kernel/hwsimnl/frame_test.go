package hwsimnl

import "encoding/binary"

// appendFrame encodes a driver's HWSIM_CMD_FRAME (the tests' and the
// fuzzer's seed; the driver builds these itself).
func appendFrame(dst []byte, family uint16, f *Frame) []byte {
	dst, s := begin(dst, family, 0, 0, CmdFrame)
	dst = attr(dst, attrAddrTransmitter, f.Transmitter[:])
	dst = attr(dst, attrFrame, f.Data)
	dst = attrU32(dst, attrFlags, f.Flags)
	dst = attrU32(dst, attrFreq, f.Freq)
	var ti [txInfoLen]byte
	var tf [txInfoFlagsLen]byte
	for i, r := range f.Rates {
		ti[2*i], ti[2*i+1] = byte(r.Idx), r.Count
		tf[3*i] = byte(r.Idx)
		binary.LittleEndian.PutUint16(tf[3*i+1:], r.Flags)
	}
	dst = attr(dst, attrTxInfo, ti[:])
	dst = attr(dst, attrTxInfoFlags, tf[:])
	var c [8]byte
	binary.LittleEndian.PutUint64(c[:], f.Cookie)
	dst = attr(dst, attrCookie, c[:])
	return end(dst, s)
}

func appendAddrChange(dst []byte, family uint16, a AddrChange) []byte {
	cmd := uint8(CmdDelMACAddr)
	if a.Add {
		cmd = CmdAddMACAddr
	}
	dst, s := begin(dst, family, 0, 0, cmd)
	dst = attr(dst, attrAddrTransmitter, a.Transmitter[:])
	dst = attr(dst, attrAddrReceiver, a.Receiver[:])
	return end(dst, s)
}

func appendFamilyReply(dst []byte, id uint16) []byte {
	dst, s := begin(dst, genlIDCtrl, 0, 1, ctrlCmdNewFam)
	dst = attr(dst, ctrlAttrFamName, append([]byte(FamilyName), 0))
	var b [2]byte
	binary.LittleEndian.PutUint16(b[:], id)
	dst = attr(dst, ctrlAttrFamID, b[:])
	return end(dst, s)
}
