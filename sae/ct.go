package sae

import (
	"crypto/hmac"
	"encoding/binary"
	"hash"
)

// ctSelect sets dst to a when choice is 1 and to b when it is 0, reading
// and writing every octet of all three either way.
func ctSelect(choice int, dst, a, b []byte) {
	mask := byte(-choice)
	for i := range dst {
		dst[i] = b[i] ^ (mask & (a[i] ^ b[i]))
	}
}

// ctLess is 1 when the big-endian a is below b (equal lengths), in time
// that depends only on the length.
func ctLess(a, b []byte) int {
	borrow := 0
	for i := len(a) - 1; i >= 0; i-- {
		borrow = ((int(a[i]) - int(b[i]) - borrow) >> 8) & 1
	}
	return borrow
}

// kdf is 802.11's KDF-Hash-Length (12.7.1.6.2): the concatenation of
// HMAC(key, i || label || context || L) for i = 1, 2, ..., with i and L
// (the length in bits) 16-bit little-endian, cut to bits. A length that
// is not whole octets keeps the leftmost bits, shifted right so that the
// value is right-aligned, as hostapd's sha256_prf_bits and
// sae_test_pwd_seed_ecc do.
func kdf(h func() hash.Hash, key []byte, label string, context []byte, bits int) []byte {
	n := (bits + 7) / 8
	out := make([]byte, 0, n+64)
	mac := hmac.New(h, key)
	var le [2]byte
	for i := 1; len(out) < n; i++ {
		mac.Reset()
		binary.LittleEndian.PutUint16(le[:], uint16(i))
		mac.Write(le[:])
		mac.Write([]byte(label))
		mac.Write(context)
		binary.LittleEndian.PutUint16(le[:], uint16(bits))
		mac.Write(le[:])
		out = mac.Sum(out)
	}
	out = out[:n]
	if r := bits % 8; r != 0 {
		out[n-1] &= 0xff << (8 - r)
		shiftRight(out, 8-r)
	}
	return out
}

// shiftRight shifts the big-endian b right by s < 8 bits.
func shiftRight(b []byte, s int) {
	for i := len(b) - 1; i > 0; i-- {
		b[i] = b[i]>>s | b[i-1]<<(8-s)
	}
	b[0] >>= s
}

// hmacSum is HMAC(key, parts...).
func hmacSum(h func() hash.Hash, key []byte, parts ...[]byte) []byte {
	mac := hmac.New(h, key)
	for _, p := range parts {
		mac.Write(p)
	}
	return mac.Sum(nil)
}

// maxMin is MAX(a, b) || MIN(a, b), the MACs' order in SAE's derivations.
func maxMin(a, b MAC) []byte {
	out := make([]byte, 0, 12)
	if string(a[:]) > string(b[:]) {
		return append(append(out, a[:]...), b[:]...)
	}
	return append(append(out, b[:]...), a[:]...)
}
