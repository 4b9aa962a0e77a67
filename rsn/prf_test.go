package rsn

import (
	"encoding/hex"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// IEEE 802.11-2020 J.3.2, PRF (HMAC-SHA1) test cases 1 to 3, 512 bits.
var j3 = []struct{ key, prefix, data, prf string }{
	{"0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "prefix", hex.EncodeToString([]byte("Hi There")),
		"bcd4c650b30b9684951829e0d75f9d54b862175ed9f00606e17d8da35402ffee75df78c3d31e0f889f012120c0862beb67753e7439ae242edb8373698356cf5a"},
	{hex.EncodeToString([]byte("Jefe")), "prefix", hex.EncodeToString([]byte("what do ya want for nothing?")),
		"51f4de5b33f249adf81aeb713a3c20f4fe631446fabdfa58244759ae58ef9009a99abf4eac2ca5fa87e692c440eb40023e7babb206d61de7b92f41529092b8fc"},
	{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "prefix",
		"dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd",
		"e1ac546ec4cb636f9976487be5c86be17a0252ca5d8d8df12cfb0473525249ce9dd8d177ead710bc9b590547239107aef7b4abd43d87f0a68f1cbd9e2b6f7607"},
}

func TestPRF(t *testing.T) {
	for i, v := range j3 {
		got := PRF(unhex(t, v.key), v.prefix, unhex(t, v.data), 512)
		if hex.EncodeToString(got) != v.prf {
			t.Errorf("J.3.2 test case %d: %x", i+1, got)
		}
		if short := PRF(unhex(t, v.key), v.prefix, unhex(t, v.data), 384); hex.EncodeToString(short) != v.prf[:96] {
			t.Errorf("J.3.2 test case %d, 384 bits: %x", i+1, short)
		}
	}
}

// KDF-SHA256 of 12.7.1.6.2. The standard gives no vector; this one is the
// value iwd's unit/test-kdf-sha256.c expects for the input hostapd's
// crypto module test uses, and Python's hmac and hashlib agree.
func TestKDFSHA256(t *testing.T) {
	got := KDFSHA256([]byte("abc"), "KDF test", []byte("data"), 256)
	if hex.EncodeToString(got) != "9efd6eb02758cb7370a86f8a305375d41f8f21c2e47447f584f7d2291143d4d4" {
		t.Errorf("KDF %x", got)
	}
}

// j7 are the inputs of IEEE 802.11-2016 J.7.1 (pairwise key derivation).
func j7(t *testing.T) (PMK, ieee80211.MAC, ieee80211.MAC, Nonce, Nonce) {
	pmk, _ := ParsePSK(j4[1].psk)
	return pmk, ieee80211.MAC(unhex(t, "a0a1a1a3a4a5")), ieee80211.MAC(unhex(t, "b0b1b2b3b4b5")),
		Nonce(unhex(t, "e0e1e2e3e4e5e6e7e8e9f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff000102030405")),
		Nonce(unhex(t, "c0c1c2c3c4c5c6c7c8c9d0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5"))
}

func TestDerivePTK(t *testing.T) {
	pmk, aa, spa, anonce, snonce := j7(t)
	// IEEE 802.11-2016 J.7.2, Table J-14 (CCMP).
	p := DerivePTK(AKMPSK, &pmk, aa, spa, &anonce, &snonce)
	for _, c := range []struct {
		name string
		k    Key
		want string
	}{{"KCK", p.KCK, "379f9852d0199236b94e407ce4c00ec8"}, {"KEK", p.KEK, "47c9edc01c2c6e5b4910caddfb3e51a7"},
		{"TK", p.TK, "b2360c79e9710fdd58bea93deaf06599"}} {
		if hex.EncodeToString(c.k[:]) != c.want {
			t.Errorf("J.7.2 %s %x, want %s", c.name, c.k[:], c.want)
		}
	}
	// The order of the addresses and nonces does not matter.
	if q := DerivePTK(AKMPSK, &pmk, spa, aa, &snonce, &anonce); q != p {
		t.Error("swapped inputs give another PTK")
	}
	// AKM 6, KDF-SHA256-384 of the same inputs: computed with Python's
	// hmac and hashlib from 12.7.1.6.2 (no published vector).
	s := DerivePTK(AKMPSKSHA256, &pmk, aa, spa, &anonce, &snonce)
	all := append(append(s.KCK[:], s.KEK[:]...), s.TK[:]...)
	if hex.EncodeToString(all) != "ef4540918946a492df873642a391980e9d2175fc13f083e38d96b3d450b1d698c1d8551e9b4a744376a33e8ebf50290c" {
		t.Errorf("KDF-SHA256 PTK %x", all)
	}
}
