package handshake

import (
	"bytes"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

func seedFrames(f *testing.F) {
	l := newLink(f, setup{})
	for _, k := range sends(f, l.sta) {
		f.Add([]byte(k))
	}
	for _, k := range sends(f, l.ap) {
		f.Add([]byte(k))
	}
	for _, b := range loadCapture(f, "hwsim-4way.txt") {
		f.Add(b)
	}
}

// FuzzStationReceive: no frame panics the authenticator, and none moves a
// handshake on (message 3, a key, completion) unless its MIC verifies under
// the PTK its own SNonce gives: in PTKSTART (message 2) and in PTKINITDONE.
func FuzzStationReceive(f *testing.F) {
	seedFrames(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		su := setup{}
		pmk := pmkOf(t, "correct horse battery")
		a, _ := New(Config{AA: apMAC, IEs: su.policy().Element(), TXStatus: true, Rand: testRand(),
			PMKs: func(dst []rsn.PMK, _ ieee80211.MAC) []rsn.PMK { return append(dst, pmk) }})
		a.Start(0)
		n, _ := su.policy().Validate(su.stationRSNE())
		s := a.Join(0, staMAC, n, nil)
		s.Start(0)
		a.Drain(func(Action) {})
		anonce := s.anonce
		s.Receive(1, b)
		var moved bool
		a.Drain(func(x Action) {
			moved = moved || x.Kind == ActSend || x.Kind == ActInstallPTK || x.Kind == ActCompleted
		})
		if moved {
			k, err := rsn.ParseKeyFrame(b)
			if err != nil {
				t.Fatal("unparseable frame accepted")
			}
			sn := k.Nonce()
			ptk := rsn.DerivePTK(rsn.AKMPSK, &pmk, apMAC, staMAC, &anonce, &sn)
			if !rsn.VerifyMIC(k, &ptk.KCK) {
				t.Fatal("message 3 sent for a message 2 whose MIC does not verify")
			}
		}
		// A completed station: the frame must not rekey, reinstall or
		// disconnect unless authenticated.
		l := newLink(t, setup{})
		before := len(l.ap)
		kck := l.s.ptk.KCK
		l.s.Receive(l.now, b)
		l.a.Drain(func(x Action) { l.ap = append(l.ap, x) })
		if len(l.ap) != before {
			if k, err := rsn.ParseKeyFrame(b); err != nil || !rsn.VerifyMIC(k, &kck) {
				t.Fatalf("an unauthenticated frame caused %s", kinds(l.ap[before:]))
			}
		}
	})
}

// FuzzSupplicantReceive: no frame panics the supplicant, and a completed
// supplicant installs nothing and answers nothing but a message 1 unless
// the frame's MIC verifies under its PTK.
func FuzzSupplicantReceive(f *testing.F) {
	seedFrames(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		su := setup{}
		fresh, _ := NewSupplicant(SupplicantConfig{SPA: staMAC, AA: apMAC, PMK: pmkOf(t, "x1234567"),
			RSNE: su.stationRSNE(), APRSNE: su.policy().Element(), Rand: testRand()})
		fresh.Receive(0, b)
		fresh.Drain(func(x Action) {
			if x.Kind != ActSend {
				t.Fatalf("a fresh supplicant did %v on one frame", x.Kind)
			}
		})
		l := newLink(t, setup{})
		kck := l.sup.ptk.KCK
		l.sup.Receive(l.now, b)
		l.sup.Drain(func(x Action) {
			k, err := rsn.ParseKeyFrame(b)
			if err != nil {
				t.Fatal("unparseable frame acted on")
			}
			msg1 := k.Info()&(rsn.InfoMIC|rsn.InfoPairwise) == rsn.InfoPairwise
			if !rsn.VerifyMIC(k, &kck) && !(msg1 && x.Kind == ActSend) {
				t.Fatalf("an unauthenticated frame caused %v", x.Kind)
			}
		})
	})
}

// FuzzStationReceiveAwaitingMessage4 sends one frame to a station whose
// message 3 is out after message 1 went out twice, the state in which the
// SNonce-update workaround takes a message 2 with an old counter. Without
// the station's keys a frame changes nothing (at most a PSK mismatch is
// reported), and the station's message 4 then completes the handshake,
// installing the TK once. The PMK is derived once for all inputs.
func FuzzStationReceiveAwaitingMessage4(f *testing.F) {
	_, kept := awaitingMessage4(f, setup{})
	rsne := setup{}.stationRSNE()
	for _, b := range [][]byte{kept[2], kept[0], forgedMsg2(1, msg2Info, rsne), forgedMsg2(2, msg2Info, rsne),
		forgedMsg2(2, msg2Info|rsn.InfoAck, rsne), forgedMsg2(3, rsn.VersionHMACSHA1|rsn.InfoMIC|rsn.InfoRequest, nil)} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		l, kept := awaitingMessage4(t, setup{})
		n := len(l.ap)
		l.deliver(staMAC, true, bytes.Clone(b))
		k, err := rsn.ParseKeyFrame(b)
		if m4, _ := rsn.ParseKeyFrame(kept[2]); err == nil && bytes.Equal(k, m4) {
			if !l.s.Authorized() || count(l.ap, ActInstallPTK) != 1 {
				t.Fatalf("the station's message 4 did not complete: %s", kinds(l.ap[n:]))
			}
			return
		}
		for _, a := range l.ap[n:] {
			if a.Kind != ActPSKMismatch {
				t.Fatalf("a frame without the station's keys caused %s", kinds(l.ap[n:]))
			}
		}
		l.deliver(staMAC, true, kept[2])
		if !l.s.Authorized() || count(l.ap, ActInstallPTK) != 1 {
			t.Fatalf("after one foreign frame the station's message 4 no longer completes: %s, %s", l.s.State(), kinds(l.ap[n:]))
		}
	})
}
