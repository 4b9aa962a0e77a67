package ccm

import (
	"bytes"
	"crypto/aes"
	"errors"
	"fmt"
	"github.com/airq/airq/internal/hextest"
	"math/rand/v2"
	"strings"
	"testing"
)

var unhex = hextest.Bytes

type vector struct {
	name, key, nonce, aad, plain, sealed string
	tag                                  int
}

// RFC 3610 section 8, packet vectors 1 to 4 (M = 8, L = 2, the CCMP sizes):
// the first 8 (12 for #4) octets of each packet are the associated data.
var rfc3610 = []vector{
	{"RFC 3610 #1", "C0C1C2C3C4C5C6C7C8C9CACBCCCDCECF", "00000003020100A0A1A2A3A4A5", "0001020304050607",
		"08090A0B0C0D0E0F101112131415161718191A1B1C1D1E",
		"588C979A61C663D2F066D0C2C0F989806D5F6B61DAC38417E8D12CFDF926E0", 8},
	{"RFC 3610 #2", "C0C1C2C3C4C5C6C7C8C9CACBCCCDCECF", "00000004030201A0A1A2A3A4A5", "0001020304050607",
		"08090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F",
		"72C91A36E135F8CF291CA894085C87E3CC15C439C9E43A3BA091D56E10400916", 8},
	{"RFC 3610 #3", "C0C1C2C3C4C5C6C7C8C9CACBCCCDCECF", "00000005040302A0A1A2A3A4A5", "0001020304050607",
		"08090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F20",
		"51B1E5F44A197D1DA46B0F8E2D282AE871E838BB64DA8596574ADAA76FBD9FB0C5", 8},
	{"RFC 3610 #4", "C0C1C2C3C4C5C6C7C8C9CACBCCCDCECF", "00000006050403A0A1A2A3A4A5", "000102030405060708090A0B",
		"0C0D0E0F101112131415161718191A1B1C1D1E",
		"A28C6865939A9A79FAAA5C4C2A9D4A91CDAC8C96C861B9C9E61EF1", 8},
}

// NIST SP 800-38C appendix C, examples 1 to 3 (example 4 is below: its
// associated data is 64 KiB).
var sp80038c = []vector{
	{"SP 800-38C C.1", "404142434445464748494a4b4c4d4e4f", "10111213141516", "0001020304050607",
		"20212223", "7162015b4dac255d", 4},
	{"SP 800-38C C.2", "404142434445464748494a4b4c4d4e4f", "1011121314151617", "000102030405060708090a0b0c0d0e0f",
		"202122232425262728292a2b2c2d2e2f", "d2a1f0e051ea5f62081a7792073d593d1fc64fbfaccd", 6},
	{"SP 800-38C C.3", "404142434445464748494a4b4c4d4e4f", "101112131415161718191a1b",
		"000102030405060708090a0b0c0d0e0f10111213",
		"202122232425262728292a2b2c2d2e2f3031323334353637",
		"e3b201a9f5b71a7a9b1ceaeccd97e70b6176aad9a4428aa5484392fbc1b09951", 8},
}

