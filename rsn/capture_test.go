package rsn

import (
	"bufio"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// capture is a recorded handshake from testdata: frames by name.
type capture map[string][]byte

func loadCapture(t testing.TB, name string) capture {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := capture{}
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<16)
	for s.Scan() {
		k, v, ok := strings.Cut(s.Text(), " ")
		if !ok || strings.HasPrefix(k, "#") {
			continue
		}
		b, err := hex.DecodeString(v)
		if err != nil {
			t.Fatalf("%s %s: %v", name, k, err)
		}
		c[k] = b
	}
	return c
}

func (c capture) mac(k string) ieee80211.MAC { return ieee80211.MAC(c[k]) }

// ptk derives the capture's PTK from its passphrase, SSID and nonces.
func (c capture) ptk(t testing.TB) PTK {
	pmk, err := PMKFromPassphrase("EasilyGuessedPassword", []byte("TestWPA"))
	if err != nil {
		t.Fatal(err)
	}
	m1, _ := ParseKeyFrame(c["msg1"])
	m2, _ := ParseKeyFrame(c["msg2"])
	an, sn := m1.Nonce(), m2.Nonce()
	return DerivePTK(AKMPSK, &pmk, c.mac("aa"), c.mac("spa"), &an, &sn)
}
