package ccm

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

const blockSize = 16

var (
	// ErrOpen is returned by Open when the tag does not match.
	ErrOpen = errors.New("ccm: message authentication failed")
	// ErrParams is returned by New for a nonce or tag size CCM does not define.
	ErrParams = errors.New("ccm: nonce size must be 7..13 and tag size 4..16 and even")
)

// CCM seals and opens messages under one key with fixed nonce and tag
// sizes. It keeps its scratch blocks inside, so Seal and Open allocate
// nothing when dst has room, and a CCM must not be used by two goroutines
// at once.
type CCM struct {
	b         cipher.Block
	xk        *schedule // the key for the fused loop, nil on the generic path
	nonceSize int
	tagSize   int
	maxLen    uint64 // payload bytes the q-octet length field can count

	mac [blockSize]byte // CBC-MAC chaining value
	ctr [blockSize]byte // counter block A_i
	ks  [blockSize]byte // keystream block E(A_i)
	s0  [blockSize]byte // E(A_0), masks the tag
	tag [blockSize]byte // received tag, copied before dst may overwrite it
}

// New returns a CCM over b, a 128-bit block cipher (AES), with nonceSize
// bytes of nonce (so 15-nonceSize bytes of length field) and tagSize bytes
// of tag.
func New(b cipher.Block, nonceSize, tagSize int) (*CCM, error) {
	if b.BlockSize() != blockSize || nonceSize < 7 || nonceSize > 13 || tagSize < 4 || tagSize > 16 || tagSize%2 != 0 {
		return nil, ErrParams
	}
	c := &CCM{b: b, nonceSize: nonceSize, tagSize: tagSize, maxLen: 1<<63 - 1}
	if q := 15 - nonceSize; q < 8 {
		c.maxLen = 1<<(8*q) - 1
	}
	return c, nil
}

// NewAES returns a CCM over AES under key (16, 24 or 32 bytes). With a
// 16-byte key on a CPU with AES-NI, whole blocks go through one assembly
// loop that runs the CBC-MAC and the counter mode together; otherwise, and
// for the blocks around them, it is the CCM New makes over crypto/aes.
func NewAES(key []byte, nonceSize, tagSize int) (*CCM, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	c, err := New(b, nonceSize, tagSize)
	if err != nil {
		return nil, err
	}
	if fusedCPU && len(key) == 16 {
		c.xk = expandKey(key)
	}
	return c, nil
}

// Fused reports whether c takes whole blocks through the assembly loop.
func (c *CCM) Fused() bool { return c.xk != nil }

// Format prints the parameters only: the scratch blocks hold keystream.
func (c CCM) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "CCM(nonce %d, tag %d)", c.nonceSize, c.tagSize)
}

// NonceSize returns the nonce length Seal and Open take.
func (c *CCM) NonceSize() int { return c.nonceSize }

// Overhead returns the tag length Seal adds.
func (c *CCM) Overhead() int { return c.tagSize }

// Seal encrypts and authenticates plaintext, authenticates aad, and appends
// the ciphertext and tag to dst. To encrypt in place, pass plaintext[:0] as
// dst; any other overlap of dst and plaintext is not supported. It panics
// on a wrong nonce length or a plaintext longer than the length field holds.
func (c *CCM) Seal(dst, nonce, plaintext, aad []byte) []byte {
	c.start(nonce, len(plaintext), aad)
	ret, out := grow(dst, len(plaintext)+c.tagSize)
	p := plaintext
	if full := len(p) &^ (blockSize - 1); c.xk != nil && full > 0 {
		sealBlocks(c.xk, &c.mac, &c.ctr, &out[0], &p[0], full/blockSize)
		p, out = p[full:], out[full:]
	}
	for len(p) >= blockSize {
		c.absorb(p)
		c.enc(&c.ks, &c.ctr)
		c.next()
		xor16(out, p, c.ks[:])
		p, out = p[blockSize:], out[blockSize:]
	}
	if n := len(p); n > 0 {
		xorShort(c.mac[:n], c.mac[:n], p)
		c.enc(&c.mac, &c.mac)
		c.enc(&c.ks, &c.ctr)
		xorShort(out[:n], p, c.ks[:n])
		out = out[n:]
	}
	xorShort(out[:c.tagSize], c.mac[:c.tagSize], c.s0[:c.tagSize])
	return ret
}

