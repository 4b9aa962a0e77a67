package sae

import (
	"crypto/rand"
	"testing"
)

// benchHandshake measures the AP's work for one exchange: the station's
// Commit handled (validation, the job: PWE, our commit, K, keys) and its
// Confirm checked and answered. The station commits once; each round it
// only derives K from the AP's new commit (two scalar multiplications),
// outside the timer.
func benchHandshake(b *testing.B, id uint16, h2e bool) {
	g, _ := GroupByID(id)
	a := newAP(b, func(c *Config) { c.Groups = []uint16{id}; c.AntiCloggingThreshold = 1 << 30 })
	s, _ := NewStation(g, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, false)
	if h2e {
		s.h2e, s.pt = true, a.pts[ptKey{0, id}]
	}
	f, err := s.Commit(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		a.Forget(staMAC)
		r := deliver(a, staMAC, f)
		b.StopTimer()
		conf, _, err := s.Handle(rand.Reader, r.Replies[0])
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if r := deliver(a, staMAC, *conf); r.Accepted == nil {
			b.Fatal("not accepted")
		}
	}
}

func BenchmarkHandshakeH2E19(b *testing.B) { benchHandshake(b, 19, true) }
func BenchmarkHandshakeHnP19(b *testing.B) { benchHandshake(b, 19, false) }
func BenchmarkHandshakeH2E20(b *testing.B) { benchHandshake(b, 20, true) }
func BenchmarkHandshakeHnP20(b *testing.B) { benchHandshake(b, 20, false) }
func BenchmarkHandshakeH2E21(b *testing.B) { benchHandshake(b, 21, true) }
func BenchmarkHandshakeHnP21(b *testing.B) { benchHandshake(b, 21, false) }

func BenchmarkDerivePT19(b *testing.B) {
	g, _ := GroupByID(19)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.DerivePT([]byte("airq"), []byte("correct horse"), nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTokenCheck(b *testing.B) {
	var tk Tokens
	tok, _ := tk.Request(nil, t0, rand.Reader, staMAC)
	tok[31] ^= 1 // a wrong token: the whole check runs every time
	b.ReportAllocs()
	for b.Loop() {
		tk.Check(staMAC, tok)
	}
}
