package rsn

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/subtle"
	"errors"
	"hash"

	"github.com/airq/airq/internal/aeskw"
	"github.com/airq/airq/internal/cmac"
)

// ErrDescriptorVersion is returned for a key descriptor version without a MIC
// algorithm here (1, HMAC-MD5 with RC4, is TKIP's and refused).
var ErrDescriptorVersion = errors.New("rsn: unsupported key descriptor version")

var zeroMIC [MICLen]byte

// ComputeMIC returns the Key MIC of an EAPOL-Key frame (12.7.2): over the
// whole EAPOL frame with the MIC field taken as zero, with HMAC-SHA1
// truncated to 128 bits (descriptor version 2) or AES-128-CMAC (3, and 0
// for SAE, the one AKM-defined suite here), keyed with the KCK.
func ComputeMIC(version uint16, kck *Key, frame KeyFrame) ([MICLen]byte, error) {
	var mic [MICLen]byte
	var m hash.Hash
	switch version {
	case VersionHMACSHA1:
		m = hmac.New(sha1.New, kck[:])
	case VersionAESCMAC, VersionAKMDefined:
		c, err := cmac.New(kck[:])
		if err != nil {
			return mic, err
		}
		m = c
	default:
		return mic, ErrDescriptorVersion
	}
	m.Write(frame[:offMIC])
	m.Write(zeroMIC[:])
	m.Write(frame[offMIC+MICLen:])
	copy(mic[:], m.Sum(nil))
	return mic, nil
}

// SetMIC computes the MIC of frame with the descriptor version its Key
// Information carries and writes it into the MIC field.
func SetMIC(frame KeyFrame, kck *Key) error {
	mic, err := ComputeMIC(frame.DescriptorVersion(), kck, frame)
	if err != nil {
		return err
	}
	copy(frame.MIC(), mic[:])
	return nil
}

// VerifyMIC reports whether the frame's MIC is right for kck under the
// descriptor version its Key Information carries, comparing in constant
// time.
func VerifyMIC(frame KeyFrame, kck *Key) bool {
	mic, err := ComputeMIC(frame.DescriptorVersion(), kck, frame)
	return err == nil && subtle.ConstantTimeCompare(mic[:], frame.MIC()) == 1
}

// WrapKeyData pads plain as 12.7.2 requires for AES key wrap (0xdd then
// zeros, to a multiple of 8 of at least 16 octets) and appends its
// wrapping under the KEK to dst.
func WrapKeyData(dst []byte, kek *Key, plain []byte) ([]byte, error) {
	padded := make([]byte, len(plain), max(16, (len(plain)+8)&^7))
	copy(padded, plain)
	if len(padded) < 16 || len(padded)%8 != 0 {
		padded = append(padded, 0xdd)
		for len(padded) < 16 || len(padded)%8 != 0 {
			padded = append(padded, 0)
		}
	}
	out, err := aeskw.Wrap(dst, kek[:], padded)
	clear(padded)
	return out, err
}

// UnwrapKeyData appends to dst the plaintext of an encrypted Key Data
// field, padding included (ParseKeyData stops at it).
func UnwrapKeyData(dst []byte, kek *Key, wrapped []byte) ([]byte, error) {
	return aeskw.Unwrap(dst, kek[:], wrapped)
}
