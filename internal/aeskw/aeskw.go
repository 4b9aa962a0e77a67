package aeskw

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"slices"
)

var (
	// ErrLength is returned for input that is not a whole number of 64-bit
	// blocks or holds fewer than two of them (three when unwrapping).
	ErrLength = errors.New("aeskw: input length is not a multiple of 8 of at least 16")
	// ErrIntegrity is returned by Unwrap when the recovered initial value
	// is not the default one: wrong key or tampered data.
	ErrIntegrity = errors.New("aeskw: integrity check failed")
)

// defaultIV is the initial value A of RFC 3394 2.2.3.1.
var defaultIV = [8]byte{0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6}

// Wrap appends to dst the wrapping of plaintext (n >= 2 64-bit blocks)
// under kek, 8 bytes longer than plaintext. dst may overlap plaintext:
// Wrap(buf[:0], kek, buf) wraps in place when buf has 8 bytes of spare
// capacity.
func Wrap(dst, kek, plaintext []byte) ([]byte, error) {
	b, err := aes.NewCipher(kek)
	if err != nil {
		return dst, err
	}
	return WrapBlock(dst, b, plaintext)
}

// WrapBlock is Wrap with an existing AES block cipher.
func WrapBlock(dst []byte, b cipher.Block, plaintext []byte) ([]byte, error) {
	n := len(plaintext) / 8
	if len(plaintext)%8 != 0 || n < 2 {
		return dst, ErrLength
	}
	dst, out := grow(dst, len(plaintext)+8)
	copy(out[8:], plaintext) // a memmove: plaintext may lie under out
	var blk [16]byte
	copy(blk[:8], defaultIV[:])
	// RFC 3394 2.2.1, index-based form: j = 0..5, i = 1..n.
	for j := 0; j < 6; j++ {
		for i := 1; i <= n; i++ {
			copy(blk[8:], out[8*i:8*i+8])
			b.Encrypt(blk[:], blk[:])
			t := uint64(n*j + i)
			binary.BigEndian.PutUint64(blk[:8], binary.BigEndian.Uint64(blk[:8])^t)
			copy(out[8*i:8*i+8], blk[8:])
		}
	}
	copy(out[:8], blk[:8])
	return dst, nil
}

// Unwrap appends to dst the plaintext wrapped in ciphertext (n+1 >= 3
// 64-bit blocks) under kek. The integrity check compares in constant time;
// on failure nothing is appended and the bytes Unwrap wrote are zeroed.
// dst may overlap ciphertext: Unwrap(buf[:0], kek, buf) unwraps in place
// (and on failure leaves zeros where the ciphertext was).
func Unwrap(dst, kek, ciphertext []byte) ([]byte, error) {
	b, err := aes.NewCipher(kek)
	if err != nil {
		return dst, err
	}
	return UnwrapBlock(dst, b, ciphertext)
}

// UnwrapBlock is Unwrap with an existing AES block cipher.
func UnwrapBlock(dst []byte, b cipher.Block, ciphertext []byte) ([]byte, error) {
	n := len(ciphertext)/8 - 1
	if len(ciphertext)%8 != 0 || n < 2 {
		return dst, ErrLength
	}
	var blk [16]byte
	copy(blk[:8], ciphertext[:8]) // before r may overwrite it
	start := len(dst)
	dst, r := grow(dst, len(ciphertext)-8)
	copy(r, ciphertext[8:]) // a memmove, as in WrapBlock
	// RFC 3394 2.2.2, index-based form: j = 5..0, i = n..1.
	for j := 5; j >= 0; j-- {
		for i := n; i >= 1; i-- {
			t := uint64(n*j + i)
			binary.BigEndian.PutUint64(blk[:8], binary.BigEndian.Uint64(blk[:8])^t)
			copy(blk[8:], r[8*(i-1):8*i])
			b.Decrypt(blk[:], blk[:])
			copy(r[8*(i-1):8*i], blk[8:])
		}
	}
	if subtle.ConstantTimeCompare(blk[:8], defaultIV[:]) != 1 {
		clear(r)
		return dst[:start], ErrIntegrity
	}
	return dst, nil
}

// grow extends dst by n bytes and returns the whole slice and the new part,
// reusing dst's capacity when it suffices.
func grow(dst []byte, n int) (whole, tail []byte) {
	whole = slices.Grow(dst, n)[:len(dst)+n]
	return whole, whole[len(dst):]
}
