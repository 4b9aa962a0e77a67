package cmac

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/subtle"
	"hash"
)

// Size is the length of an AES-CMAC tag.
const Size = aes.BlockSize

// MAC computes AES-CMAC as a hash.Hash. Like the hashes of the standard
// library it is not safe for concurrent use; Sum does not change its state.
type MAC struct {
	b      cipher.Block
	k1, k2 [Size]byte
	x      [Size]byte // CBC chaining value over the blocks already absorbed
	buf    [Size]byte // the last, possibly partial, block: it is kept back
	n      int        // bytes in buf; a full buf is absorbed only when more data follows
	last   [Size]byte // Sum's scratch: a local would escape through cipher.Block
}

var _ hash.Hash = (*MAC)(nil)

// New returns an AES-CMAC keyed with key (16, 24 or 32 bytes).
func New(key []byte) (*MAC, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return NewWithBlock(b), nil
}

// NewWithBlock returns an AES-CMAC over an existing AES block cipher.
func NewWithBlock(b cipher.Block) *MAC {
	m := &MAC{b: b}
	var l [Size]byte
	b.Encrypt(l[:], l[:])
	double(&m.k1, &l)
	double(&m.k2, &m.k1)
	return m
}

// double is the subkey generation step of RFC 4493 2.3: a left shift by one
// bit of the 128-bit big-endian value, with the constant Rb = 0x87 folded in
// when the bit shifted out was set (multiplication by x in GF(2^128)).
func double(dst, src *[Size]byte) {
	carry := src[0] >> 7
	for i := 0; i < Size-1; i++ {
		dst[i] = src[i]<<1 | src[i+1]>>7
	}
	dst[Size-1] = src[Size-1]<<1 ^ byte(subtle.ConstantTimeSelect(int(carry), 0x87, 0))
}

func (m *MAC) Size() int      { return Size }
func (m *MAC) BlockSize() int { return Size }

// Reset forgets the data written so far; the key stays.
func (m *MAC) Reset() {
	m.x = [Size]byte{}
	m.buf = [Size]byte{}
	m.n = 0
}

// Write absorbs p. It never fails.
func (m *MAC) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if m.n == Size {
			subtle.XORBytes(m.x[:], m.x[:], m.buf[:])
			m.b.Encrypt(m.x[:], m.x[:])
			m.n = 0
		}
		c := copy(m.buf[m.n:], p)
		m.n += c
		p = p[c:]
	}
	return n, nil
}

// Sum appends the tag of the data written so far to b.
func (m *MAC) Sum(b []byte) []byte {
	last := &m.last
	*last = [Size]byte{}
	if m.n == Size {
		subtle.XORBytes(last[:], m.buf[:], m.k1[:])
	} else {
		copy(last[:], m.buf[:m.n])
		last[m.n] = 0x80
		subtle.XORBytes(last[:], last[:], m.k2[:])
	}
	subtle.XORBytes(last[:], last[:], m.x[:])
	m.b.Encrypt(last[:], last[:])
	return append(b, last[:]...)
}

// Sum returns the AES-CMAC of msg under key.
func Sum(key, msg []byte) ([Size]byte, error) {
	var t [Size]byte
	m, err := New(key)
	if err != nil {
		return t, err
	}
	m.Write(msg)
	m.Sum(t[:0])
	return t, nil
}
