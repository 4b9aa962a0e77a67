package handshake

import (
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// msg2 builds a station's message 2 answering replay counter rc with
// snonce under pmk.
func msg2(t *testing.T, pmk *rsn.PMK, anonce, snonce *rsn.Nonce, rc uint64, rsne []byte) ([]byte, rsn.PTK) {
	ptk := rsn.DerivePTK(rsn.AKMPSK, pmk, apMAC, staMAC, anonce, snonce)
	f := rsn.AppendKeyFrame(nil, &rsn.KeyFields{ProtocolVersion: 1, Info: rsn.InfoPairwise | rsn.InfoMIC | rsn.VersionHMACSHA1,
		Replay: rc, Nonce: *snonce, Data: rsne})
	rsn.SetMIC(f, &ptk.KCK)
	return f, ptk
}

func msg4(t *testing.T, ptk *rsn.PTK, rc uint64) []byte {
	f := rsn.AppendKeyFrame(nil, &rsn.KeyFields{ProtocolVersion: 1, Info: rsn.InfoPairwise | rsn.InfoMIC | rsn.InfoSecure | rsn.VersionHMACSHA1, Replay: rc})
	rsn.SetMIC(f, &ptk.KCK)
	return f
}

// TestSNonceUpdate is hostapd's workaround for supplicants that answer a
// retransmitted message 1 with a new SNonce: the late message 2 with the
// new SNonce replaces the PTK and a new message 3 goes out; message 4 is
// taken under the PTK of either SNonce.
func TestSNonceUpdate(t *testing.T) {
	for _, answerFirst := range []bool{false, true} {
		su := setup{}
		pmk := pmkOf(t, "correct horse battery")
		a, _ := New(Config{AA: apMAC, IEs: su.policy().Element(), TXStatus: true, Rand: testRand(),
			PMKs: func(dst []rsn.PMK, _ ieee80211.MAC) []rsn.PMK { return append(dst, pmk) }})
		a.Start(0)
		n, _ := su.policy().Validate(su.stationRSNE())
		s := a.Join(0, staMAC, n, nil)
		var acts []Action
		drain := func() { a.Drain(func(x Action) { acts = append(acts, x) }) }
		s.Start(0)
		a.Tick(100 * time.Millisecond) // message 1 again, counter 2
		drain()
		m1 := keyFrame(t, acts[len(acts)-1].Frame)
		an := m1.Nonce()
		snA, snB := rsn.Nonce{0xaa}, rsn.Nonce{0xbb}
		fA, ptkA := msg2(t, &pmk, &an, &snA, 1, su.stationRSNE())
		fB, ptkB := msg2(t, &pmk, &an, &snB, 2, su.stationRSNE())
		s.Receive(110*time.Millisecond, fA) // answers the first message 1
		drain()
		m3a := keyFrame(t, acts[len(acts)-1].Frame)
		if m3a.Replay() != 3 || m3a.Info()&rsn.InfoInstall == 0 {
			t.Fatalf("first message 3: %s", kinds(acts))
		}
		s.Receive(120*time.Millisecond, fB) // the second, with a new SNonce
		drain()
		m3b := keyFrame(t, acts[len(acts)-1].Frame)
		if m3b.Replay() != 4 || m3b.Info()&rsn.InfoInstall == 0 {
			t.Fatalf("no second message 3 for the new SNonce: %s", kinds(acts))
		}
		s.Receive(120*time.Millisecond, fB) // the same again: ignored
		drain()
		want := ptkB
		if answerFirst {
			// The station took the first message 3, with SNonce A.
			s.Receive(130*time.Millisecond, msg4(t, &ptkA, 3))
			want = ptkA
		} else {
			s.Receive(130*time.Millisecond, msg4(t, &ptkB, 4))
		}
		drain()
		if tk := installedTK(t, acts, 0); tk != want.TK || !s.Authorized() || count(acts, ActSend) != 4 {
			t.Fatalf("answer first %v: %s", answerFirst, kinds(acts))
		}
	}
}
