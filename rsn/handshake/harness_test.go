package handshake

import (
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

var (
	apMAC  = ieee80211.MAC{0x02, 0, 0, 0, 0, 0}
	staMAC = ieee80211.MAC{0x02, 0, 0, 0, 1, 0}
	sta2   = ieee80211.MAC{0x02, 0, 0, 0, 2, 0}
	sta3   = ieee80211.MAC{0x02, 0, 0, 0, 3, 0}
)

// setup describes one test BSS and station.
type setup struct {
	akm        rsn.AKM
	mfp        rsn.MFP
	ext        int           // extended_key_id
	cfg        func(*Config) // changes to the authenticator's config
	sup        func(*SupplicantConfig)
	passphrase string // the station's; the AP's is "correct horse battery"
	// ownPMK, when set, is the station's PMK from its SAE exchange (or a
	// PMKSA), given to the AP's machine with ownPMKID before Start.
	ownPMK   *rsn.PMK
	ownPMKID rsn.PMKID
}

// peer is one station: the authenticator's machine and the supplicant.
type peer struct {
	s   *Station
	sup *Supplicant
	sta []Action // what its supplicant asked
}

// link is an authenticator and its stations joined by a lossless air
// whose frames the test may drop; everything each side did is recorded.
type link struct {
	t     testing.TB
	now   time.Duration
	a     *Authenticator
	pmk   rsn.PMK
	peers []*peer
	s     *Station    // the first station
	sup   *Supplicant // and its supplicant
	ap    []Action    // what the authenticator asked, in order
	sta   []Action    // what the first supplicant asked
	ack   bool        // report TX status acked for every frame the AP sends
	drop  func(spa ieee80211.MAC, toSTA bool, frame []byte) bool
}

var (
	pmkMu    sync.Mutex
	pmkCache = map[string]rsn.PMK{}
)

// pmkOf derives the PMK of a passphrase for the SSID "airq", once: PBKDF2
// is slow on purpose.
func pmkOf(t testing.TB, pass string) rsn.PMK {
	pmkMu.Lock()
	defer pmkMu.Unlock()
	if pmk, ok := pmkCache[pass]; ok {
		return pmk
	}
	pmk, err := rsn.PMKFromPassphrase(pass, []byte("airq"))
	if err != nil {
		t.Fatal(err)
	}
	pmkCache[pass] = pmk
	return pmk
}

func (su setup) policy() rsn.Policy {
	p := rsn.DefaultPolicy()
	if su.akm != 0 {
		p.AKMs = []rsn.AKM{su.akm}
	}
	p.MFP, p.ExtendedKeyID = su.mfp, su.ext
	return p
}

// stationRSNE is the element a station sends in its association request.
func (su setup) stationRSNE() []byte {
	e := rsn.Element{Version: 1, Group: rsn.CipherCCMP, Pairwise: []rsn.Cipher{rsn.CipherCCMP},
		AKMs: su.policy().AKMs, Last: rsn.FieldCaps}
	if su.mfp != rsn.MFPDisabled {
		e.Caps |= rsn.CapMFPC
	}
	if su.ext != 0 {
		e.Caps |= rsn.CapExtKeyID
	}
	return e.Append(nil)
}

func newLink(t testing.TB, su setup) *link {
	t.Helper()
	return connect(t, su, &link{t: t, pmk: pmkOf(t, "correct horse battery"), now: time.Second})
}

// connect starts an authenticator for su on l (whose drop and ack
// settings hold from the first frame) and joins the first station.
func connect(t testing.TB, su setup, l *link) *link {
	t.Helper()
	p := su.policy()
	cfg := Config{AA: apMAC, IEs: p.Element(), MFP: p.MFP != rsn.MFPDisabled, TXStatus: true,
		PMKs: func(dst []rsn.PMK, _ ieee80211.MAC) []rsn.PMK { return append(dst, l.pmk) }, Rand: testRand()}
	if su.cfg != nil {
		su.cfg(&cfg)
	}
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Start(l.now); err != nil {
		t.Fatal(err)
	}
	l.a = a
	l.join(su, staMAC)
	return l
}

func testRand() *rand.ChaCha8 { return rand.NewChaCha8([32]byte{1}) }

// join associates a station (validating its RSNE as the AP would) and
// starts its handshake.
func (l *link) join(su setup, spa ieee80211.MAC) *peer {
	rsne := su.stationRSNE()
	n, status := su.policy().Validate(rsne)
	if status != 0 {
		l.t.Fatalf("station RSNE refused with %d", status)
	}
	pass := su.passphrase
	if pass == "" {
		pass = "correct horse battery"
	}
	sc := SupplicantConfig{SPA: spa, AA: apMAC, PMK: pmkOf(l.t, pass), RSNE: rsne, APRSNE: su.policy().Element(),
		EAPOLVersion: 2, Rand: rand.NewChaCha8([32]byte{2, spa[4]})}
	if su.sup != nil {
		su.sup(&sc)
	}
	sup, err := NewSupplicant(sc)
	if err != nil {
		l.t.Fatal(err)
	}
	p := &peer{sup: sup, s: l.a.Join(l.now, spa, n, nil)}
	if su.ownPMK != nil {
		p.s.SetPMK(su.ownPMK, su.ownPMKID)
	}
	l.peers = append(l.peers, p)
	if l.s == nil {
		l.s, l.sup = p.s, p.sup
	}
	p.s.Start(l.now)
	l.flush()
	return p
}

func (l *link) peer(spa ieee80211.MAC) *peer {
	for _, p := range l.peers {
		if p.s.Addr() == spa {
			return p
		}
	}
	return nil
}

// flush delivers frames both ways until every side is quiet.
func (l *link) flush() {
	for moved := true; moved; {
		moved = false
		l.a.Drain(func(act Action) {
			l.ap = append(l.ap, act)
			p := l.peer(act.Addr)
			if act.Kind != ActSend || p == nil {
				return
			}
			if l.ack {
				defer p.s.TXStatus(l.now, true)
			}
			if l.drop == nil || !l.drop(act.Addr, true, act.Frame) {
				p.sup.Receive(l.now, act.Frame)
				moved = true
			}
		})
		for _, p := range l.peers {
			p.sup.Drain(func(act Action) {
				p.sta = append(p.sta, act)
				if act.Kind == ActSend && (l.drop == nil || !l.drop(p.s.Addr(), false, act.Frame)) {
					p.s.Receive(l.now, act.Frame)
					moved = true
				}
			})
		}
		l.sta = l.peers[0].sta
	}
}

// runUntil runs the authenticator's timers up to t.
func (l *link) runUntil(t time.Duration) {
	for {
		at, ok := l.a.Deadline()
		if !ok || at > t {
			break
		}
		l.now = at
		l.a.Tick(l.now)
		l.flush()
	}
	l.now = t
}

func count(acts []Action, k ActionKind) int {
	n := 0
	for _, a := range acts {
		if a.Kind == k {
			n++
		}
	}
	return n
}

func last(acts []Action, k ActionKind) (Action, bool) {
	for i := len(acts) - 1; i >= 0; i-- {
		if acts[i].Kind == k {
			return acts[i], true
		}
	}
	return Action{}, false
}

// sends returns the EAPOL-Key frames one side sent.
func sends(t testing.TB, acts []Action) []rsn.KeyFrame {
	var out []rsn.KeyFrame
	for _, a := range acts {
		if a.Kind == ActSend {
			k, err := rsn.ParseKeyFrame(a.Frame)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, k)
		}
	}
	return out
}

// deliver hands a frame the test kept off the air to the station's
// machine (toAP) or to its supplicant, and runs the air until quiet.
func (l *link) deliver(spa ieee80211.MAC, toAP bool, frame []byte) {
	p := l.peer(spa)
	if toAP {
		p.s.Receive(l.now, frame)
	} else {
		p.sup.Receive(l.now, frame)
	}
	l.flush()
}

// gtkOf returns the GTK a station's supplicant installed last under
// keyID, if any.
func (p *peer) gtkOf(keyID int) (rsn.Key, bool) {
	var k rsn.Key
	ok := false
	for _, a := range p.sta {
		if a.Kind == ActInstallGTK && a.KeyID == keyID {
			k, ok = a.Key, true
		}
	}
	return k, ok
}

// txGTK returns the key ID and GTK the AP sends group frames with.
func (l *link) txGTK() (int, rsn.Key) {
	a, _ := last(l.ap, ActInstallGTK)
	return a.KeyID, a.Key
}
