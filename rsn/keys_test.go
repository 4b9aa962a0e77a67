package rsn

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/airq/airq/internal/hextest"
	"log/slog"
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

var unhex = hextest.Bytes

// IEEE 802.11-2020 J.4.2, PSK = PBKDF2-SHA1(passphrase, SSID, 4096, 256).
var j4 = []struct{ passphrase, ssid, psk string }{
	{"password", "IEEE", "f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e"},
	{"ThisIsAPassword", "ThisIsASSID", "0dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721af"},
	{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ",
		"becb93866bb8c3832cb777c2f559807c8c59afcb6eae734885001300a981cc62"},
}

func TestPMKFromPassphrase(t *testing.T) {
	for _, v := range j4 {
		pmk, err := PMKFromPassphrase(v.passphrase, []byte(v.ssid))
		if err != nil || hex.EncodeToString(pmk[:]) != v.psk {
			t.Errorf("%q/%q: %x %v, want %s", v.passphrase, v.ssid, pmk[:], err, v.psk)
		}
		parsed, err := ParsePSK(v.psk)
		if err != nil || parsed != pmk {
			t.Errorf("ParsePSK(%s): %v", v.psk, err)
		}
	}
	for _, p := range []string{"1234567", strings.Repeat("x", 64)} {
		if _, err := PMKFromPassphrase(p, []byte("airq")); err != ErrPassphrase {
			t.Errorf("passphrase of %d characters: %v", len(p), err)
		}
	}
	if _, err := PMKFromPassphrase("12345678", make([]byte, 33)); err != ErrSSID {
		t.Errorf("33-octet SSID: %v", err)
	}
	for _, s := range []string{"", j4[0].psk[:63], j4[0].psk[:62] + "zz", j4[0].psk + "00"} {
		if _, err := ParsePSK(s); err != ErrPSK {
			t.Errorf("ParsePSK(%q): %v", s, err)
		}
	}
}

// The PMKID of the J.7.1 inputs, computed with Python's hmac and hashlib.
func TestPMKID(t *testing.T) {
	pmk, _ := ParsePSK(j4[1].psk)
	aa, spa := ieee80211.MAC(unhex(t, "a0a1a1a3a4a5")), ieee80211.MAC(unhex(t, "b0b1b2b3b4b5"))
	if id := PMKIDOf(&pmk, aa, spa, AKMPSK); hex.EncodeToString(id[:]) != "6ed6b22f7c9bc8dee4b3920e93ca53b2" {
		t.Errorf("PMKID (SHA-1) %x", id)
	}
	if id := PMKIDOf(&pmk, aa, spa, AKMPSKSHA256); hex.EncodeToString(id[:]) != "657f44df65722492b0b55c5d13c4b970" {
		t.Errorf("PMKID (SHA-256) %x", id)
	}
}

// TestRedaction: no way of printing, logging or marshalling a key shows
// its bytes, alone or in an exported field: the fixed-size keys, the key
// bytes of a decoded Key Data field, and the KeyData itself. (fmt cannot
// call methods on an unexported field, so a type that keeps keys in one,
// like the handshake state machines, redacts itself.)
func TestRedaction(t *testing.T) {
	var pmk PMK
	var k Key
	for i := range pmk {
		pmk[i] = 0xab
	}
	for i := range k {
		k[i] = 0xab
	}
	ptk := PTK{KCK: k, KEK: k, TK: k}
	d, err := ParseKeyData(AppendIGTKKDE(AppendGTKKDE(nil, 1, false, &k), 4, 0, &k))
	if err != nil || len(d.GTK) != 16 || len(d.IGTK) != 16 {
		t.Fatal(err)
	}
	type holder struct {
		P   PMK
		T   PTK
		Ptr *PTK
		D   KeyData
		G   KeyBytes
	}
	h := holder{pmk, ptk, &ptk, d, d.GTK}
	var out []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%X", "%d", "%q", "%08b"} {
		for _, v := range []any{pmk, &pmk, k, &k, ptk, &ptk, h, []Key{k}, d, &d, d.GTK, d.IGTK, []KeyData{d}} {
			out = append(out, fmt.Sprintf(verb, v))
		}
	}
	out = append(out, fmt.Sprint(pmk, k, ptk), fmt.Sprintln(h))
	var logged bytes.Buffer
	// No time stamp: its digits could spell a key byte (171).
	noTime := &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}
	slog.New(slog.NewJSONHandler(&logged, noTime)).Info("keys", "pmk", pmk, "ptk", ptk, "gtk", k)
	slog.New(slog.NewTextHandler(&logged, noTime)).Info("keys", "pmk", pmk, "ptk", &ptk, "holder", h)
	slog.New(slog.NewJSONHandler(&logged, noTime)).Info("key data", "kd", d, "gtk", d.GTK)
	out = append(out, logged.String())
	for _, v := range []any{h, d, &d} {
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(j))
	}
	for _, s := range out {
		low := strings.ToLower(s)
		if strings.Contains(low, "ab") && !strings.Contains(low, "redacted") || strings.Contains(low, "abab") ||
			strings.Contains(s, "171") || strings.Contains(s, "10101011") || strings.Contains(s, "q6ur") {
			t.Errorf("key bytes printed: %s", s)
		}
	}
	if fmt.Sprint(k) != "[redacted]" {
		t.Errorf("Key prints %q", fmt.Sprint(k))
	}
}
