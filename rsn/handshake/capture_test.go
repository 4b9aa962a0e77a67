package handshake

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"github.com/airq/airq/internal/hextest"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// loadCapture reads a recorded handshake from ../testdata (see the files
// for their source).
func loadCapture(t testing.TB, name string) map[string][]byte {
	t.Helper()
	f, err := os.Open("../testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := map[string][]byte{}
	for s := bufio.NewScanner(f); s.Scan(); {
		k, v, ok := strings.Cut(s.Text(), " ")
		if !ok || strings.HasPrefix(k, "#") {
			continue
		}
		if c[k], err = hex.DecodeString(v); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

var unhex = hextest.Bytes

// fixedRand hands out given bytes, then fails.
type fixedRand struct{ b []byte }

func (r *fixedRand) Read(p []byte) (int, error) {
	if len(r.b) < len(p) {
		return 0, io.ErrUnexpectedEOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

func keyFrame(t testing.TB, b []byte) rsn.KeyFrame {
	k, err := rsn.ParseKeyFrame(b)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestAuthenticatorAgainstHostapd: given hostapd's GTK and ANonce, the
// authenticator sends the very bytes hostapd sent (messages 1 and 3),
// takes iwd's messages 2 and 4 and group message 2, and installs the TK
// the recording's passphrase gives.
func TestAuthenticatorAgainstHostapd(t *testing.T) {
	c := loadCapture(t, "hwsim-4way.txt")
	anonce := keyFrame(t, c["msg1"]).Nonce()
	gtk := unhex(t, "9adad240faa56f322f1553804b451936")
	nextGTK := unhex(t, "1470b33c6cdb8ab7d4585da882ea582f")
	rnd := &fixedRand{append(append(gtk, anonce[:]...), nextGTK...)}
	beacon := unhex(t, "30140100000fac040100000fac040100000fac020000") // hostapd without WMM
	pmk, _ := rsn.PMKFromPassphrase("EasilyGuessedPassword", []byte("TestWPA"))
	a, err := New(Config{AA: ieee80211.MAC(c["aa"]), IEs: beacon, TXStatus: true, Rand: rnd,
		PMKs: func(dst []rsn.PMK, _ ieee80211.MAC) []rsn.PMK { return append(dst, pmk) }})
	if err != nil {
		t.Fatal(err)
	}
	a.Start(0)
	stationRSNE := keyFrame(t, c["msg2"]).KeyData()
	n, status := rsn.Policy{Group: rsn.CipherCCMP, Pairwise: []rsn.Cipher{rsn.CipherCCMP}, AKMs: []rsn.AKM{rsn.AKMPSK}}.Validate(stationRSNE)
	if status != 0 {
		t.Fatalf("iwd's RSNE refused: %d", status)
	}
	s := a.Join(0, ieee80211.MAC(c["spa"]), n, nil)
	var acts []Action
	drain := func() { a.Drain(func(x Action) { acts = append(acts, x) }) }
	s.Start(0)
	drain()
	if f, _ := last(acts, ActSend); !bytes.Equal(f.Frame, c["msg1"]) {
		t.Fatalf("message 1\n %x\nhostapd sent\n %x", f.Frame, c["msg1"])
	}
	s.Receive(10, c["msg2"])
	drain()
	if f, _ := last(acts, ActSend); !bytes.Equal(f.Frame, c["msg3"]) {
		t.Fatalf("message 3\n %x\nhostapd sent\n %x", f.Frame, c["msg3"])
	}
	s.Receive(20, c["msg4"])
	drain()
	m1, m2 := keyFrame(t, c["msg1"]), keyFrame(t, c["msg2"])
	an, sn := m1.Nonce(), m2.Nonce()
	want := rsn.DerivePTK(rsn.AKMPSK, &pmk, ieee80211.MAC(c["aa"]), ieee80211.MAC(c["spa"]), &an, &sn)
	if tk := installedTK(t, acts, 0); tk != want.TK || !s.Authorized() {
		t.Fatal("wrong TK installed")
	}
	// The group key handshake: hostapd 2.10 differs from the recording's
	// older hostapd (Key Length 0, no GNonce), but iwd's group message 2
	// answers the same replay counter and key.
	a.RekeyGTK(30)
	drain()
	g1 := keyFrame(t, acts[len(acts)-1].Frame)
	if g1.Replay() != 3 || g1.KeyLength() != 0 || g1.Info() != rsn.InfoAck|rsn.InfoMIC|rsn.InfoSecure|rsn.InfoEncrypted|rsn.VersionHMACSHA1 {
		t.Fatalf("group message 1: info %#x replay %d", g1.Info(), g1.Replay())
	}
	plain, _ := rsn.UnwrapKeyData(nil, &want.KEK, g1.KeyData())
	if d, _ := rsn.ParseKeyData(plain); !d.HasGTK || d.GTKKeyID != 2 || !bytes.Equal(d.GTK, nextGTK) {
		t.Fatalf("group message 1 key data %x", plain)
	}
	s.Receive(40, c["group2"])
	drain()
	if g, ok := last(acts, ActInstallGTK); !ok || g.KeyID != 2 || count(acts, ActGroupCompleted) != 1 {
		t.Fatalf("group handshake: %s", kinds(acts))
	}
}

// TestSupplicantAgainstHostapd: given iwd's SNonce, the supplicant answers
// hostapd's messages with the bytes iwd sent, and installs the GTKs.
func TestSupplicantAgainstHostapd(t *testing.T) {
	for _, name := range []string{"hwsim-4way.txt", "ap-4way.txt"} {
		c := loadCapture(t, name)
		m2 := keyFrame(t, c["msg2"])
		sn := m2.Nonce()
		pmk, _ := rsn.PMKFromPassphrase("EasilyGuessedPassword", []byte("TestWPA"))
		an := keyFrame(t, c["msg1"]).Nonce()
		ptk := rsn.DerivePTK(rsn.AKMPSK, &pmk, ieee80211.MAC(c["aa"]), ieee80211.MAC(c["spa"]), &an, &sn)
		m3 := keyFrame(t, c["msg3"])
		plain, _ := rsn.UnwrapKeyData(nil, &ptk.KEK, m3.KeyData())
		d, _ := rsn.ParseKeyData(plain)
		sup, err := NewSupplicant(SupplicantConfig{SPA: ieee80211.MAC(c["spa"]), AA: ieee80211.MAC(c["aa"]), PMK: pmk,
			RSNE: m2.KeyData(), APRSNE: d.RSNE, EAPOLVersion: m2.ProtocolVersion(), Rand: &fixedRand{sn[:]}})
		if err != nil {
			t.Fatal(err)
		}
		var acts []Action
		for _, step := range []struct{ in, out string }{{"msg1", "msg2"}, {"msg3", "msg4"}, {"group1", "group2"}} {
			if c[step.in] == nil {
				continue
			}
			sup.Receive(0, c[step.in])
			n := len(acts)
			sup.Drain(func(x Action) { acts = append(acts, x) })
			f, ok := last(acts[n:], ActSend)
			if !ok || !bytes.Equal(f.Frame, c[step.out]) {
				t.Fatalf("%s: answer to %s\n %x\nwas\n %x", name, step.in, f.Frame, c[step.out])
			}
		}
		if tk := installedTK(t, acts, 0); tk != ptk.TK || !sup.Completed() {
			t.Fatalf("%s: TK", name)
		}
		if g, _ := last(acts, ActInstallGTK); !bytes.Equal(g.Key[:], d.GTK) && c["group1"] == nil {
			t.Fatalf("%s: GTK", name)
		}
	}
}
