package cmac

import (
	"bytes"
	"encoding/hex"
	"github.com/airq/airq/internal/hextest"
	"math/rand/v2"
	"testing"
)

var unhex = hextest.Bytes

// RFC 4493 section 4 (the same examples as NIST SP 800-38B D.1).
var rfc4493 = []struct{ msg, tag string }{
	{"", "bb1d6929e95937287fa37d129b756746"},
	{"6bc1bee22e409f96e93d7e117393172a", "070a16b46b4d4144f79bdd9dd04a287c"},
	{"6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411",
		"dfa66747de9ae63030ca32611497c827"},
	{"6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51" +
		"30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710",
		"51f0bebf7e3b9d92fc49741779363cfe"},
}

const rfc4493Key = "2b7e151628aed2a6abf7158809cf4f3c"

func TestRFC4493(t *testing.T) {
	key := unhex(t, rfc4493Key)
	m, err := New(key)
	if err != nil {
		t.Fatal(err)
	}
	// RFC 4493 2.4: the subkeys of the example key.
	if got := hex.EncodeToString(m.k1[:]); got != "fbeed618357133667c85e08f7236a8de" {
		t.Errorf("K1 = %s", got)
	}
	if got := hex.EncodeToString(m.k2[:]); got != "f7ddac306ae266ccf90bc11ee46d513b" {
		t.Errorf("K2 = %s", got)
	}
	for i, v := range rfc4493 {
		tag, err := Sum(key, unhex(t, v.msg))
		if err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(tag[:]); got != v.tag {
			t.Errorf("example %d: tag %s, want %s", i+1, got, v.tag)
		}
	}
}

// TestSplitWrites: any split of the message into writes gives the one-shot
// tag, and Sum leaves the state alone so writing may continue.
func TestSplitWrites(t *testing.T) {
	key := unhex(t, rfc4493Key)
	r := rand.New(rand.NewPCG(1, 2))
	msg := make([]byte, 200)
	for i := range msg {
		msg[i] = byte(r.Uint32())
	}
	m, _ := New(key)
	for n := 0; n <= len(msg); n++ {
		want, _ := Sum(key, msg[:n])
		m.Reset()
		for p := msg[:n]; len(p) > 0; {
			c := 1 + r.IntN(40)
			c = min(c, len(p))
			m.Write(p[:c])
			p = p[c:]
			if c%3 == 0 {
				m.Sum(nil) // must not disturb the state
			}
		}
		if got := m.Sum(nil); !bytes.Equal(got, want[:]) {
			t.Fatalf("len %d: split tag %x, one-shot %x", n, got, want)
		}
	}
}

func TestBadKey(t *testing.T) {
	if _, err := New(make([]byte, 15)); err == nil {
		t.Fatal("15-byte key accepted")
	}
}

// TestZeroAllocs: a keyed MAC computes tags without allocating (BIP signs
// and verifies every group-addressed robust management frame with one).
func TestZeroAllocs(t *testing.T) {
	m, _ := New(unhex(t, rfc4493Key))
	msg := unhex(t, rfc4493[3].msg)
	var tag [Size]byte
	n := testing.AllocsPerRun(100, func() {
		m.Reset()
		m.Write(msg)
		m.Sum(tag[:0])
	})
	if n != 0 || hex.EncodeToString(tag[:]) != rfc4493[3].tag {
		t.Fatalf("%v allocations, tag %x", n, tag)
	}
}
