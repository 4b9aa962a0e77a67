package sae

import (
	"crypto/rand"
	"fmt"
	"strings"
	"testing"
)

// TestSecretsNotPrinted: printing a configuration or keys shows no
// password and no PMK.
func TestSecretsNotPrinted(t *testing.T) {
	cfg := Config{Passwords: []Password{{Password: []byte("hunter22"), Identifier: []byte("guest"), Peer: staMAC}}}
	out := fmt.Sprintf("%v %+v %s", cfg, cfg, cfg.Passwords[0])
	if strings.Contains(out, "hunter22") || !strings.Contains(out, "guest") || !strings.Contains(out, "02:00:00:00:00:02") {
		t.Fatalf("printed: %s", out)
	}
	k := Keys{PMK: [32]byte{0xde, 0xad, 0xbe, 0xef}, Group: 19}
	if out := fmt.Sprintf("%v %+v", k, &k); strings.Contains(out, "deadbeef") {
		t.Fatalf("printed: %s", out)
	}
}

// TestPasswordPerPeer: a password limited to a MAC is used for that peer
// only, and the last match wins (sae_get_password).
func TestPasswordPerPeer(t *testing.T) {
	other := MAC{2, 0, 0, 0, 0, 5}
	a := newAP(t, func(c *Config) {
		c.Passwords = []Password{
			{Password: []byte("general"), AnyPeer: true},
			{Password: []byte("just-sta"), Peer: staMAC},
		}
	})
	g, _ := GroupByID(19)
	for _, c := range []struct {
		mac MAC
		pw  string
		ok  bool
	}{{staMAC, "just-sta", true}, {staMAC, "general", false}, {other, "general", true}, {other, "just-sta", false}} {
		for _, h2e := range []bool{false, true} {
			a.Forget(c.mac)
			s, _ := NewStation(g, c.mac, apMAC, []byte("airq"), []byte(c.pw), nil, h2e)
			ak, sk, err := handshake(t, a, s, c.mac)
			if ok := err == nil && ak != nil && sk != nil; ok != c.ok {
				t.Errorf("%v with %q h2e %v: ok %v, want %v (%v)", c.mac, c.pw, h2e, ok, c.ok, err)
			}
		}
	}
}

// TestJobs: a job in work counts toward the anti-clogging threshold; a
// newer Commit from the same peer supersedes it (the old one is dropped
// when it comes back, the new one answered); a job whose instance was
// forgotten is dropped; Finish takes a job once.
func TestJobs(t *testing.T) {
	a := newAP(t, func(c *Config) { c.AntiCloggingThreshold = 2 })
	sc, el := validCommit(t, true)
	f := commitWith(true, sc, el)
	old := a.Handle(t0, rand.Reader, staMAC, f)
	if old.Job == nil {
		t.Fatalf("no job: %+v", old)
	}
	sc2, el2 := validCommit(t, true)
	newer := a.Handle(t0, rand.Reader, staMAC, commitWith(true, sc2, el2))
	if newer.Job == nil {
		t.Fatalf("newer commit while in work: %+v", newer)
	}
	other := MAC{2, 0, 0, 0, 0, 6}
	if r := a.Handle(t0, rand.Reader, other, f); len(r.Replies) != 1 || r.Replies[0].Status != StatusAntiCloggingToken {
		t.Fatalf("jobs in work do not count toward the threshold: %+v", r)
	}
	old.Job.Run(nil)
	newer.Job.Run(nil)
	if r := a.Finish(t0, old.Job); r.Drop != DropStale || len(r.Replies) != 0 {
		t.Fatalf("superseded job: %+v", r)
	}
	if r := a.Finish(t0, newer.Job); len(r.Replies) != 1 || a.State(staMAC) != Committed {
		t.Fatalf("newer job: %+v", r)
	}
	if r := a.Finish(t0, newer.Job); r.Drop != DropStale || a.jobs != 0 {
		t.Fatalf("job finished twice: %+v, %d in work", r, a.jobs)
	}
	a.Forget(staMAC)
	r := a.Handle(t0, rand.Reader, staMAC, f)
	a.Forget(staMAC)
	successor := a.Handle(t0, rand.Reader, staMAC, commitWith(true, sc2, el2))
	r.Job.Run(nil)
	if r := a.Finish(t0, r.Job); r.Drop != DropStale {
		t.Fatalf("job of a forgotten instance: %+v", r)
	}
	successor.Job.Run(nil)
	if r := a.Finish(t0, successor.Job); len(r.Replies) != 1 || a.jobs != 0 {
		t.Fatalf("successor's job: %+v, %d in work", r, a.jobs)
	}
}

