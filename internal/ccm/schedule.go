package ccm

// schedule is an AES-128 key expanded into its 11 round keys (FIPS-197
// 5.2), in the byte order AESENC takes them. crypto/aes keeps its own
// schedule private, so the fused loop expands the key itself.
type schedule [11 * blockSize]byte

// expandKey expands a 16-byte AES key. SubWord is computed, not looked up
// in a table, so the expansion takes the same time for every key.
func expandKey(key []byte) *schedule {
	var s schedule
	copy(s[:], key[:16])
	rcon := byte(1)
	for i := 16; i < len(s); i += 4 {
		t := [4]byte(s[i-4 : i])
		if i%16 == 0 {
			t = [4]byte{sbox(t[1]) ^ rcon, sbox(t[2]), sbox(t[3]), sbox(t[0])}
			rcon = mulx(rcon)
		}
		for j := range t {
			s[i+j] = s[i-16+j] ^ t[j]
		}
	}
	return &s
}

// mulx multiplies by x in GF(2^8) modulo x^8+x^4+x^3+x+1, branch-free.
func mulx(a byte) byte { return a<<1 ^ 0x1b&-(a>>7) }

// gmul multiplies in GF(2^8), branch-free.
func gmul(a, b byte) byte {
	var p byte
	for range 8 {
		p ^= a & -(b & 1)
		a = mulx(a)
		b >>= 1
	}
	return p
}

// sbox is AES's S-box: the inverse in GF(2^8) (x^254, 0 for 0) through
// the affine map of FIPS-197 5.1.1.
func sbox(x byte) byte {
	y, z := gmul(x, x), gmul(x, x) // x^2
	for range 6 {
		y = gmul(y, y) // x^4 .. x^128
		z = gmul(z, y)
	}
	return z ^ rotl(z, 1) ^ rotl(z, 2) ^ rotl(z, 3) ^ rotl(z, 4) ^ 0x63
}

func rotl(b byte, n uint) byte { return b<<n | b>>(8-n) }
