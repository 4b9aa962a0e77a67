package bip

import "encoding/binary"

// MME layout (802.11-2020 9.4.2.54): Element ID 76, Length 16, Key ID (2
// octets), IPN (6), MIC (8).
const (
	ElemMME = 76
	// MMELen is the whole element, ID and length included.
	MMELen = 2 + mmeBody
	// MICLen is the MIC of BIP-CMAC-128: AES-128-CMAC truncated to 64 bits.
	MICLen = 8

	mmeBody = 2 + 6 + MICLen
)

// MME is a decoded Management MIC element.
type MME struct {
	KeyID uint16
	IPN   uint64 // 48 bits
	MIC   [MICLen]byte
}

// ParseMME decodes a Management MIC element, ID and length included; the
// length must be exactly BIP-CMAC-128's, as mac80211 wants it.
func ParseMME(b []byte) (MME, error) {
	var m MME
	if len(b) != MMELen || b[0] != ElemMME || b[1] != mmeBody {
		return m, ErrMME
	}
	m.KeyID = binary.LittleEndian.Uint16(b[2:])
	m.IPN = uint64(binary.LittleEndian.Uint32(b[4:])) | uint64(binary.LittleEndian.Uint16(b[8:]))<<32
	copy(m.MIC[:], b[10:])
	return m, nil
}

// Append encodes m (ID and length included) after dst.
func (m MME) Append(dst []byte) []byte {
	dst = append(dst, ElemMME, mmeBody)
	dst = binary.LittleEndian.AppendUint16(dst, m.KeyID)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(m.IPN))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(m.IPN>>32))
	return append(dst, m.MIC[:]...)
}

// FrameMME returns the MME a BIP-protected management frame ends with.
// The MME is the frame's last element (9.4.2.54); a frame whose last
// MMELen octets are not one has none.
func FrameMME(frame []byte) (MME, error) {
	if len(frame) < hdrLen+MMELen {
		return MME{}, ErrShort
	}
	return ParseMME(frame[len(frame)-MMELen:])
}
