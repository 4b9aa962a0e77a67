package aeskw

import (
	"bytes"
	"errors"
	"github.com/airq/airq/internal/hextest"
	"testing"
)

var unhex = hextest.Bytes

// RFC 3394 section 4.1 to 4.6.
var rfc3394 = []struct{ name, kek, key, wrapped string }{
	{"4.1 128-bit data, 128-bit KEK", "000102030405060708090a0b0c0d0e0f",
		"00112233445566778899aabbccddeeff", "1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5"},
	{"4.2 128-bit data, 192-bit KEK", "000102030405060708090a0b0c0d0e0f1011121314151617",
		"00112233445566778899aabbccddeeff", "96778b25ae6ca435f92b5b97c050aed2468ab8a17ad84e5d"},
	{"4.3 128-bit data, 256-bit KEK", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		"00112233445566778899aabbccddeeff", "64e8c3f9ce0f5ba263e9777905818a2a93c8191e7d6e8ae7"},
	{"4.4 192-bit data, 192-bit KEK", "000102030405060708090a0b0c0d0e0f1011121314151617",
		"00112233445566778899aabbccddeeff0001020304050607",
		"031d33264e15d33268f24ec260743edce1c6c7ddee725a936ba814915c6762d2"},
	{"4.5 192-bit data, 256-bit KEK", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		"00112233445566778899aabbccddeeff0001020304050607",
		"a8f9bc1612c68b3ff6e6f4fbe30e71e4769c8b80a32cb8958cd5d17d6b254da1"},
	{"4.6 256-bit data, 256-bit KEK", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		"00112233445566778899aabbccddeeff000102030405060708090a0b0c0d0e0f",
		"28c9f404c4b810f4cbccb35cfb87f8263f5786e2d80ed326cbc7f0e71a99f43bfb988b9b7a02dd21"},
}

func TestRFC3394(t *testing.T) {
	for _, v := range rfc3394 {
		kek, key, want := unhex(t, v.kek), unhex(t, v.key), unhex(t, v.wrapped)
		got, err := Wrap(nil, kek, key)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: wrap %x %v, want %x", v.name, got, err, want)
		}
		plain, err := Unwrap([]byte{0xee}, kek, want)
		if err != nil || !bytes.Equal(plain, append([]byte{0xee}, key...)) {
			t.Errorf("%s: unwrap %x %v", v.name, plain, err)
		}
	}
}

func TestUnwrapRejects(t *testing.T) {
	v := rfc3394[0]
	kek, wrapped := unhex(t, v.kek), unhex(t, v.wrapped)
	for i := range wrapped {
		bad := bytes.Clone(wrapped)
		bad[i] ^= 0x01
		if out, err := Unwrap(nil, kek, bad); !errors.Is(err, ErrIntegrity) || len(out) != 0 {
			t.Fatalf("byte %d flipped: %x %v", i, out, err)
		}
	}
	wrongKEK := bytes.Clone(kek)
	wrongKEK[0] ^= 1
	if _, err := Unwrap(nil, wrongKEK, wrapped); !errors.Is(err, ErrIntegrity) {
		t.Fatalf("wrong KEK: %v", err)
	}
	for _, n := range []int{0, 8, 16, 23, 25} {
		if _, err := Unwrap(nil, kek, make([]byte, n)); !errors.Is(err, ErrLength) {
			t.Errorf("unwrap of %d bytes: %v", n, err)
		}
	}
	for _, n := range []int{0, 8, 15, 17} {
		if _, err := Wrap(nil, kek, make([]byte, n)); !errors.Is(err, ErrLength) {
			t.Errorf("wrap of %d bytes: %v", n, err)
		}
	}
	if _, err := Wrap(nil, make([]byte, 15), make([]byte, 16)); err == nil {
		t.Error("15-byte KEK accepted")
	}
}

// FuzzUnwrap: unwrap of anything never panics, and what it accepts wraps
// back to the same bytes.
func FuzzUnwrap(f *testing.F) {
	for _, v := range rfc3394 {
		f.Add(unhex(f, v.wrapped))
	}
	kek := unhex(f, rfc3394[2].kek)
	f.Fuzz(func(t *testing.T, b []byte) {
		plain, err := Unwrap(nil, kek, b)
		if err != nil {
			return
		}
		again, err := Wrap(nil, kek, plain)
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("rewrap %x %v, was %x", again, err, b)
		}
	})
}

// TestInPlace: dst may alias the input, at its start or further on, as
// the in-place idiom of the ccm package; the results are those of separate
// buffers.
func TestInPlace(t *testing.T) {
	kek := bytes.Repeat([]byte{1}, 16)
	plain := []byte("0123456789abcdefGHIJKLMN")
	want, _ := Wrap(nil, kek, plain)
	for _, off := range []int{0, 8} {
		buf := make([]byte, off+len(plain), off+len(plain)+8)
		copy(buf[off:], plain)
		got, err := Wrap(buf[:0], kek, buf[off:])
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("in-place Wrap at %d: %x, want %x (%v)", off, got, want, err)
		}
		ct := append(make([]byte, off), want...)
		pt, err := Unwrap(ct[:0], kek, ct[off:])
		if err != nil || !bytes.Equal(pt, plain) {
			t.Errorf("in-place Unwrap at %d: %x, %v", off, pt, err)
		}
	}
	bad := append([]byte(nil), want...)
	bad[3] ^= 1
	if out, err := Unwrap(bad[:0], kek, bad); !errors.Is(err, ErrIntegrity) || len(out) != 0 ||
		!bytes.Equal(bad[:len(plain)], make([]byte, len(plain))) {
		t.Errorf("in-place Unwrap of tampered data: %x %v, buffer %x", out, err, bad)
	}
}
