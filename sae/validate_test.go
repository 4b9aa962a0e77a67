package sae

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"testing"
	"time"
)

// commitWith is a Commit in group 19 with the given scalar and element.
func commitWith(h2e bool, scalar, element []byte) Frame {
	st := StatusSuccess
	if h2e {
		st = StatusSAEHashToElement
	}
	return Frame{Transaction: 1, Status: st, Body: AppendCommit(nil, 19, nil, scalar, element, nil, false, h2e, nil)}
}

func validCommit(t *testing.T, h2e bool) (scalar, element []byte) {
	g, _ := GroupByID(19)
	s, _ := NewStation(g, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, h2e)
	f, err := s.Commit(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := ParseCommit(f.Body, 32, h2e)
	return c.Scalar, c.Element
}

// TestScalarRange: a scalar of 0, 1, r, r+1 or 2^256-1 is refused with
// status 1 before any work; r-1 is accepted.
func TestScalarRange(t *testing.T) {
	g, _ := GroupByID(19)
	_, elem := validCommit(t, true)
	r := g.order
	plus := func(d byte) []byte {
		b := append([]byte(nil), r...)
		b[len(b)-1] += d
		return b
	}
	minus1 := append([]byte(nil), r...)
	minus1[len(minus1)-1]--
	for _, sc := range [][]byte{make([]byte, 32), append(make([]byte, 31), 1), r, plus(1), bytes.Repeat([]byte{0xff}, 32)} {
		a := newAP(t, nil)
		res := a.Handle(t0, rand.Reader, staMAC, commitWith(true, sc, elem))
		if res.Job != nil || len(res.Replies) != 1 || res.Replies[0].Status != StatusUnspecified {
			t.Errorf("scalar %x: %+v", sc, res)
		}
	}
	a := newAP(t, nil)
	if res := a.Handle(t0, rand.Reader, staMAC, commitWith(true, minus1, elem)); res.Job == nil {
		t.Errorf("scalar r-1 refused: %+v", res)
	}
}

// TestElementValidation: an element off the curve, with a coordinate >= p,
// or all zero (no encoding of infinity) is refused with status 1.
func TestElementValidation(t *testing.T) {
	g, _ := GroupByID(19)
	sc, elem := validCommit(t, false)
	offCurve := append([]byte(nil), elem...)
	offCurve[63] ^= 1
	xTooBig := append(append([]byte(nil), g.prime...), elem[32:]...)
	yPlusP := append([]byte(nil), elem...) // y + p does not fit: p itself as y
	copy(yPlusP[32:], g.prime)
	for _, e := range [][]byte{offCurve, xTooBig, yPlusP, make([]byte, 64)} {
		a := newAP(t, nil)
		res := a.Handle(t0, rand.Reader, staMAC, commitWith(false, sc, e))
		if res.Job != nil || len(res.Replies) != 1 || res.Replies[0].Status != StatusUnspecified {
			t.Errorf("element %x: %+v", e, res)
		}
	}
}

// TestReflection: the AP's own Commit sent back to it is dropped without
// a reply.
func TestReflection(t *testing.T) {
	for _, h2e := range []bool{false, true} {
		a := newAP(t, nil)
		sc, elem := validCommit(t, h2e)
		r := deliver(a, staMAC, commitWith(h2e, sc, elem))
		own := r.Replies[0]
		back := Frame{Transaction: 1, Status: own.Status, Body: own.Body}
		r = a.Handle(t0, rand.Reader, staMAC, back)
		if r.Drop != DropReflection || len(r.Replies) != 0 || r.Job != nil {
			t.Errorf("h2e %v: reflection: %+v", h2e, r)
		}
	}
}

// TestKAtInfinity: a commit whose element is -(scalar * PWE) makes K the
// point at infinity; the AP refuses it with status 1.
func TestKAtInfinity(t *testing.T) {
	a := newAP(t, nil)
	g, _ := GroupByID(19)
	pwe, err := a.pts[ptKey{0, 19}].pwe(apMAC, staMAC)
	if err != nil {
		t.Fatal(err)
	}
	two := append(make([]byte, 31), 2)
	e := g.newPoint()
	if err := e.scalarMult(pwe, two); err != nil {
		t.Fatal(err)
	}
	e.negate(e)
	r := deliver(a, staMAC, commitWith(true, two, elementBytes(e)))
	if len(r.Replies) != 1 || r.Replies[0].Status != StatusUnspecified {
		t.Fatalf("K at infinity: %+v", r)
	}
}

// TestRejectedGroups: an odd-length list is refused, a list naming an
// enabled group is refused, and a list of groups the AP does not enable is
// bound into both sides' keyseed.
func TestRejectedGroups(t *testing.T) {
	sc, elem := validCommit(t, true)
	odd := append(AppendCommit(nil, 19, nil, sc, elem, nil, false, true, nil), elemExtension, 4, extRejectedGroups, 20, 0, 21)
	a := newAP(t, nil)
	if r := a.Handle(t0, rand.Reader, staMAC, Frame{1, StatusSAEHashToElement, odd}); len(r.Replies) != 1 || r.Replies[0].Status != StatusUnspecified {
		t.Fatalf("odd Rejected Groups: %+v", r)
	}
	g, _ := GroupByID(19)
	s, _ := NewStation(g, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, true)
	s.SetRejectedGroups([]uint16{20})
	f, _ := s.Commit(rand.Reader)
	if r := a.Handle(t0, rand.Reader, staMAC, f); len(r.Replies) != 1 || r.Replies[0].Status != StatusUnspecified {
		t.Fatalf("Rejected Groups naming enabled 20: %+v", r)
	}
	a = newAP(t, func(c *Config) { c.Groups = []uint16{19} })
	s, _ = NewStation(g, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, true)
	s.SetRejectedGroups([]uint16{20, 21})
	ak, sk, err := handshake(t, a, s, staMAC)
	if err != nil || ak == nil || sk == nil || ak.PMK != sk.PMK {
		t.Fatalf("rejected 20, 21: %v %v %v", ak, sk, err)
	}
	plain, _ := NewStation(g, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, true)
	a = newAP(t, func(c *Config) { c.Groups = []uint16{19} })
	ak2, _, _ := handshake(t, a, plain, staMAC)
	if ak2 == nil {
		t.Fatal("no keys without Rejected Groups")
	}
}

// TestSyncLimit: Commits in Confirmed count as sync errors; past sae_sync
// the instance goes back to Nothing and drops Commits for 10 s.
func TestSyncLimit(t *testing.T) {
	a := newAP(t, func(c *Config) { c.ConfirmImmediate = true })
	sc, elem := validCommit(t, true)
	f := commitWith(true, sc, elem)
	if r := deliver(a, staMAC, f); len(r.Replies) != 2 || a.State(staMAC) != Confirmed {
		t.Fatalf("first commit: %+v %v", r, a.State(staMAC))
	}
	for i := 1; i <= DefaultSync+1; i++ {
		sc, elem := validCommit(t, true)
		r := deliver(a, staMAC, commitWith(true, sc, elem))
		if len(r.Replies) != 2 {
			t.Fatalf("commit %d in Confirmed: %+v", i, r)
		}
	}
	sc, elem = validCommit(t, true)
	if r := deliver(a, staMAC, commitWith(true, sc, elem)); r.Drop != DropSync || a.State(staMAC) != Nothing {
		t.Fatalf("past sae_sync: %+v %v", r, a.State(staMAC))
	}
	if r := a.Handle(t0.Add(9*time.Second), rand.Reader, staMAC, f); r.Drop != DropDisabled {
		t.Fatalf("within 10 s: %+v", r)
	}
	if r := a.Handle(t0.Add(10*time.Second), rand.Reader, staMAC, f); r.Job == nil {
		t.Fatalf("after 10 s: %+v", r)
	}
}

// TestConfirmRules: a Confirm without an instance gets status 1; a wrong
// one status 15; a replayed one in Accepted is ignored; a new one in
// Accepted is a sync error answered with our Confirm, after which the
// temporary data is gone (status 15).
func TestConfirmRules(t *testing.T) {
	a := newAP(t, nil)
	if r := a.Handle(t0, rand.Reader, staMAC, Frame{2, 0, make([]byte, 34)}); len(r.Replies) != 1 || r.Replies[0].Status != StatusUnspecified {
		t.Fatalf("confirm without instance: %+v", r)
	}
	g, _ := GroupByID(19)
	s, _ := NewStation(g, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, true)
	f, _ := s.Commit(rand.Reader)
	r := deliver(a, staMAC, f)
	conf, _, err := s.Handle(rand.Reader, r.Replies[0])
	if err != nil {
		t.Fatal(err)
	}
	bad := Frame{2, 0, append([]byte(nil), conf.Body...)}
	bad.Body[5] ^= 1
	if r := deliver(a, staMAC, bad); len(r.Replies) != 1 || r.Replies[0].Status != StatusChallengeFail {
		t.Fatalf("wrong confirm: %+v", r)
	}
	if r := deliver(a, staMAC, *conf); r.Accepted == nil || len(r.Replies) != 1 {
		t.Fatalf("confirm: %+v", r)
	}
	if r := deliver(a, staMAC, *conf); r.Drop != DropReplay || len(r.Replies) != 0 {
		t.Fatalf("replayed confirm: %+v", r)
	}
	next := Frame{2, 0, append([]byte(nil), conf.Body...)}
	binary.LittleEndian.PutUint16(next.Body, 2)
	next.Body = AppendConfirm(nil, 2, s.x.confirm(2, true))
	if r := deliver(a, staMAC, next); len(r.Replies) != 1 || r.Replies[0].Transaction != 2 || r.Replies[0].Status != 0 {
		t.Fatalf("new confirm in Accepted: %+v", r)
	}
	next.Body = AppendConfirm(nil, 3, s.x.confirm(3, true))
	if r := deliver(a, staMAC, next); len(r.Replies) != 1 || r.Replies[0].Status != StatusChallengeFail {
		t.Fatalf("confirm after temporary data freed: %+v", r)
	}
	// The accepted peer scalar may not come again.
	if r := deliver(a, staMAC, f); len(r.Replies) != 1 || r.Replies[0].Status != StatusUnspecified {
		t.Fatalf("reused scalar: %+v", r)
	}
}

// TestAntiClogging: at the threshold a Commit without a token gets status
// 76 and a token (in its container under H2E); the Commit with it goes
// through; the same token again, or from another MAC, is dropped.
func TestAntiClogging(t *testing.T) {
	for _, h2e := range []bool{false, true} {
		a := newAP(t, func(c *Config) { c.AntiCloggingThreshold = 0 })
		g, _ := GroupByID(19)
		s, _ := NewStation(g, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, h2e)
		f, _ := s.Commit(rand.Reader)
		r := deliver(a, staMAC, f)
		if len(r.Replies) != 1 || r.Replies[0].Status != StatusAntiCloggingToken {
			t.Fatalf("h2e %v: no token request: %+v", h2e, r)
		}
		if h2e != (r.Replies[0].Body[2] == elemExtension) {
			t.Fatalf("h2e %v: token request body %x", h2e, r.Replies[0].Body)
		}
		withToken, _, err := s.Handle(rand.Reader, r.Replies[0])
		if err != nil {
			t.Fatal(err)
		}
		other := MAC{2, 0, 0, 0, 0, 9}
		if r := deliver(a, other, *withToken); r.Drop != DropBadToken {
			t.Fatalf("h2e %v: token from another MAC: %+v", h2e, r)
		}
		if r := deliver(a, staMAC, *withToken); len(r.Replies) != 1 || r.Replies[0].Status == StatusAntiCloggingToken {
			t.Fatalf("h2e %v: commit with token: %+v", h2e, r)
		}
		a.Forget(staMAC)
		if r := deliver(a, staMAC, *withToken); r.Drop != DropBadToken {
			t.Fatalf("h2e %v: token reused: %+v", h2e, r)
		}
	}
}

// TestTokenKeyRotates: a token dies with its key, which lives 60 s.
func TestTokenKeyRotates(t *testing.T) {
	var tk Tokens
	tok, err := tk.Request(nil, t0, rand.Reader, staMAC)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tk.Request(nil, t0.Add(61*time.Second), rand.Reader, MAC{2, 0, 0, 0, 0, 7}); err != nil {
		t.Fatal(err)
	}
	if tk.Check(staMAC, tok) {
		t.Fatal("token accepted under a new key")
	}
	tok, _ = tk.Request(nil, t0.Add(62*time.Second), rand.Reader, staMAC)
	if !tk.Check(staMAC, tok) || tk.Check(staMAC, tok) {
		t.Fatal("fresh token not accepted once")
	}
}

// TestTokenCheckAllocs: checking a token allocates nothing.
func TestTokenCheckAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race; the non-race pass checks them")
	}
	var tk Tokens
	tok, _ := tk.Request(nil, t0, rand.Reader, staMAC)
	bad := append([]byte(nil), tok...)
	bad[31] ^= 1
	if n := testing.AllocsPerRun(100, func() { tk.Check(staMAC, bad) }); n != 0 {
		t.Fatalf("Check allocates %v times", n)
	}
}
