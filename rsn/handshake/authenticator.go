package handshake

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// Authenticator is the BSS's side of the handshakes: its configuration,
// the group key state machine and the stations' machines. It collects the
// actions of every call until Drain.
type Authenticator struct {
	cfg  Config
	g    group
	stas []*Station
	out  []Action
	cnt  Counters

	rekeyAt  time.Duration // wpa_rekey_gtk's timeout
	rekeySet bool

	reqRekeyAt  time.Duration // the last GTK rekey a station asked for
	reqRekeySet bool

	// The work budget of messages 2 (budget.go): PMK tries left, as of
	// workAt, and what checking one reuses.
	work    float64
	workAt  time.Duration
	workSet bool
	pmkBuf  []rsn.PMK
	checker rsn.MICChecker
	owed    int    // stations owed a check (budget.go)
	joins   uint64 // stations joined, for their joinSeq
}

// New returns an authenticator for cfg; Start creates the first group keys.
func New(cfg Config) (*Authenticator, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Authenticator{cfg: c}, nil
}

// Start creates the group keys and installs them for sending
// (ActInstallGTK, and ActInstallIGTK with MFP) and arms wpa_group_rekey.
func (a *Authenticator) Start(now time.Duration) error {
	if err := a.g.initKeys(a.cfg.Rand, a.cfg.MFP); err != nil {
		return fmt.Errorf("handshake: group keys: %w", err)
	}
	a.setKeysDone(now)
	if a.cfg.GroupRekey > 0 {
		a.rekeyAt, a.rekeySet = now+a.cfg.GroupRekey, true
	}
	return nil
}

// Join creates the state machine of a station whose association request
// RSNE validated as n (rsnxe is its RSNXE, or nil). A machine already
// there for the address (a reassociation) is replaced without the strict
// rekey of a departure, as hostapd reuses it. Call Start once the
// association response is acknowledged.
func (a *Authenticator) Join(now time.Duration, spa ieee80211.MAC, n rsn.Negotiated, rsnxe []byte) *Station {
	if old := a.Station(spa); old != nil {
		a.remove(now, old, false)
	}
	s := &Station{a: a, spa: spa, neg: n, rsnxe: slices.Clone(rsnxe), version: rsn.DescriptorVersion(n.AKM),
		mfp: n.MFP && a.cfg.MFP, extKeyID: n.ExtKeyID, keyIdx: n.KeyID, joinSeq: a.joins}
	a.joins++
	s.neg.RSNE = slices.Clone(n.RSNE)
	a.stas = append(a.stas, s)
	return s
}

// Station returns the machine of spa, or nil.
func (a *Authenticator) Station(spa ieee80211.MAC) *Station {
	for _, s := range a.stas {
		if s.spa == spa {
			return s
		}
	}
	return nil
}

// Remove forgets a station that left (deauthenticated, disassociated,
// timed out), as wpa_auth_sta_deinit: with wpa_strict_rekey a station that
// held the GTK brings the GTK rekey within 500 ms.
func (a *Authenticator) Remove(now time.Duration, s *Station) { a.remove(now, s, true) }

func (a *Authenticator) remove(now time.Duration, s *Station, departed bool) {
	i := slices.Index(a.stas, s)
	if i < 0 {
		return
	}
	a.stas = slices.Delete(a.stas, i, i+1)
	s.setOwed(false)
	if departed && a.cfg.StrictRekey && s.hasGTK {
		if at := now + strictRekeyDelay; !a.rekeySet || a.rekeyAt > at {
			a.rekeyAt, a.rekeySet = at, true
		}
	}
	s.gone = true
	if s.gUpdate {
		s.gUpdate = false
		a.g.keyDone--
	}
	// hostapd steps the group again only at its next event; stepping now
	// lets a rekey finish without waiting for another station.
	a.groupStepAll(now)
	s.clearKeys()
}

// RekeyGTK rekeys the group now (wpa_rekey_gtk): a new GTK (and IGTK),
// handed to every station whose 4-way handshake is done; the AP sends with
// it once they all have it. It re-arms wpa_group_rekey.
func (a *Authenticator) RekeyGTK(now time.Duration) {
	a.g.reKey = true
	a.groupStepAll(now)
	if a.cfg.GroupRekey > 0 {
		a.rekeyAt, a.rekeySet = now+a.cfg.GroupRekey, true
	} else {
		a.rekeySet = false
	}
}

// Tick runs the timers due by now: EAPOL-Key retransmissions, PTK rekeys
// and the GTK rekey.
func (a *Authenticator) Tick(now time.Duration) {
	for _, s := range slices.Clone(a.stas) {
		s.tick(now)
	}
	if a.rekeySet && a.rekeyAt <= now {
		a.RekeyGTK(now)
	}
}

// Deadline returns when Tick must run next, if ever.
func (a *Authenticator) Deadline() (time.Duration, bool) {
	at, ok := a.rekeyAt, a.rekeySet
	for _, s := range a.stas {
		if t, set := s.deadline(); set && (!ok || t < at) {
			at, ok = t, true
		}
	}
	return at, ok
}

// Drain hands the actions collected since the last Drain to fn, in order.
func (a *Authenticator) Drain(fn func(Action)) {
	out := a.out
	a.out = nil
	for _, act := range out {
		fn(act)
	}
}

// GroupKeyID returns the key ID the AP sends group data with.
func (a *Authenticator) GroupKeyID() int { return a.g.txGN }

func (a *Authenticator) emit(act Action) { a.out = append(a.out, act) }

func (a *Authenticator) rand() io.Reader { return a.cfg.Rand }

// String describes the authenticator without its keys.
func (a Authenticator) String() string {
	return fmt.Sprintf("authenticator %v: %d stations, GTK %d", a.cfg.AA, len(a.stas), a.g.gn)
}

// Format prints String for every verb, so no key leaks through %v (a
// value receiver: fmt cannot call methods on unexported key fields).
func (a Authenticator) Format(f fmt.State, _ rune) { io.WriteString(f, a.String()) }