func newCCM(t testing.TB, key []byte, nonce, tag int) *CCM {
	t.Helper()
	b, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := New(b, nonce, tag)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newFused is newCCM through NewAES: the fused loop where the CPU has it.
func newFused(t testing.TB, key []byte, nonce, tag int) *CCM {
	t.Helper()
	c, err := NewAES(key, nonce, tag)
	if err != nil {
		t.Fatal(err)
	}
	if c.Fused() != (fusedCPU && len(key) == 16) {
		t.Fatalf("fused %v on a CPU where it is %v", c.Fused(), fusedCPU)
	}
	return c
}

// impls are the two paths every vector and property is held to.
var impls = []struct {
	name string
	new  func(testing.TB, []byte, int, int) *CCM
}{{"generic", newCCM}, {"fused", newFused}}

func checkVector(t *testing.T, v vector, aad []byte) {
	for _, im := range impls {
		t.Run(im.name, func(t *testing.T) { checkVectorWith(t, im.new, v, aad) })
	}
}

func checkVectorWith(t *testing.T, newc func(testing.TB, []byte, int, int) *CCM, v vector, aad []byte) {
	key, nonce, plain, sealed := unhex(t, v.key), unhex(t, v.nonce), unhex(t, v.plain), unhex(t, v.sealed)
	c := newc(t, key, len(nonce), v.tag)
	if got := c.Seal(nil, nonce, plain, aad); !bytes.Equal(got, sealed) {
		t.Errorf("%s: sealed %x\nwant %x", v.name, got, sealed)
	}
	got, err := c.Open(nil, nonce, sealed, aad)
	if err != nil || !bytes.Equal(got, plain) {
		t.Errorf("%s: opened %x %v", v.name, got, err)
	}
	// In place, both ways.
	buf := append(bytes.Clone(plain), make([]byte, v.tag)...)[:len(plain)]
	if got := c.Seal(buf[:0], nonce, buf, aad); !bytes.Equal(got, sealed) {
		t.Errorf("%s: sealed in place %x", v.name, got)
	}
	buf = bytes.Clone(sealed)
	if got, err := c.Open(buf[:0], nonce, buf, aad); err != nil || !bytes.Equal(got, plain) {
		t.Errorf("%s: opened in place %x %v", v.name, got, err)
	}
}

func TestVectors(t *testing.T) {
	for _, v := range append(rfc3610, sp80038c...) {
		checkVector(t, v, unhex(t, v.aad))
	}
}

// TestSP80038CExample4: 65536 bytes of associated data take the 6-octet
// length encoding (0xfffe and 32 bits).
func TestSP80038CExample4(t *testing.T) {
	aad := make([]byte, 65536)
	for i := range aad {
		aad[i] = byte(i)
	}
	checkVector(t, vector{name: "SP 800-38C C.4", key: "404142434445464748494a4b4c4d4e4f",
		nonce: "101112131415161718191a1b1c", plain: "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f",
		sealed: "69915dad1e84c6376a68c2967e4dab615ae0fd1faec44cc484828529463ccf72b4ac6bec93e8598e7f0dadbcea5b",
		tag:    14}, aad)
}

func TestOpenRejects(t *testing.T) {
	for _, im := range impls {
		t.Run(im.name, func(t *testing.T) { testOpenRejects(t, im.new) })
	}
}

func testOpenRejects(t *testing.T, newCCM func(testing.TB, []byte, int, int) *CCM) {
	v := rfc3610[1] // a whole number of blocks: the fused loop's case
	key, nonce, aad, sealed := unhex(t, v.key), unhex(t, v.nonce), unhex(t, v.aad), unhex(t, v.sealed)
	c := newCCM(t, key, 13, 8)
	for i := range sealed {
		bad := bytes.Clone(sealed)
		bad[i] ^= 0x80
		buf := bytes.Clone(bad)
		out, err := c.Open(buf[:0], nonce, buf, aad)
		if !errors.Is(err, ErrOpen) || out != nil {
			t.Fatalf("byte %d flipped: %x %v", i, out, err)
		}
		if !bytes.Equal(buf, bad) {
			t.Fatalf("byte %d flipped: in place, the ciphertext is not restored: %x", i, buf)
		}
		dst := make([]byte, 3, 64)
		if out, err := c.Open(dst, nonce, bad, aad); !errors.Is(err, ErrOpen) || out != nil ||
			!bytes.Equal(dst[:cap(dst)], make([]byte, cap(dst))) {
			t.Fatalf("byte %d flipped: plaintext left in dst: %x", i, dst[:cap(dst)])
		}
	}
	// The restored frame still opens under the right key.
	right := bytes.Clone(sealed)
	other := newCCM(t, bytes.Repeat([]byte{7}, 16), 13, 8)
	if _, err := other.Open(right[:0], nonce, right, aad); !errors.Is(err, ErrOpen) {
		t.Fatalf("opened under another key: %v", err)
	}
	if got, err := c.Open(right[:0], nonce, right, aad); err != nil || !bytes.Equal(got, unhex(t, v.plain)) {
		t.Fatalf("after a failed attempt under another key: %x %v", got, err)
	}
	badAAD := bytes.Clone(aad)
	badAAD[3] ^= 1
	if _, err := c.Open(nil, nonce, sealed, badAAD); !errors.Is(err, ErrOpen) {
		t.Fatalf("altered AAD: %v", err)
	}
	badNonce := bytes.Clone(nonce)
	badNonce[12] ^= 1
	if _, err := c.Open(nil, badNonce, sealed, aad); !errors.Is(err, ErrOpen) {
		t.Fatalf("altered nonce: %v", err)
	}
	if _, err := c.Open(nil, nonce, sealed[:7], aad); !errors.Is(err, ErrOpen) {
		t.Fatalf("short input: %v", err)
	}
}

func TestNewRejects(t *testing.T) {
	b, _ := aes.NewCipher(make([]byte, 16))
	for _, p := range [][2]int{{6, 8}, {14, 8}, {13, 3}, {13, 5}, {13, 18}} {
		if _, err := New(b, p[0], p[1]); !errors.Is(err, ErrParams) {
			t.Errorf("nonce %d tag %d: %v", p[0], p[1], err)
		}
	}
}

// reference is CCM written from SP 800-38C 6.1 step by step, with the
// formatting function and counter blocks spelled out and no interleaving.
func reference(key, nonce, plain, aad []byte, tlen int) []byte {
	b, _ := aes.NewCipher(key)
	q := 15 - len(nonce)
	var blocks []byte
	b0 := make([]byte, 16)
	b0[0] = byte(8*((tlen-2)/2) + q - 1)
	if len(aad) > 0 {
		b0[0] |= 0x40
	}
	copy(b0[1:], nonce)
	for i, n := 15, len(plain); i > len(nonce); i, n = i-1, n>>8 {
		b0[i] = byte(n)
	}
	blocks = append(blocks, b0...)
	if len(aad) > 0 {
		a := []byte{byte(len(aad) >> 8), byte(len(aad))}
		if len(aad) >= 0xff00 {
			a = []byte{0xff, 0xfe, byte(len(aad) >> 24), byte(len(aad) >> 16), byte(len(aad) >> 8), byte(len(aad))}
		}
		a = append(a, aad...)
		for len(a)%16 != 0 {
			a = append(a, 0)
		}
		blocks = append(blocks, a...)
	}
	p := bytes.Clone(plain)
	for len(p)%16 != 0 {
		p = append(p, 0)
	}
	blocks = append(blocks, p...)
	y := make([]byte, 16)
	for i := 0; i < len(blocks); i += 16 {
		for j := range 16 {
			y[j] ^= blocks[i+j]
		}
		b.Encrypt(y, y)
	}
	counter := func(i int) []byte {
		a := make([]byte, 16)
		a[0] = byte(q - 1)
		copy(a[1:], nonce)
		for k, n := 15, i; k > len(nonce); k, n = k-1, n>>8 {
			a[k] = byte(n)
		}
		b.Encrypt(a, a)
		return a
	}
	out := bytes.Clone(plain)
	for i := range out {
		out[i] ^= counter(1 + i/16)[i%16]
	}
	s0 := counter(0)
	for j := range tlen {
		out = append(out, y[j]^s0[j])
	}
	return out
}

// TestAgainstReference compares Seal and Open with the reference on random
// keys, nonce and tag sizes, lengths and in-place use.
func TestAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	fill := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	for it := 0; it < 2000; it++ {
		key := fill(16)
		ns := 7 + r.IntN(7)
		ts := 4 + 2*r.IntN(7)
		nonce, plain, aad := fill(ns), fill(r.IntN(100)), fill(r.IntN(60))
		want := reference(key, nonce, plain, aad, ts)
		for _, im := range impls {
			c := im.new(t, key, ns, ts)
			buf := make([]byte, len(plain), len(plain)+ts)
			copy(buf, plain)
			got := c.Seal(buf[:0], nonce, buf, aad)
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: nonce %d tag %d len %d aad %d:\n got %x\nwant %x", im.name, ns, ts, len(plain), len(aad), got, want)
			}
			opened, err := c.Open(got[:0], nonce, got, aad)
			if err != nil || !bytes.Equal(opened, plain) {
				t.Fatalf("%s: open: %x %v", im.name, opened, err)
			}
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	for _, im := range impls {
		c := im.new(t, make([]byte, 16), 13, 8)
		nonce, aad := make([]byte, 13), make([]byte, 22)
		buf := make([]byte, 1500, 1508)
		n := testing.AllocsPerRun(100, func() {
			out := c.Seal(buf[:0], nonce, buf, aad)
			if _, err := c.Open(out[:0], nonce, out, aad); err != nil {
				t.Fatal(err)
			}
		})
		if n != 0 {
			t.Fatalf("%s: %v allocations per seal and open", im.name, n)
		}
	}
}

func TestFormatHidesState(t *testing.T) {
	c := newCCM(t, make([]byte, 16), 13, 8)
	c.Seal(nil, make([]byte, 13), make([]byte, 32), nil)
	for _, v := range []any{c, *c} {
		if s := fmt.Sprintf("%v %+v %x", v, v, v); strings.Contains(s, "[") || !strings.Contains(s, "CCM(nonce 13, tag 8)") {
			t.Fatalf("printed %s", s)
		}
	}
}
