package sae

import (
	"crypto/rand"
	"fmt"
	"strings"
	"testing"
	"time"
)

// deliverAt is deliver at a given time.
func deliverAt(a *Authenticator, now time.Time, from MAC, f Frame) Result {
	r := a.Handle(now, rand.Reader, from, f)
	if r.Job != nil {
		r.Job.Run(nil)
		r = a.Finish(now, r.Job)
	}
	return r
}

// TestAbandonedInstancesExpire: commits from peers that never confirm
// (random MACs, stations that walked away) leave instances in Committed.
// Past instanceTimeout they no longer count toward
// anti_clogging_threshold and no longer hold room in the table, so they
// cannot lock new stations out for good.
func TestAbandonedInstancesExpire(t *testing.T) {
	a := newAP(t, func(c *Config) { c.MaxPeers = 3; c.AntiCloggingThreshold = 2 })
	sc, el := validCommit(t, true)
	for i := range 2 {
		if r := deliverAt(a, t0, MAC{2, 0, 0, 0, 1, byte(i)}, commitWith(true, sc, el)); len(r.Replies) != 1 || r.Replies[0].Status != StatusSAEHashToElement {
			t.Fatalf("peer %d: %+v", i, r)
		}
	}
	late := MAC{2, 0, 0, 0, 1, 9}
	if r := deliverAt(a, t0.Add(time.Second), late, commitWith(true, sc, el)); len(r.Replies) != 1 || r.Replies[0].Status != StatusAntiCloggingToken {
		t.Fatalf("two open instances: want a token request, got %+v", r)
	}
	later := t0.Add(instanceTimeout)
	if r := deliverAt(a, later, late, commitWith(true, sc, el)); len(r.Replies) != 1 || r.Replies[0].Status != StatusSAEHashToElement {
		t.Fatalf("abandoned instances still count toward the threshold: %+v", r)
	}

	full := newAP(t, func(c *Config) { c.MaxPeers = 3; c.AntiCloggingThreshold = 100 })
	for i := range 3 {
		deliverAt(full, t0, MAC{2, 0, 0, 0, 1, byte(i)}, commitWith(true, sc, el))
	}
	if r := deliverAt(full, t0.Add(time.Second), late, commitWith(true, sc, el)); r.Drop != DropTooMany {
		t.Fatalf("full table of live instances: %+v", r)
	}
	if r := deliverAt(full, later, late, commitWith(true, sc, el)); len(r.Replies) != 1 || r.Replies[0].Status != StatusSAEHashToElement {
		t.Fatalf("abandoned instances still fill the table: %+v", r)
	}
}

// TestDisabledInstanceOutlivesTimeout: an instance disabled past sae_sync
// stays (and stays disabled) for its whole disable period.
func TestDisabledInstanceOutlivesTimeout(t *testing.T) {
	a := newAP(t, nil)
	p := &peer{state: Nothing, disabledUntil: t0.Add(disablePeriod), touched: t0}
	a.peers[staMAC] = p
	sc, el := validCommit(t, true)
	if r := deliverAt(a, t0.Add(disablePeriod-time.Second), staMAC, commitWith(true, sc, el)); r.Drop != DropDisabled {
		t.Fatalf("%+v", r)
	}
}

// TestSupersededJobSkipsWork: a Commit from a peer whose job is still in
// work supersedes that job; the old job, when it runs, does none of its
// elliptic-curve work (a peer repeating commits cannot pile up work the
// core will throw away), and Finish drops it as stale.
func TestSupersededJobSkipsWork(t *testing.T) {
	for _, h2e := range []bool{false, true} {
		a := newAP(t, func(c *Config) { c.AntiCloggingThreshold = 100 })
		sc, el := validCommit(t, h2e)
		old := a.Handle(t0, rand.Reader, staMAC, commitWith(h2e, sc, el))
		newer := a.Handle(t0, rand.Reader, staMAC, commitWith(h2e, sc, el))
		if old.Job == nil || newer.Job == nil {
			t.Fatalf("h2e %v: jobs %+v %+v", h2e, old, newer)
		}
		yields := 0
		old.Job.Run(func() { yields++ })
		if old.Job.x != nil || yields != 0 {
			t.Fatalf("h2e %v: the superseded job ran (%d yields)", h2e, yields)
		}
		if r := a.Finish(t0, old.Job); r.Drop != DropStale {
			t.Fatalf("h2e %v: superseded job: %+v", h2e, r)
		}
		newer.Job.Run(nil)
		if r := a.Finish(t0, newer.Job); len(r.Replies) != 1 || a.jobs != 0 {
			t.Fatalf("h2e %v: newer job: %+v, %d in work", h2e, r, a.jobs)
		}
	}
}

