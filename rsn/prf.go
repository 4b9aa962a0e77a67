package rsn

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"

	"github.com/airq/airq/internal/ieee80211"
)

// PRF is the HMAC-SHA1 pseudorandom function of 802.11-2020 12.7.1.2:
// the concatenation over i = 0, 1, ... of HMAC-SHA1(K, A || 0 || B || i),
// truncated to bits (a multiple of 8).
func PRF(key []byte, label string, data []byte, bits int) []byte {
	out := make([]byte, 0, (bits/8+sha1.Size-1)/sha1.Size*sha1.Size)
	m := hmac.New(sha1.New, key)
	for i := 0; len(out) < bits/8; i++ {
		m.Reset()
		m.Write([]byte(label))
		m.Write([]byte{0})
		m.Write(data)
		m.Write([]byte{byte(i)})
		out = m.Sum(out)
	}
	return out[:bits/8]
}

// KDFSHA256 is the key derivation function of 802.11-2020 12.7.1.6.2 with
// SHA-256: the concatenation over i = 1, 2, ... of HMAC-SHA256(K, i ||
// label || context || Length), i and Length (bits) as 16-bit little-endian,
// truncated to bits.
func KDFSHA256(key []byte, label string, context []byte, bits int) []byte {
	out := make([]byte, 0, (bits/8+sha256.Size-1)/sha256.Size*sha256.Size)
	m := hmac.New(sha256.New, key)
	var i16, len16 [2]byte
	binary.LittleEndian.PutUint16(len16[:], uint16(bits))
	for i := 1; len(out) < bits/8; i++ {
		m.Reset()
		binary.LittleEndian.PutUint16(i16[:], uint16(i))
		m.Write(i16[:])
		m.Write([]byte(label))
		m.Write(context)
		m.Write(len16[:])
		out = m.Sum(out)
	}
	return out[:bits/8]
}

// ptkBits is KCK, KEK and a CCMP-128 TK.
const ptkBits = 3 * 128

// DerivePTK derives the PTK of the 4-way handshake (12.7.1.3):
// PRF-384 (AKM 00-0F-AC:2) or KDF-SHA256-384 (AKM 00-0F-AC:6) of the PMK,
// "Pairwise key expansion" and Min(AA,SPA) || Max(AA,SPA) ||
// Min(ANonce,SNonce) || Max(ANonce,SNonce), split into a 128-bit KCK, KEK
// and TK (CCMP-128).
func DerivePTK(akm AKM, pmk *PMK, aa, spa ieee80211.MAC, anonce, snonce *Nonce) PTK {
	var data [2*6 + 2*32]byte
	lo, hi := aa[:], spa[:]
	if bytes.Compare(lo, hi) > 0 {
		lo, hi = hi, lo
	}
	copy(data[0:], lo)
	copy(data[6:], hi)
	n1, n2 := anonce[:], snonce[:]
	if bytes.Compare(n1, n2) > 0 {
		n1, n2 = n2, n1
	}
	copy(data[12:], n1)
	copy(data[44:], n2)
	var raw []byte
	if akm.UsesSHA256() {
		raw = KDFSHA256(pmk[:], "Pairwise key expansion", data[:], ptkBits)
	} else {
		raw = PRF(pmk[:], "Pairwise key expansion", data[:], ptkBits)
	}
	var p PTK
	copy(p.KCK[:], raw[0:16])
	copy(p.KEK[:], raw[16:32])
	copy(p.TK[:], raw[32:48])
	clear(raw[:cap(raw)]) // the PRF output past the PTK too
	return p
}
