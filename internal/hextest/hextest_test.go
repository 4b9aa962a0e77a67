package hextest

import (
	"bytes"
	"testing"
)

func TestDecode(t *testing.T) {
	if b := Bytes(t, "00 01|02\n\t0a ff"); !bytes.Equal(b, []byte{0, 1, 2, 10, 255}) {
		t.Errorf("%x", b)
	}
	for _, s := range []string{"0", "zz", "00-01"} {
		if _, err := Decode(s); err == nil {
			t.Errorf("%q decoded", s)
		}
	}
}