// Open authenticates ciphertext (payload and tag) and aad and, if they
// verify, appends the plaintext to dst. The tag is compared in constant
// time. To decrypt in place, pass ciphertext[:0] as dst. On failure ErrOpen
// is returned and no plaintext is left: in place, the ciphertext is
// restored (so the message can be tried under another key); otherwise
// the bytes written to dst are cleared.
func (c *CCM) Open(dst, nonce, ciphertext, aad []byte) ([]byte, error) {
	if len(ciphertext) < c.tagSize {
		return nil, ErrOpen
	}
	n := len(ciphertext) - c.tagSize
	if uint64(n) > c.maxLen {
		return nil, ErrOpen
	}
	copy(c.tag[:], ciphertext[n:])
	c.start(nonce, n, aad)
	ret, out := grow(dst, n)
	p := ciphertext[:n]
	full := n &^ (blockSize - 1)
	switch {
	case full == 0:
	case c.xk != nil:
		openBlocks(c.xk, &c.mac, &c.ctr, &out[0], &p[0], full/blockSize)
	default:
		c.openGeneric(out[:full], p[:full])
	}
	p, out = p[full:], out[full:]
	if r := len(p); r > 0 {
		c.enc(&c.ks, &c.ctr)
		xorShort(out[:r], p, c.ks[:r])
		xorShort(c.mac[:r], c.mac[:r], out[:r])
		c.enc(&c.mac, &c.mac)
	}
	xorShort(c.mac[:c.tagSize], c.mac[:c.tagSize], c.s0[:c.tagSize])
	if subtle.ConstantTimeCompare(c.mac[:c.tagSize], c.tag[:c.tagSize]) != 1 {
		plain := ret[len(dst):]
		if n > 0 && &plain[0] == &ciphertext[0] {
			c.reencrypt(nonce, plain)
		} else {
			clear(plain)
		}
		return nil, ErrOpen
	}
	return ret, nil
}

// openGeneric decrypts the whole blocks of p into out and runs them through
// the CBC-MAC. Block i is absorbed one step after it is decrypted, so the
// CBC-MAC never waits on the stores that just wrote it.
func (c *CCM) openGeneric(out, p []byte) {
	for i := 0; i < len(p); i += blockSize {
		c.enc(&c.ks, &c.ctr)
		c.next()
		xor16(out[i:], p[i:], c.ks[:])
		if i > 0 {
			c.absorb(out[i-blockSize : i])
		}
	}
	c.absorb(out[len(p)-blockSize:])
}

// reencrypt runs the counter mode over p again from A_1, turning the
// plaintext a failed Open left in place back into the ciphertext.
func (c *CCM) reencrypt(nonce, p []byte) {
	c.counter(nonce)
	c.next()
	for len(p) > 0 {
		r := min(len(p), blockSize)
		c.enc(&c.ks, &c.ctr)
		c.next()
		xorShort(p[:r], p[:r], c.ks[:r])
		p = p[r:]
	}
}

// absorb runs one whole block through the CBC-MAC. The MAC is the serial
// chain that bounds CCM's speed: XORBytes writes it in one 16-byte store,
// which Encrypt's 16-byte load can take straight from the store buffer
// (two 8-byte stores, as xor16 makes, stall it for a dozen cycles).
func (c *CCM) absorb(b []byte) {
	subtle.XORBytes(c.mac[:], c.mac[:], b[:blockSize])
	c.enc(&c.mac, &c.mac)
}

// enc encrypts one block, with the fused loop's key when there is one
// (no interface call, none of crypto/aes's per-call checks).
func (c *CCM) enc(dst, src *[blockSize]byte) {
	if c.xk != nil {
		encryptBlockAsm(c.xk, dst, src)
		return
	}
	c.b.Encrypt(dst[:], src[:])
}

// counter sets ctr to the counter block A_0 of nonce.
func (c *CCM) counter(nonce []byte) {
	c.ctr = [blockSize]byte{}
	c.ctr[0] = byte(15 - c.nonceSize - 1)
	copy(c.ctr[1:], nonce)
}

