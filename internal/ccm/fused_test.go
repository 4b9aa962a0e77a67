package ccm

import (
	"bytes"
	"crypto/aes"
	"testing"
)

// TestExpandKeyFIPS197 holds the key expansion to FIPS-197 appendix A.1:
// the cipher key 2b7e1516... and its last round key.
func TestExpandKeyFIPS197(t *testing.T) {
	s := expandKey(unhex(t, "2b7e151628aed2a6abf7158809cf4f3c"))
	for _, w := range []struct {
		off  int
		want string
	}{{16, "a0fafe1788542cb123a339392a6c7605"}, {160, "d014f9a8c9ee2589e13f0cc8b6630ca6"}} {
		if got := s[w.off : w.off+16]; !bytes.Equal(got, unhex(t, w.want)) {
			t.Errorf("round key at %d: %x, want %s", w.off, got, w.want)
		}
	}
}

// TestSbox checks the computed S-box against FIPS-197 figure 7's entries
// and that it is a permutation.
func TestSbox(t *testing.T) {
	for x, want := range map[byte]byte{0x00: 0x63, 0x01: 0x7c, 0x53: 0xed, 0x9a: 0xb8, 0xff: 0x16, 0x10: 0xca} {
		if got := sbox(x); got != want {
			t.Errorf("sbox(%#02x) = %#02x, want %#02x", x, got, want)
		}
	}
	var seen [256]bool
	for x := range 256 {
		seen[sbox(byte(x))] = true
	}
	for y, ok := range seen {
		if !ok {
			t.Fatalf("%#02x is no S-box output", y)
		}
	}
}

// TestEncryptBlockMatchesAES: the fused path's single-block encryption
// under its own key schedule is crypto/aes's, on FIPS-197 C.1 and on
// random keys.
func TestEncryptBlockMatchesAES(t *testing.T) {
	if !fusedCPU {
		t.Skip("no AES-NI: the generic path is the only one")
	}
	key, plain := unhex(t, "000102030405060708090a0b0c0d0e0f"), unhex(t, "00112233445566778899aabbccddeeff")
	var out [blockSize]byte
	encryptBlockAsm(expandKey(key), &out, (*[blockSize]byte)(plain))
	if want := unhex(t, "69c4e0d86a7b0430d8cdb78070b4c55a"); !bytes.Equal(out[:], want) {
		t.Fatalf("FIPS-197 C.1: %x, want %x", out, want)
	}
	for i := range 256 {
		key := bytes.Repeat([]byte{byte(i), byte(i * 7)}, 8)
		key[i%16] ^= 0x5a
		b, _ := aes.NewCipher(key)
		var in, want [blockSize]byte
		in[i%16] = byte(i)
		b.Encrypt(want[:], in[:])
		encryptBlockAsm(expandKey(key), &out, &in)
		if out != want {
			t.Fatalf("key %x: %x, want %x", key, out, want)
		}
	}
}

// FuzzFusedMatchesGeneric: the fused loop and the generic path seal to
// the same bytes, open each other's output, and refuse the same forgeries
// (restoring an in-place ciphertext the same way).
func FuzzFusedMatchesGeneric(f *testing.F) {
	f.Add(make([]byte, 16), make([]byte, 13), make([]byte, 22), make([]byte, 1500), uint16(0))
	f.Add(bytes.Repeat([]byte{0xc0}, 16), []byte("0123456789abc"), []byte{}, []byte("seventeen bytes!!"), uint16(3))
	f.Add(bytes.Repeat([]byte{1}, 16), bytes.Repeat([]byte{2}, 13), []byte{3}, bytes.Repeat([]byte{4}, 32), uint16(40))
	f.Add(bytes.Repeat([]byte{9}, 16), bytes.Repeat([]byte{8}, 13), bytes.Repeat([]byte{7}, 30), []byte{}, uint16(1))
	f.Fuzz(func(t *testing.T, key, nonce, aad, plain []byte, flip uint16) {
		if len(key) != 16 || len(nonce) != 13 {
			return
		}
		gen, fus := newCCM(t, key, 13, 8), newFused(t, key, 13, 8)
		want := gen.Seal(nil, nonce, plain, aad)
		in := append(bytes.Clone(plain), make([]byte, 8)...)[:len(plain)]
		got := fus.Seal(in[:0], nonce, in, aad)
		if !bytes.Equal(got, want) {
			t.Fatalf("fused seal %x\n generic %x", got, want)
		}
		if p, err := fus.Open(nil, nonce, want, aad); err != nil || !bytes.Equal(p, plain) {
			t.Fatalf("fused open: %x %v", p, err)
		}
		bad := bytes.Clone(want)
		bad[int(flip)%len(bad)] ^= 1 << (flip % 8)
		g, f := bytes.Clone(bad), bytes.Clone(bad)
		_, errG := gen.Open(g[:0], nonce, g, aad)
		_, errF := fus.Open(f[:0], nonce, f, aad)
		if errG == nil || errF == nil || !bytes.Equal(g, bad) || !bytes.Equal(f, bad) {
			t.Fatalf("forgery: generic %v fused %v; restored %v %v", errG, errF, bytes.Equal(g, bad), bytes.Equal(f, bad))
		}
	})
}