// TestMaxPeers: instances are bounded; a commit from one more peer is
// dropped, and room comes back when one is forgotten.
func TestMaxPeers(t *testing.T) {
	a := newAP(t, func(c *Config) { c.MaxPeers = 3; c.AntiCloggingThreshold = 100 })
	sc, el := validCommit(t, true)
	for i := range 3 {
		if r := deliver(a, MAC{2, 0, 0, 0, 1, byte(i)}, commitWith(true, sc, el)); len(r.Replies) != 1 {
			t.Fatalf("peer %d: %+v", i, r)
		}
	}
	if r := deliver(a, MAC{2, 0, 0, 0, 1, 9}, commitWith(true, sc, el)); r.Drop != DropTooMany {
		t.Fatalf("fourth peer: %+v", r)
	}
	a.Forget(MAC{2, 0, 0, 0, 1, 0})
	if r := deliver(a, MAC{2, 0, 0, 0, 1, 9}, commitWith(true, sc, el)); len(r.Replies) != 1 {
		t.Fatalf("after a Forget: %+v", r)
	}
}

// TestYieldBetweenIterations: hunting and pecking gives the CPU back
// between its iterations, at least 39 times.
func TestYieldBetweenIterations(t *testing.T) {
	g, _ := GroupByID(19)
	n := 0
	if _, err := g.pweHuntAndPeck(apMAC, staMAC, []byte("pw"), rand.Reader, nil, func() { n++ }); err != nil {
		t.Fatal(err)
	}
	if n < minIterations-1 {
		t.Fatalf("%d yields", n)
	}
}

// TestJobYieldsAroundScalarMults: a job gives the CPU back around each
// of its scalar multiplications, so that no piece holds a one-CPU loop for
// more than one of them: with hash-to-element between the PWE, our commit
// and K's two (3 yields, 1 for a restart that keeps PWE and commit); with
// hunting and pecking also before every iteration, between the blinding's
// draws and before the square root.
func TestJobYieldsAroundScalarMults(t *testing.T) {
	for _, h2e := range []bool{true, false} {
		a := newAP(t, func(c *Config) { c.AntiCloggingThreshold = 100 })
		sc, el := validCommit(t, h2e)
		r := a.Handle(t0, rand.Reader, staMAC, commitWith(h2e, sc, el))
		if r.Job == nil {
			t.Fatalf("h2e %v: no job: %+v", h2e, r)
		}
		n := 0
		r.Job.Run(func() { n++ })
		if r.Job.err != nil {
			t.Fatalf("h2e %v: %v", h2e, r.Job.err)
		}
		want := 3
		if !h2e {
			want = minIterations + 3 + 1 // iterations, square root, commit, K; at least one more draw
		}
		if h2e && n != want || !h2e && n < want {
			t.Fatalf("h2e %v: %d yields, want %d", h2e, n, want)
		}
		if r = a.Finish(t0, r.Job); len(r.Replies) != 1 {
			t.Fatalf("h2e %v: %+v", h2e, r)
		}
		r = a.Handle(t0, rand.Reader, staMAC, commitWith(h2e, sc, el)) // a restart in the same group
		if r.Job == nil {
			t.Fatalf("h2e %v: restart: no job: %+v", h2e, r)
		}
		n = 0
		r.Job.Run(func() { n++ })
		if n != 1 {
			t.Fatalf("h2e %v: restart: %d yields, want 1 (between K's two multiplications)", h2e, n)
		}
	}
}

// TestConfigRefused: unsupported groups and a configuration without a
// password are refused, naming the key.
func TestConfigRefused(t *testing.T) {
	for _, c := range []struct {
		cfg Config
		key string
	}{
		{Config{Groups: []uint16{19, 28}, Passwords: []Password{{Password: []byte("x"), AnyPeer: true}}}, "sae_groups"},
		{Config{}, "sae_password"},
	} {
		_, err := NewAuthenticator(c.cfg)
		if ce, ok := err.(*ConfigError); !ok || ce.Key != c.key {
			t.Errorf("%v: %v", c.key, err)
		}
	}
}

// TestIdentifierInStatusZeroCommit: a Commit with status 0 that carries a
// password identifier gets its PWE from the PT, as hostapd's
// auth_build_sae_commit does, with hunting-and-pecking's SHA-256 keys.
func TestIdentifierInStatusZeroCommit(t *testing.T) {
	a := newAP(t, func(c *Config) {
		c.PWE = BothMethods
		c.Passwords = []Password{{Password: []byte("pw-b"), Identifier: []byte("bob"), AnyPeer: true}, {Password: []byte("other"), AnyPeer: true}}
	})
	g, _ := GroupByID(19)
	s, _ := NewStation(g, staMAC, apMAC, []byte("airq"), []byte("pw-b"), []byte("bob"), true)
	s.h2e = false // status 0, SHA-256, the PT kept
	ak, sk, err := handshake(t, a, s, staMAC)
	if err != nil || ak == nil || sk == nil || ak.PMK != sk.PMK || ak.H2E {
		t.Fatalf("%v %v %v", ak, sk, err)
	}
}

// A Confirm from a peer whose Commit is in work is dropped, not answered
// with status 15: it meets no exchange to check against yet.
func TestConfirmWhileCommitInWork(t *testing.T) {
	a, _ := commitInWork(t)
	c := a.Handle(t0, nil, staMAC, Frame{Transaction: 2, Body: make([]byte, 2+32)})
	if c.Drop != DropBusy || len(c.Replies) != 0 {
		t.Fatalf("a Confirm during the Commit's job: %+v, want dropped as busy", c)
	}
}