// TestNoVerbPrintsSecrets: whatever the verb, printing a password, keys,
// an authenticator, a job or a station shows no password and no PMK (%#v
// and unexported fields bypass String).
func TestNoVerbPrintsSecrets(t *testing.T) {
	pw := Password{Password: []byte("hunter22"), AnyPeer: true}
	a := newAP(t, func(c *Config) { c.Passwords = []Password{pw}; c.PWE = HuntAndPeck; c.AntiCloggingThreshold = 100 })
	g, _ := GroupByID(19)
	st, _ := NewStation(g, staMAC, apMAC, []byte("airq"), []byte("hunter22"), nil, false)
	f, _ := st.Commit(rand.Reader)
	j := a.Handle(t0, rand.Reader, staMAC, f).Job
	k := Keys{PMK: [32]byte{0xde, 0xad, 0xbe, 0xef}, Group: 19}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%q"} {
		for _, v := range []any{pw, &pw, []Password{pw}, k, &k, a, j, st} {
			out := fmt.Sprintf(verb, v)
			if strings.Contains(out, "hunter22") || strings.Contains(out, "0x68, 0x75, 0x6e") ||
				strings.Contains(out, "deadbeef") || strings.Contains(out, "222, 173, 190, 239") || strings.Contains(out, "0xde, 0xad") || strings.Contains(out, "68756e746572") {
				t.Errorf("%s of %T: %s", verb, v, out)
			}
		}
	}
}

// TestDisablePeriodSurvivesFailures: an instance disabled past sae_sync
// keeps its disable period whatever the peer sends meanwhile: a Commit
// or Confirm with a failure status, or a Commit that does not parse, do
// not discard it (hostapd's remove_sta drops the driver's entry, not the
// SAE instance).
func TestDisablePeriodSurvivesFailures(t *testing.T) {
	sc, elem := validCommit(t, true)
	good := commitWith(true, sc, elem)
	for name, f := range map[string]Frame{
		"commit with status 1":  {Transaction: 1, Status: StatusUnspecified, Body: good.Body},
		"commit with status 0":  {Transaction: 1, Status: StatusSuccess, Body: good.Body},
		"confirm with status 1": {Transaction: 2, Status: StatusUnspecified, Body: []byte{1, 0}},
		"transaction 3":         {Transaction: 3, Status: StatusUnspecified},
	} {
		a := newAP(t, nil)
		a.peers[staMAC] = &peer{state: Nothing, disabledUntil: t0.Add(disablePeriod), touched: t0}
		a.Handle(t0.Add(time.Second), rand.Reader, staMAC, f)
		if r := a.Handle(t0.Add(2*time.Second), rand.Reader, staMAC, good); r.Drop != DropDisabled {
			t.Errorf("after a %s: %+v", name, r)
		}
	}
}

// TestCancelledJobKeepsAcceptedInstance: a Commit in a station's name
// whose job the worker cannot take leaves the station's accepted
// instance as it was, even once its temporary data is gone; only an
// instance the Commit created goes.
func TestCancelledJobKeepsAcceptedInstance(t *testing.T) {
	a := newAP(t, func(c *Config) { c.AntiCloggingThreshold = 100 })
	g, _ := GroupByID(19)
	s, _ := NewStation(g, staMAC, apMAC, []byte("airq"), []byte("correct horse"), nil, true)
	if k, _, err := handshake(t, a, s, staMAC); k == nil || err != nil {
		t.Fatalf("handshake: %v", err)
	}
	a.peers[staMAC].x = nil // as after a Confirm in Accepted
	sc, el := validCommit(t, true)
	r := a.Handle(t0, rand.Reader, staMAC, commitWith(true, sc, el))
	r.Job.Cancel()
	if r := a.Finish(t0, r.Job); r.Drop != DropCancelled || a.State(staMAC) != Accepted {
		t.Fatalf("cancelled commit: %+v, state %v", r, a.State(staMAC))
	}
	other := MAC{2, 0, 0, 0, 3, 3}
	r = a.Handle(t0, rand.Reader, other, commitWith(true, sc, el))
	r.Job.Cancel()
	if a.Finish(t0, r.Job); a.peers[other] != nil {
		t.Fatal("the instance a cancelled commit created is kept")
	}
}
