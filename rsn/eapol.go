package rsn

import (
	"encoding/binary"
	"errors"
)

// IEEE 802.1X-2004 header and the EAPOL-Key frame of 802.11-2020 12.7.2
// with the 16-octet Key MIC of the supported AKMs.
const (
	EAPOLHeaderLen = 4
	EAPOLTypeKey   = 3
	DescriptorRSN  = 2   // IEEE 802.11 key descriptor
	DescriptorWPA  = 254 // WPA1; hostapd accepts it on message 4 in RSN mode
	KeyFrameLen    = 99  // an EAPOL-Key frame without Key Data
	MICLen         = 16
	NonceLen       = 32

	offDescriptor = 4
	offInfo       = 5
	offKeyLen     = 7
	offReplay     = 9
	offNonce      = 17
	offIV         = 49
	offRSC        = 65
	offMIC        = 81
	offDataLen    = 97
	offData       = 99
)

// Key Information bits.
const (
	InfoVersionMask = 0x0007
	InfoPairwise    = 0x0008 // Key Type: pairwise
	InfoIndexMask   = 0x0030 // WPA1 only; reserved in RSN
	InfoInstall     = 0x0040
	InfoAck         = 0x0080
	InfoMIC         = 0x0100
	InfoSecure      = 0x0200
	InfoError       = 0x0400
	InfoRequest     = 0x0800
	InfoEncrypted   = 0x1000 // Encrypted Key Data
	InfoSMK         = 0x2000
)

// Key descriptor versions (the low bits of Key Information).
const (
	// VersionAKMDefined leaves the algorithms to the AKM: for SAE, the
	// only such AKM here, AES-128-CMAC and AES key wrap (12.7.3).
	VersionAKMDefined = 0
	VersionHMACSHA1   = 2 // HMAC-SHA1-128 MIC, AES key wrap: AKM 00-0F-AC:2 with CCMP
	VersionAESCMAC    = 3 // AES-128-CMAC MIC, AES key wrap: AKM 00-0F-AC:6
)

// DescriptorVersion returns the key descriptor version an AKM uses.
func DescriptorVersion(akm AKM) uint16 {
	if akm == AKMSAE {
		return VersionAKMDefined
	}
	if akm.UsesSHA256() {
		return VersionAESCMAC
	}
	return VersionHMACSHA1
}

var (
	ErrNotKey     = errors.New("rsn: not an EAPOL-Key frame")
	ErrShortKey   = errors.New("rsn: EAPOL-Key frame shorter than its fields")
	ErrKeyDataLen = errors.New("rsn: Key Data Length exceeds the frame")
	ErrDescriptor = errors.New("rsn: unknown EAPOL-Key descriptor type")
)

// KeyFrame is an EAPOL frame carrying an EAPOL-Key, from the 802.1X header
// to the end of the Key Data, viewed in place. ParseKeyFrame checks that
// every field is there, so the accessors never read past it.
type KeyFrame []byte

// ParseKeyFrame checks b, an EAPOL frame from its 802.1X header on, as an
// EAPOL-Key frame and returns it cut to the 802.1X body length (octets
// after it are padding and ignored, as hostapd and wpa_supplicant do).
func ParseKeyFrame(b []byte) (KeyFrame, error) {
	if len(b) < EAPOLHeaderLen {
		return nil, ErrShortKey
	}
	if b[1] != EAPOLTypeKey {
		return nil, ErrNotKey
	}
	n := EAPOLHeaderLen + int(binary.BigEndian.Uint16(b[2:]))
	if n > len(b) || n < KeyFrameLen {
		return nil, ErrShortKey
	}
	k := KeyFrame(b[:n])
	if d := k.Descriptor(); d != DescriptorRSN && d != DescriptorWPA {
		return nil, ErrDescriptor
	}
	if offData+int(binary.BigEndian.Uint16(k[offDataLen:])) > n {
		return nil, ErrKeyDataLen
	}
	return k, nil
}

func (k KeyFrame) ProtocolVersion() uint8 { return k[0] }
func (k KeyFrame) Descriptor() uint8      { return k[offDescriptor] }
func (k KeyFrame) Info() uint16           { return binary.BigEndian.Uint16(k[offInfo:]) }
func (k KeyFrame) KeyLength() uint16      { return binary.BigEndian.Uint16(k[offKeyLen:]) }
func (k KeyFrame) Replay() uint64         { return binary.BigEndian.Uint64(k[offReplay:]) }
func (k KeyFrame) Nonce() Nonce           { return Nonce(k[offNonce : offNonce+NonceLen]) }
func (k KeyFrame) IV() []byte             { return k[offIV : offIV+16] }
func (k KeyFrame) MIC() []byte            { return k[offMIC : offMIC+MICLen] }

// RSC returns the Key RSC field, the first PN of a group key, PN0 first.
func (k KeyFrame) RSC() uint64 { return binary.LittleEndian.Uint64(k[offRSC:]) }

// DescriptorVersion returns the key descriptor version bits.
func (k KeyFrame) DescriptorVersion() uint16 { return k.Info() & InfoVersionMask }

// KeyData returns the Key Data field, encrypted or not as Info says.
func (k KeyFrame) KeyData() []byte {
	return k[offData : offData+int(binary.BigEndian.Uint16(k[offDataLen:]))]
}

// KeyFields are the fields of an EAPOL-Key frame to encode.
type KeyFields struct {
	ProtocolVersion uint8 // 802.1X version: hostapd's eapol_version, 2 by default
	Info            uint16
	KeyLength       uint16
	Replay          uint64
	Nonce           Nonce
	RSC             uint64
	Data            []byte // the Key Data, already wrapped when InfoEncrypted is set
}

// AppendKeyFrame appends an EAPOL-Key frame (802.1X header, IEEE 802.11
// descriptor) with a zero MIC; SetMIC fills it.
func AppendKeyFrame(dst []byte, f *KeyFields) []byte {
	start := len(dst)
	body := KeyFrameLen - EAPOLHeaderLen + len(f.Data)
	dst = append(dst, f.ProtocolVersion, EAPOLTypeKey)
	dst = binary.BigEndian.AppendUint16(dst, uint16(body))
	dst = append(dst, DescriptorRSN)
	dst = binary.BigEndian.AppendUint16(dst, f.Info)
	dst = binary.BigEndian.AppendUint16(dst, f.KeyLength)
	dst = binary.BigEndian.AppendUint64(dst, f.Replay)
	dst = append(dst, f.Nonce[:]...)
	dst = append(dst, make([]byte, 16)...) // Key IV: zero with AES key wrap
	dst = binary.LittleEndian.AppendUint64(dst, f.RSC)
	dst = append(dst, make([]byte, 8+MICLen)...) // reserved, MIC
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(f.Data)))
	dst = append(dst, f.Data...)
	_ = dst[start+KeyFrameLen-1]
	return dst
}
