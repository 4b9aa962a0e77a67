package rsn

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/subtle"
	"hash"

	"github.com/airq/airq/internal/cmac"
	"github.com/airq/airq/internal/ieee80211"
)

// MICChecker checks the MIC of an EAPOL-Key frame (a message 2, or a
// message 4 under an earlier SNonce) under candidate PMKs, as DerivePTK
// then VerifyMIC would, for less: a MIC needs only the KCK, the
// first 128 bits of the PTK, which is the first output block of the PRF or
// KDF rather than all three, and its hashes and buffers are reused, so
// that a check under HMAC-SHA1 (descriptor version 2) allocates nothing.
// The zero value is ready; it is not safe for concurrent use, and it
// holds key material between calls until Clear.
type MICChecker struct {
	h1      hash.Hash // SHA-1
	h256    hash.Hash // SHA-256
	pad     [64]byte
	sum     [sha256.Size]byte
	kck     Key
	context [2*6 + 2*32]byte
}

var (
	labelPTK   = []byte("Pairwise key expansion")
	prfFirst   = []byte{0}                            // PRF's separator octet, then its first counter
	kdfFirst   = []byte{1, 0}                         // KDF's first counter, 16 bits little-endian
	kdfPTKBits = []byte{ptkBits & 0xff, ptkBits >> 8} // its Length
)

// Check reports whether frame, whose descriptor version is the AKM's,
// carries the MIC of the PTK of pmk, aa, spa and the nonces.
func (c *MICChecker) Check(akm AKM, pmk *PMK, aa, spa ieee80211.MAC, anonce, snonce *Nonce, frame KeyFrame) bool {
	c.setContext(aa, spa, anonce, snonce)
	if akm.UsesSHA256() {
		// KDF-SHA256: HMAC-SHA256(PMK, 1 || label || context || 384).
		out := c.hmac(c.sha256(), pmk[:], kdfFirst, labelPTK, c.context[:], kdfPTKBits)
		copy(c.kck[:], out)
	} else {
		// PRF-384: HMAC-SHA1(PMK, label || 0 || context || 0).
		out := c.hmac(c.sha1(), pmk[:], labelPTK, prfFirst, c.context[:], prfFirst)
		copy(c.kck[:], out)
	}
	var mic []byte
	switch frame.DescriptorVersion() {
	case VersionHMACSHA1:
		mic = c.hmac(c.sha1(), c.kck[:], frame[:offMIC], zeroMIC[:], frame[offMIC+MICLen:])
	case VersionAESCMAC, VersionAKMDefined:
		m, err := cmac.New(c.kck[:])
		if err != nil {
			return false
		}
		m.Write(frame[:offMIC])
		m.Write(zeroMIC[:])
		m.Write(frame[offMIC+MICLen:])
		mic = m.Sum(c.sum[:0])
	default:
		return false
	}
	return subtle.ConstantTimeCompare(mic[:MICLen], frame.MIC()) == 1
}

// Clear forgets the key material of the last check.
func (c *MICChecker) Clear() {
	clear(c.pad[:])
	clear(c.sum[:])
	c.kck.Clear()
	if c.h1 != nil {
		c.h1.Reset()
	}
	if c.h256 != nil {
		c.h256.Reset()
	}
}

func (c *MICChecker) sha1() hash.Hash {
	if c.h1 == nil {
		c.h1 = sha1.New()
	}
	return c.h1
}

func (c *MICChecker) sha256() hash.Hash {
	if c.h256 == nil {
		c.h256 = sha256.New()
	}
	return c.h256
}

// setContext is DerivePTK's Min(AA,SPA) || Max(AA,SPA) ||
// Min(ANonce,SNonce) || Max(ANonce,SNonce).
func (c *MICChecker) setContext(aa, spa ieee80211.MAC, anonce, snonce *Nonce) {
	lo, hi := aa[:], spa[:]
	if bytes.Compare(lo, hi) > 0 {
		lo, hi = hi, lo
	}
	copy(c.context[0:], lo)
	copy(c.context[6:], hi)
	n1, n2 := anonce[:], snonce[:]
	if bytes.Compare(n1, n2) > 0 {
		n1, n2 = n2, n1
	}
	copy(c.context[12:], n1)
	copy(c.context[44:], n2)
}

// hmac is HMAC (RFC 2104) under h with key (at most a block) over the
// concatenation of parts; the result is in c.sum.
func (c *MICChecker) hmac(h hash.Hash, key []byte, parts ...[]byte) []byte {
	pad := c.pad[:h.BlockSize()]
	c.keyPad(pad, key, 0x36)
	h.Reset()
	h.Write(pad)
	for _, p := range parts {
		h.Write(p)
	}
	inner := h.Sum(c.sum[:0])
	c.keyPad(pad, key, 0x5c)
	h.Reset()
	h.Write(pad)
	h.Write(inner)
	return h.Sum(c.sum[:0])
}

func (c *MICChecker) keyPad(pad, key []byte, b byte) {
	for i := range pad {
		pad[i] = b
	}
	subtle.XORBytes(pad, pad[:len(key)], key)
}
