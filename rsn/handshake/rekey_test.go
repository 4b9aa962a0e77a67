package handshake

import (
	"slices"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

func index(acts []Action, f func(Action) bool) int { return slices.IndexFunc(acts, f) }

// TestGTKRekey: the new GTK reaches every station before the AP sends
// with it, so no group frame is lost; a station that answers late holds
// the switch back until it does.
func TestGTKRekey(t *testing.T) {
	l := newLink(t, setup{mfp: rsn.MFPOptional})
	p2 := l.join(setup{mfp: rsn.MFPOptional}, sta2)
	if !p2.s.Authorized() {
		t.Fatal("second station not connected")
	}
	old, _ := last(l.ap, ActInstallGTK)
	oldIGTK, _ := last(l.ap, ActInstallIGTK)
	late := true
	l.drop = func(spa ieee80211.MAC, toSTA bool, _ []byte) bool { return late && spa == sta2 && toSTA }
	start := len(l.ap)
	l.a.RekeyGTK(l.now)
	l.flush()
	if g, _ := last(l.ap, ActInstallGTK); g.KeyID != old.KeyID {
		t.Fatal("AP sends with the new GTK before station 2 has it")
	}
	if g, _ := last(l.sta, ActInstallGTK); g.KeyID != 2 || g.Key == old.Key {
		t.Fatalf("station 1 got GTK %d", g.KeyID)
	}
	late = false
	l.runUntil(l.now + 2*time.Second)
	acts := l.ap[start:]
	done2 := index(acts, func(a Action) bool { return a.Kind == ActGroupCompleted && a.Addr == sta2 })
	done1 := index(acts, func(a Action) bool { return a.Kind == ActGroupCompleted && a.Addr == staMAC })
	inst := index(acts, func(a Action) bool { return a.Kind == ActInstallGTK })
	if done1 < 0 || done2 < 0 || inst < max(done1, done2) || acts[inst].KeyID != 2 || acts[inst].At != l.now-2*time.Second+500*time.Millisecond {
		t.Fatalf("group handshakes %d %d, GTK for sending at %d: %s", done1, done2, inst, kinds(acts))
	}
	newGTK, newIGTK := acts[inst], acts[inst+1]
	g1, _ := last(l.sta, ActInstallGTK)
	g2, _ := last(p2.sta, ActInstallGTK)
	i1, _ := last(l.sta, ActInstallIGTK)
	if g1.Key != newGTK.Key || g2.Key != newGTK.Key || newGTK.Key == old.Key || newIGTK.Kind != ActInstallIGTK ||
		newIGTK.KeyID != 5 || newIGTK.Key == oldIGTK.Key || i1.Key != newIGTK.Key || i1.KeyID != 5 {
		t.Fatal("stations and AP disagree on the new group keys")
	}
	// A second rekey swaps back to key ID 1.
	l.a.RekeyGTK(l.now)
	l.flush()
	if g, _ := last(l.ap, ActInstallGTK); g.KeyID != 1 || g.Key == old.Key || g.Key == newGTK.Key {
		t.Fatalf("second rekey: GTK %d", g.KeyID)
	}
}

func TestGTKRekeyTimer(t *testing.T) {
	l := newLink(t, setup{cfg: func(c *Config) { c.GroupRekey = time.Hour }})
	if at, ok := l.a.Deadline(); !ok || at != time.Second+time.Hour {
		t.Fatalf("deadline %v %v", at, ok)
	}
	l.runUntil(2*time.Hour + 2*time.Second)
	if n := count(l.ap, ActGroupCompleted); n != 2 {
		t.Fatalf("%d group rekeys in two hours", n)
	}
	if at, _ := l.a.Deadline(); at != time.Second+3*time.Hour {
		t.Fatalf("next rekey at %v", at)
	}
}

// TestStrictRekey: with wpa_strict_rekey a departing station brings the
// GTK rekey within 500 ms; without it nothing happens.
func TestStrictRekey(t *testing.T) {
	for _, strict := range []bool{false, true} {
		l := newLink(t, setup{cfg: func(c *Config) { c.StrictRekey, c.GroupRekey = strict, 24*time.Hour }})
		p2 := l.join(setup{}, sta2)
		l.a.Remove(l.now, p2.s)
		at, _ := l.a.Deadline()
		if strict && at != l.now+500*time.Millisecond || !strict && at != time.Second+24*time.Hour {
			t.Fatalf("strict %v: rekey at %v", strict, at)
		}
		l.runUntil(l.now + time.Second)
		if n := count(l.ap, ActGroupCompleted); strict && n != 1 || !strict && n != 0 {
			t.Fatalf("strict %v: %d rekeys", strict, n)
		}
	}
}

func TestGTKRekeyRequest(t *testing.T) {
	l := newLink(t, setup{})
	l.sup.RequestRekey(l.now, false)
	l.flush()
	if count(l.ap, ActGroupCompleted) != 1 || count(l.sta, ActInstallGTK) != 2 {
		t.Fatalf("%s", kinds(l.ap))
	}
}

// TestJoinDuringRekey: a station finishing its 4-way handshake while a
// rekey waits for others gets the new GTK in message 3.
func TestJoinDuringRekey(t *testing.T) {
	l := newLink(t, setup{})
	l.drop = func(spa ieee80211.MAC, toSTA bool, _ []byte) bool { return spa == staMAC && toSTA }
	l.a.RekeyGTK(l.now)
	l.flush()
	l.drop = nil
	p3 := l.join(setup{}, sta3)
	if g, _ := last(p3.sta, ActInstallGTK); g.KeyID != 2 {
		t.Fatalf("joining station got GTK %d", g.KeyID)
	}
}

// handshakes splits the AP's frames to a station into handshakes by their
// messages 1.
func handshakes(t *testing.T, acts []Action) [][]rsn.KeyFrame {
	var out [][]rsn.KeyFrame
	for _, f := range sends(t, acts) {
		if f.Info()&rsn.InfoPairwise != 0 && f.Info()&rsn.InfoMIC == 0 {
			out = append(out, nil)
		}
		if len(out) > 0 {
			out[len(out)-1] = append(out[len(out)-1], f)
		}
	}
	return out
}

// TestPTKRekey: each rekey (by the AP, its timer, or the station's
// request) uses a fresh ANonce, higher replay counters, and installs a new
// TK once; the port stays open.
func TestPTKRekey(t *testing.T) {
	l := newLink(t, setup{cfg: func(c *Config) { c.PTKRekey = 10 * time.Minute }})
	if at, _ := l.a.Deadline(); at != l.now+10*time.Minute {
		t.Fatalf("PTK rekey at %v", at)
	}
	l.s.RekeyPTK(l.now)
	l.flush()
	l.runUntil(l.now + 11*time.Minute)
	l.sup.RequestRekey(l.now, true)
	l.flush()
	hs := handshakes(t, l.ap)
	if len(hs) != 4 || count(l.ap, ActCompleted) != 4 || count(l.ap, ActInstallPTK) != 4 || count(l.ap, ActDeauth) != 0 {
		t.Fatalf("%d handshakes: %s", len(hs), kinds(l.ap))
	}
	var last uint64
	nonces := map[rsn.Nonce]bool{}
	for i, h := range hs {
		if nonces[h[0].Nonce()] {
			t.Fatalf("handshake %d reuses an ANonce", i)
		}
		nonces[h[0].Nonce()] = true
		for _, f := range h {
			if f.Replay() <= last {
				t.Fatalf("replay counter %d after %d", f.Replay(), last)
			}
			last = f.Replay()
		}
	}
	tks := map[rsn.Key]bool{}
	for i, a := range l.ap {
		switch a.Kind {
		case ActInstallPTK:
			if tks[a.Key] {
				t.Fatal("a TK installed twice")
			}
			tks[a.Key] = true
		case ActCompleted:
			if a.Rekey != (i > 5) {
				t.Fatalf("completion %d: Rekey %v", i, a.Rekey)
			}
		case ActSend:
			if f := keyFrame(t, a.Frame); f.Replay() > 2 && !a.Protect {
				t.Fatal("a rekey frame would go unprotected")
			}
		}
	}
	if !l.s.Authorized() {
		t.Fatal("port closed after rekeys")
	}
	for _, a := range l.sta {
		if a.Kind == ActInstallPTK && !tks[a.Key] {
			t.Fatal("the station installed a TK the AP did not")
		}
	}
}

func TestDenyPTK0Rekey(t *testing.T) {
	l := newLink(t, setup{cfg: func(c *Config) { c.DenyPTK0Rekey = true }})
	l.s.RekeyPTK(l.now)
	l.flush()
	if d, ok := last(l.ap, ActDeauth); !ok || d.Reason != ieee80211.ReasonClass3FromNonAssoc || d.Cause != CausePTK0Rekey {
		t.Fatalf("%+v", d)
	}
	// With Extended Key ID the rekey goes on.
	l = newLink(t, setup{ext: 1, cfg: func(c *Config) { c.DenyPTK0Rekey = true }})
	l.s.RekeyPTK(l.now)
	l.flush()
	if count(l.ap, ActDeauth) != 0 || count(l.ap, ActCompleted) != 2 {
		t.Fatalf("%s", kinds(l.ap))
	}
}

// TestExtendedKeyIDRekey: the rekeyed PTK takes the other key ID, for
// receive at message 3 and for sending at message 4, on both sides, while
// the old key stays in place: no gap.
func TestExtendedKeyIDRekey(t *testing.T) {
	l := newLink(t, setup{ext: 1})
	for round, id := range []int{1, 0, 1} {
		nAP, nSTA := len(l.ap), len(l.sta)
		l.s.RekeyPTK(l.now)
		l.flush()
		for _, side := range [][]Action{l.ap[nAP:], l.sta[nSTA:]} {
			rx := index(side, func(a Action) bool { return a.Kind == ActInstallPTK && a.RXOnly && a.KeyID == id })
			tx := index(side, func(a Action) bool { return a.Kind == ActActivatePTK && a.KeyID == id })
			if rx < 0 || tx < rx || count(side, ActInstallPTK) != 1 {
				t.Fatalf("round %d, key ID %d: %s", round, id, kinds(side))
			}
		}
		if installedTK(t, l.ap, id) != installedTK(t, l.sta, id) {
			t.Fatal("sides disagree on the TK")
		}
	}
}