// start formats B_0 and the associated data into the CBC-MAC, computes
// E(A_0) and leaves A_1 in ctr (SP 800-38C A.2 and A.3).
func (c *CCM) start(nonce []byte, n int, aad []byte) {
	if len(nonce) != c.nonceSize {
		panic("ccm: incorrect nonce length")
	}
	if uint64(n) > c.maxLen {
		panic("ccm: message too long for the nonce size")
	}
	q := 15 - c.nonceSize
	flags := byte(8*((c.tagSize-2)/2) + q - 1)
	if len(aad) > 0 {
		flags |= 0x40
	}
	c.mac[0] = flags
	copy(c.mac[1:], nonce)
	putLength(c.mac[1+c.nonceSize:], uint64(n))
	c.counter(nonce)
	if c.xk != nil && len(aad) <= shortAAD {
		// B_0, the associated data and E(A_0) in one call: CCMP's
		// AAD (22 to 30 bytes) always takes this way.
		var blk [2 * blockSize]byte
		blocks := 0
		if len(aad) > 0 {
			binary.BigEndian.PutUint16(blk[:], uint16(len(aad)))
			copy(blk[2:], aad)
			blocks = (2 + len(aad) + blockSize - 1) / blockSize
		}
		startBlocks(c.xk, &c.mac, &c.s0, &c.ctr, &blk, blocks)
	} else {
		c.enc(&c.mac, &c.mac)
		c.absorbAAD(aad)
		c.enc(&c.s0, &c.ctr)
	}
	c.next()
}

// shortAAD is the longest associated data that fits, with its 2-byte
// length, in the two blocks startBlocks takes.
const shortAAD = 2*blockSize - 2

// absorbAAD runs the length-prefixed, zero-padded associated data through
// the CBC-MAC.
func (c *CCM) absorbAAD(aad []byte) {
	if len(aad) == 0 {
		return
	}
	var blk [blockSize]byte
	var k int
	if len(aad) < 0xff00 {
		binary.BigEndian.PutUint16(blk[:], uint16(len(aad)))
		k = 2
	} else {
		if uint64(len(aad)) > 1<<32-1 {
			panic("ccm: associated data too long")
		}
		blk[0], blk[1] = 0xff, 0xfe
		binary.BigEndian.PutUint32(blk[2:], uint32(len(aad)))
		k = 6
	}
	m := copy(blk[k:], aad)
	c.absorb(blk[:])
	for a := aad[m:]; len(a) > 0; {
		r := min(len(a), blockSize)
		xorShort(c.mac[:r], c.mac[:r], a[:r])
		c.enc(&c.mac, &c.mac)
		a = a[r:]
	}
}

// next increments the counter. The length check in start keeps the count
// of blocks below 2^(8q), so the carry never leaves the q-octet field.
func (c *CCM) next() {
	binary.BigEndian.PutUint64(c.ctr[8:], binary.BigEndian.Uint64(c.ctr[8:])+1)
}

// putLength writes n big-endian into all of b.
func putLength(b []byte, n uint64) {
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = byte(n)
		n >>= 8
	}
}

// xor16 sets dst[:16] = a[:16] ^ b[:16] in two 64-bit steps; dst may alias
// a or b exactly.
func xor16(dst, a, b []byte) {
	_, _, _ = dst[15], a[15], b[15]
	binary.LittleEndian.PutUint64(dst, binary.LittleEndian.Uint64(a)^binary.LittleEndian.Uint64(b))
	binary.LittleEndian.PutUint64(dst[8:], binary.LittleEndian.Uint64(a[8:])^binary.LittleEndian.Uint64(b[8:]))
}

// xorShort sets dst = a ^ b for the few bytes of a partial block or a
// tag: a byte loop costs less there than XORBytes's checks. dst may alias
// a or b exactly.
func xorShort(dst, a, b []byte) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] ^ b[i]
	}
}

// grow extends dst by n bytes and returns the whole slice and the new part,
// reusing dst's capacity when it suffices.
func grow(dst []byte, n int) (whole, tail []byte) {
	whole = slices.Grow(dst, n)[:len(dst)+n]
	return whole, whole[len(dst):]
}
