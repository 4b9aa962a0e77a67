package rsn

import (
	"math/rand/v2"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// randomMessage2 is a message 2 of the AKM's descriptor version with
// random nonces, signed under the PTK of pmk, or with a random MIC.
func randomMessage2(r *rand.ChaCha8, akm AKM, pmk *PMK, aa, spa ieee80211.MAC, anonce *Nonce, signed bool) KeyFrame {
	var snonce Nonce
	r.Read(snonce[:])
	data := make([]byte, r.Uint64()%60)
	r.Read(data)
	f := KeyFrame(AppendKeyFrame(nil, &KeyFields{ProtocolVersion: 1, Replay: r.Uint64(), Nonce: snonce, Data: data,
		Info: DescriptorVersion(akm) | InfoPairwise | InfoMIC}))
	if signed {
		ptk := DerivePTK(akm, pmk, aa, spa, anonce, &snonce)
		SetMIC(f, &ptk.KCK)
	} else {
		r.Read(f.MIC())
	}
	return f
}

// TestMICCheckerMatchesPTK: the checker agrees with DerivePTK and
// VerifyMIC on signed and forged messages 2 of both AKMs, under the right
// PMK and a wrong one.
func TestMICCheckerMatchesPTK(t *testing.T) {
	r := rand.NewChaCha8([32]byte{7})
	var c MICChecker
	for i := range 400 {
		akm := []AKM{AKMPSK, AKMPSKSHA256}[i%2]
		var pmk, other PMK
		var anonce Nonce
		var aa, spa ieee80211.MAC
		r.Read(pmk[:])
		r.Read(other[:])
		r.Read(anonce[:])
		r.Read(aa[:])
		r.Read(spa[:])
		f := randomMessage2(r, akm, &pmk, aa, spa, &anonce, i%3 != 0)
		snonce := f.Nonce()
		for _, k := range []*PMK{&pmk, &other} {
			ptk := DerivePTK(akm, k, aa, spa, &anonce, &snonce)
			if want, got := VerifyMIC(f, &ptk.KCK), c.Check(akm, k, aa, spa, &anonce, &snonce, f); got != want {
				t.Fatalf("case %d (%v): checker says %v, the PTK %v", i, akm, got, want)
			}
		}
	}
}

// forgedCheck returns one check of a forged message 2 under a PMK it
// does not match.
func forgedCheck(seed byte) func() bool {
	r := rand.NewChaCha8([32]byte{seed})
	var c MICChecker
	var pmk PMK
	var anonce Nonce
	aa, spa := ieee80211.MAC{2}, ieee80211.MAC{4}
	f := randomMessage2(r, AKMPSK, &pmk, aa, spa, &anonce, false)
	snonce := f.Nonce()
	return func() bool { return c.Check(AKMPSK, &pmk, aa, spa, &anonce, &snonce, f) }
}

func TestMICCheckerAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocations are counted without -race")
	}
	check := forgedCheck(8)
	if n := testing.AllocsPerRun(100, func() { check() }); n != 0 {
		t.Fatalf("%v allocations per check", n)
	}
}

// BenchmarkMICChecker is the cost of trying one PMK against a message 2.
func BenchmarkMICChecker(b *testing.B) {
	check := forgedCheck(9)
	b.ReportAllocs()
	for b.Loop() {
		check()
	}
}
