package sae

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"testing"
	"time"
)

var (
	apMAC  = MAC{0x02, 0, 0, 0, 0, 1}
	staMAC = MAC{0x02, 0, 0, 0, 0, 2}
	t0     = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
)

func newAP(t testing.TB, mod func(*Config)) *Authenticator {
	t.Helper()
	cfg := Config{
		SSID: []byte("airq"), BSSID: apMAC, Groups: []uint16{19, 20, 21}, PWE: BothMethods,
		Sync: DefaultSync, AntiCloggingThreshold: 5,
		Passwords: []Password{{Password: []byte("correct horse"), AnyPeer: true}},
	}
	if mod != nil {
		mod(&cfg)
	}
	a, err := NewAuthenticator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// deliver hands f to the AP, runs any job at once, and returns the result.
func deliver(a *Authenticator, from MAC, f Frame) Result {
	r := a.Handle(t0, rand.Reader, from, f)
	if r.Job != nil {
		r.Job.Run(nil)
		r = a.Finish(t0, r.Job)
	}
	return r
}

// handshake runs a station against the AP until both sides have keys or
// one fails; it returns the AP's and the station's keys and the station's
// error.
func handshake(t testing.TB, a *Authenticator, s *Station, from MAC) (apKeys, staKeys *Keys, err error) {
	t.Helper()
	f, err := s.Commit(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	queue := []Frame{f}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 10 {
			t.Fatal("exchange does not end")
		}
		r := deliver(a, from, queue[0])
		queue = queue[1:]
		if r.Accepted != nil {
			apKeys = r.Accepted
		}
		for _, rep := range r.Replies {
			out, k, err := s.Handle(rand.Reader, rep)
			if err != nil {
				return apKeys, nil, err
			}
			if k != nil {
				staKeys = k
			}
			if out != nil {
				queue = append(queue, *out)
			}
		}
	}
	return apKeys, staKeys, nil
}

// TestInterop runs this package's station against its AP for both
// methods and groups 19, 20 and 21: the two sides end with the same PMK
// and PMKID, and a wrong password ends with status 15.
func TestInterop(t *testing.T) {
	for _, id := range []uint16{19, 20, 21} {
		for _, h2e := range []bool{false, true} {
			g, _ := GroupByID(id)
			a := newAP(t, nil)
			s, err := NewStation(g, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, h2e)
			if err != nil {
				t.Fatal(err)
			}
			ak, sk, err := handshake(t, a, s, staMAC)
			if err != nil || ak == nil || sk == nil {
				t.Fatalf("group %d h2e %v: ap %v sta %v err %v", id, h2e, ak, sk, err)
			}
			if ak.PMK != sk.PMK || ak.PMKID != sk.PMKID || ak.Group != id || ak.H2E != h2e {
				t.Errorf("group %d h2e %v: keys differ: %+v %+v", id, h2e, ak, sk)
			}
			if a.State(staMAC) != Accepted {
				t.Errorf("state %v", a.State(staMAC))
			}

			a = newAP(t, nil)
			s, _ = NewStation(g, staMAC, apMAC, []byte("airq"), []byte("wrong horse"), nil, h2e)
			_, sk, err = handshake(t, a, s, staMAC)
			var se *StatusError
			if !errors.As(err, &se) || se.Status != StatusChallengeFail || sk != nil {
				t.Errorf("group %d h2e %v wrong password: %v", id, h2e, err)
			}
		}
	}
}

// TestCommitAnsweredWithCommitOnly: the AP's Confirm waits for the
// station's unless sae_confirm_immediate.
func TestCommitAnsweredWithCommitOnly(t *testing.T) {
	g, _ := GroupByID(19)
	for _, imm := range []bool{false, true} {
		a := newAP(t, func(c *Config) { c.ConfirmImmediate = imm })
		s, _ := NewStation(g, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, true)
		f, _ := s.Commit(rand.Reader)
		r := deliver(a, staMAC, f)
		want := 1
		if imm {
			want = 2
		}
		if len(r.Replies) != want || r.Replies[0].Transaction != 1 || r.Replies[0].Status != StatusSAEHashToElement {
			t.Fatalf("immediate %v: replies %+v", imm, r.Replies)
		}
	}
}

// TestStatusAndGroupRules covers the status codes of a Commit: a group
// not enabled gets 77 with the group echoed; a status that does not fit
// sae_pwe gets 1 without an instance and is dropped with one; an unknown
// identifier gets 123.
func TestStatusAndGroupRules(t *testing.T) {
	g20, _ := GroupByID(20)
	a := newAP(t, func(c *Config) { c.Groups = []uint16{19}; c.PWE = HashToElement })
	s, _ := NewStation(g20, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, true)
	f, _ := s.Commit(rand.Reader)
	r := deliver(a, staMAC, f)
	if len(r.Replies) != 1 || r.Replies[0].Status != StatusGroupNotSupported || !bytes.Equal(r.Replies[0].Body, []byte{20, 0}) {
		t.Fatalf("group 20 not enabled: %+v", r)
	}

	g19, _ := GroupByID(19)
	s, _ = NewStation(g19, staMAC, apMAC, nil, []byte("correct horse"), nil, false)
	f, _ = s.Commit(rand.Reader)
	r = deliver(a, staMAC, f) // H&P to an H2E-only AP, no instance
	if len(r.Replies) != 1 || r.Replies[0].Status != StatusUnspecified {
		t.Fatalf("status 0 to sae_pwe=1 without instance: %+v", r)
	}
	s2, _ := NewStation(g19, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, true)
	f2, _ := s2.Commit(rand.Reader)
	if r := deliver(a, staMAC, f2); len(r.Replies) != 1 {
		t.Fatalf("H2E commit: %+v", r)
	}
	r = deliver(a, staMAC, f) // now with an instance: dropped
	if len(r.Replies) != 0 || r.Drop != DropStatus {
		t.Fatalf("status 0 to sae_pwe=1 with instance: %+v", r)
	}

	s3, _ := NewStation(g19, MAC{2, 0, 0, 0, 0, 3}, apMAC, []byte("airq"), []byte("correct horse"), []byte("nobody"), true)
	f3, _ := s3.Commit(rand.Reader)
	r = deliver(a, MAC{2, 0, 0, 0, 0, 3}, f3)
	if len(r.Replies) != 1 || r.Replies[0].Status != StatusUnknownPasswordID {
		t.Fatalf("unknown identifier: %+v", r)
	}
}

// TestIdentifiers: a password with an identifier is used only for that
// identifier, and identifiers on every password force H2E.
func TestIdentifiers(t *testing.T) {
	a := newAP(t, func(c *Config) {
		c.PWE = HuntAndPeck
		c.Passwords = []Password{{Password: []byte("pw-a"), Identifier: []byte("alice"), AnyPeer: true}}
	})
	if a.PWE() != HashToElement {
		t.Fatalf("effective sae_pwe %v", a.PWE())
	}
	g, _ := GroupByID(19)
	s, _ := NewStation(g, staMAC, apMAC, []byte("airq"), []byte("pw-a"), []byte("alice"), true)
	if ak, sk, err := handshake(t, a, s, staMAC); err != nil || ak == nil || sk == nil || ak.PMK != sk.PMK {
		t.Fatalf("identifier alice: %v %v %v", ak, sk, err)
	}
}

// TestRestartInCommitted: a new Commit in Committed with the same group
// gets the same Commit again (PWE and scalar kept, no token asked); with
// another enabled group the exchange restarts in it.
func TestRestartInCommitted(t *testing.T) {
	for _, h2e := range []bool{false, true} {
		a := newAP(t, func(c *Config) { c.AntiCloggingThreshold = 1 })
		g19, _ := GroupByID(19)
		s, _ := NewStation(g19, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, h2e)
		f, _ := s.Commit(rand.Reader)
		a.cfg.AntiCloggingThreshold = 100
		first := deliver(a, staMAC, f)
		a.cfg.AntiCloggingThreshold = 1 // one instance open: tokens from now on
		again := deliver(a, staMAC, f)
		if len(again.Replies) != 1 || !bytes.Equal(again.Replies[0].Body, first.Replies[0].Body) {
			t.Fatalf("h2e %v: same-group restart: %+v vs %+v", h2e, again.Replies, first.Replies)
		}
		g20, _ := GroupByID(20)
		s20, _ := NewStation(g20, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, h2e)
		f20, _ := s20.Commit(rand.Reader)
		a.cfg.AntiCloggingThreshold = 100
		r := deliver(a, staMAC, f20)
		if len(r.Replies) != 1 || binary.LittleEndian.Uint16(r.Replies[0].Body) != 20 {
			t.Fatalf("h2e %v: restart in group 20: %+v", h2e, r)
		}
	}
}

// TestReauthFromAccepted: a new Commit in Accepted starts a
// reauthentication, answered with our Commit only (even with
// sae_confirm_immediate, as sae_sm_step), and the exchange completes
// again with new keys.
func TestReauthFromAccepted(t *testing.T) {
	g, _ := GroupByID(19)
	a := newAP(t, func(c *Config) { c.ConfirmImmediate = true })
	s, _ := NewStation(g, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, true)
	f, _ := s.Commit(rand.Reader)
	r := deliver(a, staMAC, f)
	conf, _, err := s.Handle(rand.Reader, r.Replies[0])
	if err != nil {
		t.Fatal(err)
	}
	first := deliver(a, staMAC, *conf)
	if first.Accepted == nil {
		t.Fatalf("first exchange: %+v", first)
	}
	s2, _ := NewStation(g, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, true)
	ak, sk, err := handshake(t, a, s2, staMAC)
	if err != nil || ak == nil || sk == nil || ak.PMK != sk.PMK || ak.PMK == first.Accepted.PMK {
		t.Fatalf("reauthentication: %v %v %v", ak, sk, err)
	}
	s3, _ := NewStation(g, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, true)
	f3, _ := s3.Commit(rand.Reader)
	if r := deliver(a, staMAC, f3); len(r.Replies) != 1 || a.State(staMAC) != Committed {
		t.Fatalf("commit in Accepted: %d replies, state %v", len(r.Replies), a.State(staMAC))
	}
}
