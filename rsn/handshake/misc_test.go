package handshake

import (
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// TestRemoveDuringRekey: the station a rekey waits for leaves; the AP
// sends with the new GTK at once.
func TestRemoveDuringRekey(t *testing.T) {
	l := newLink(t, setup{})
	p2 := l.join(setup{}, sta2)
	l.drop = func(spa ieee80211.MAC, toSTA bool, _ []byte) bool { return spa == sta2 }
	l.a.RekeyGTK(l.now)
	l.flush()
	if g, _ := last(l.ap, ActInstallGTK); g.KeyID != 1 {
		t.Fatal("switched before station 2 answered")
	}
	l.now += 10 * time.Millisecond
	l.a.Remove(l.now, p2.s)
	l.flush()
	if g, _ := last(l.ap, ActInstallGTK); g.KeyID != 2 || g.At != l.now {
		t.Fatalf("GTK %d at %v after the removal", g.KeyID, g.At)
	}
	if l.a.Station(sta2) != nil || l.a.GroupKeyID() != 2 {
		t.Fatal("station 2 still known")
	}
	l.a.Remove(l.now, p2.s) // twice: nothing
	p2.s.Receive(l.now, nil)
	p2.s.Start(l.now)
	p2.s.RekeyPTK(l.now)
	p2.s.TXStatus(l.now, true)
	if _, ok := p2.s.deadline(); ok {
		t.Fatal("a removed station keeps a timer")
	}
}

func TestJoinReplaces(t *testing.T) {
	l := newLink(t, setup{})
	old := l.s
	n, _ := setup{}.policy().Validate(setup{}.stationRSNE())
	s := l.a.Join(l.now, staMAC, n, nil)
	if l.a.Station(staMAC) != s || s == old || !old.gone || s.AKM() != rsn.AKMPSK || s.Pairwise() != rsn.CipherCCMP {
		t.Fatal("Join did not replace the station")
	}
}

func TestConfigErrors(t *testing.T) {
	good := Config{AA: apMAC, IEs: rsn.DefaultPolicy().Element(), PMKs: func(dst []rsn.PMK, _ ieee80211.MAC) []rsn.PMK { return dst }}
	for name, mod := range map[string]func(*Config){
		"no PMK source":  func(c *Config) { c.PMKs = nil },
		"no RSNE":        func(c *Config) { c.IEs = nil },
		"not an RSNE":    func(c *Config) { c.IEs = []byte{221, 0} },
		"negative count": func(c *Config) { c.GroupUpdateCount = -1 },
		"eapol_version":  func(c *Config) { c.EAPOLVersion = 3 },
		"negative rekey": func(c *Config) { c.PTKRekey = -time.Second },
	} {
		c := good
		mod(&c)
		if _, err := New(c); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	a, err := New(good)
	if err != nil {
		t.Fatal(err)
	}
	if a.cfg.PairwiseUpdateCount != 4 || a.cfg.GroupUpdateCount != 4 || a.cfg.EAPOLVersion != 2 || a.cfg.Rand == nil {
		t.Fatalf("defaults %+v", a.cfg)
	}
	if !strings.Contains(a.String(), "02:00:00:00:00:00") {
		t.Fatal(a.String())
	}
}

// TestRandomFailure: when the random source fails, the station concerned
// is disconnected and a GTK rekey is skipped.
func TestRandomFailure(t *testing.T) {
	pmk := pmkOf(t, "correct horse battery")
	su := setup{}
	cfg := Config{AA: apMAC, IEs: su.policy().Element(), PMKs: func(dst []rsn.PMK, _ ieee80211.MAC) []rsn.PMK { return append(dst, pmk) }}
	cfg.Rand = &fixedRand{make([]byte, 10)}
	a, _ := New(cfg)
	if err := a.Start(0); err == nil {
		t.Fatal("Start without a GTK")
	}
	cfg.Rand = &fixedRand{make([]byte, 16)} // a GTK, no ANonce
	a, _ = New(cfg)
	a.Start(0)
	n, _ := su.policy().Validate(su.stationRSNE())
	s := a.Join(0, staMAC, n, nil)
	s.Start(0)
	var acts []Action
	a.Drain(func(x Action) { acts = append(acts, x) })
	if d, ok := last(acts, ActDeauth); !ok || d.Cause != CauseRandom || count(acts, ActSend) != 0 {
		t.Fatalf("%s", kinds(acts))
	}
	a.RekeyGTK(1)
	acts = nil
	a.Drain(func(x Action) { acts = append(acts, x) })
	if len(acts) != 0 || a.GroupKeyID() != 1 {
		t.Fatalf("failed rekey did %s", kinds(acts))
	}
	// A PTK rekey whose ANonce cannot be drawn disconnects.
	l := newLink(t, setup{})
	l.a.cfg.Rand = &fixedRand{}
	l.s.RekeyPTK(l.now)
	l.flush()
	if d, ok := last(l.ap, ActDeauth); !ok || d.Cause != CauseRandom {
		t.Fatalf("%s", kinds(l.ap))
	}
}

// mutateMsg3 runs a handshake whose message 3 the test rewrites (key data
// plaintext and fields) and re-protects under the supplicant's PTK.
func mutateMsg3(t *testing.T, su setup, mod func(f *rsn.KeyFields, kd []byte) []byte) *link {
	l := &link{t: t, pmk: pmkOf(t, "correct horse battery"), now: time.Second}
	l.drop = func(_ ieee80211.MAC, toSTA bool, b []byte) bool {
		k := keyFrame(t, b)
		if !toSTA || k.Info()&rsn.InfoInstall == 0 || k.Replay() > 2 {
			return false
		}
		ptk := l.s.ptk
		kd, _ := rsn.UnwrapKeyData(nil, &ptk.KEK, k.KeyData())
		f := rsn.KeyFields{ProtocolVersion: 2, Info: k.Info(), KeyLength: k.KeyLength(), Replay: 9, Nonce: k.Nonce()}
		kd = mod(&f, unpad(kd))
		f.Data, _ = rsn.WrapKeyData(nil, &ptk.KEK, kd)
		m := rsn.AppendKeyFrame(nil, &f)
		rsn.SetMIC(m, &ptk.KCK)
		l.peers[0].sup.Receive(l.now, m)
		return true
	}
	return connect(t, su, l)
}

// unpad cuts decrypted key data at its 0xdd 0x00... padding.
func unpad(kd []byte) []byte {
	for i := 0; i+1 < len(kd); i += 2 + int(kd[i+1]) {
		if kd[i] == 0xdd && kd[i+1] == 0 {
			return kd[:i]
		}
	}
	return kd
}

func TestSupplicantRefusesMessage3(t *testing.T) {
	rsne := setup{}.policy().Element()
	for name, c := range map[string]struct {
		su  setup
		mod func(f *rsn.KeyFields, kd []byte) []byte
		why Cause
	}{
		"another ANonce":  {setup{}, func(f *rsn.KeyFields, kd []byte) []byte { f.Nonce[0] ^= 1; return kd }, CauseBadMessage3},
		"key length 32":   {setup{}, func(f *rsn.KeyFields, kd []byte) []byte { f.KeyLength = 32; return kd }, CauseBadMessage3},
		"no GTK":          {setup{}, func(f *rsn.KeyFields, kd []byte) []byte { return rsne }, CauseBadMessage3},
		"no RSNE":         {setup{}, func(f *rsn.KeyFields, kd []byte) []byte { return kd[len(rsne):] }, CauseAPRSNEMismatch},
		"key ID 2":        {setup{ext: 1}, func(f *rsn.KeyFields, kd []byte) []byte { return rsn.AppendKeyIDKDE(kd, 2) }, CauseBadMessage3},
		"short IGTK":      {setup{mfp: rsn.MFPOptional}, func(f *rsn.KeyFields, kd []byte) []byte { return append(kd, 0xdd, 7, 0, 0x0f, 0xac, 9, 4, 0, 0) }, CauseBadMessage3},
		"GTK in the open": {setup{}, func(f *rsn.KeyFields, kd []byte) []byte { f.Info &^= rsn.InfoEncrypted; return kd }, CauseBadMessage3},
	} {
		l := mutateMsg3(t, c.su, c.mod)
		d, ok := last(l.sta, ActDeauth)
		if name == "GTK in the open" {
			// Unencrypted key data under a set Encrypted bit cannot be
			// unwrapped; without the bit the GTK KDE is refused.
			if ok && d.Cause != c.why || count(l.sta, ActInstallPTK) != 0 {
				t.Errorf("%s: %+v %s", name, d, kinds(l.sta))
			}
			continue
		}
		if !ok || d.Cause != c.why || count(l.sta, ActInstallPTK) != 0 || count(l.sta, ActInstallGTK) != 0 {
			t.Errorf("%s: %+v %s", name, d, kinds(l.sta))
		}
	}
}

func TestSupplicantDenyPTK0Rekey(t *testing.T) {
	l := newLink(t, setup{sup: func(c *SupplicantConfig) { c.DenyPTK0Rekey = true }})
	l.s.RekeyPTK(l.now)
	l.flush()
	if d, ok := last(l.sta, ActDeauth); !ok || d.Reason != ieee80211.ReasonDeauthLeaving || d.Cause != CausePTK0Rekey {
		t.Fatalf("%+v", d)
	}
	l = newLink(t, setup{sup: func(c *SupplicantConfig) { c.DenyPTK0Rekey = true }})
	l.sup.RequestRekey(l.now, true)
	if d, ok := last(drained(l.sup), ActDeauth); !ok || d.Cause != CausePTK0Rekey {
		t.Fatalf("request: %+v", d)
	}
}

func drained(s *Supplicant) []Action {
	var out []Action
	s.Drain(func(a Action) { out = append(out, a) })
	return out
}

func TestNewSupplicantErrors(t *testing.T) {
	su := setup{}
	good := SupplicantConfig{RSNE: su.stationRSNE(), APRSNE: su.policy().Element()}
	owe := rsn.Element{Version: 1, Group: rsn.CipherCCMP, Pairwise: []rsn.Cipher{rsn.CipherCCMP}, AKMs: []rsn.AKM{rsn.AKMOWE}, Last: rsn.FieldAKM}
	for name, mod := range map[string]func(*SupplicantConfig){
		"bad RSNE":    func(c *SupplicantConfig) { c.RSNE = []byte{48, 1} },
		"bad AP RSNE": func(c *SupplicantConfig) { c.APRSNE = nil },
		"OWE":         func(c *SupplicantConfig) { c.RSNE = owe.Append(nil) },
	} {
		c := good
		mod(&c)
		if _, err := NewSupplicant(c); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
	if _, err := NewSupplicant(good); err != nil {
		t.Fatal(err)
	}
}

func TestNames(t *testing.T) {
	if ActDeauth.String() != "deauth" || ActionKind(99).String() != "?" || Cause(99).String() != "?" {
		t.Fatal("names")
	}
}

// TestReassociationNoStrictRekey: a station joining again under the same
// address replaces its machine; only a departure triggers the strict rekey.
func TestReassociationNoStrictRekey(t *testing.T) {
	l := newLink(t, setup{cfg: func(c *Config) { c.StrictRekey = true }})
	n, _ := setup{}.policy().Validate(setup{}.stationRSNE())
	l.a.Join(l.now, staMAC, n, nil)
	if _, ok := l.a.Deadline(); ok {
		t.Fatal("a reassociation armed the strict rekey")
	}
}

func TestCounters(t *testing.T) {
	l := newLink(t, setup{})
	if c := l.a.Counters(); c.Accepted != 2 || c.Malformed+c.Version+c.Replayed+c.State+c.MIC != 0 {
		t.Fatalf("authenticator %+v", c)
	}
	if c := l.sup.Counters(); c.Accepted != 2 {
		t.Fatalf("supplicant %+v", c)
	}
	sta, ap := sends(t, l.sta), sends(t, l.ap)
	kck := l.s.ptk.KCK
	l.s.Receive(l.now, []byte{1, 3, 0, 0})                  // malformed
	l.s.Receive(l.now, sta[1])                              // replayed message 4
	l.sup.Receive(l.now, ap[1])                             // replayed message 3
	l.sup.Receive(l.now, withMIC(t, ap[1], 7, &rsn.Key{1})) // bad MIC
	l.s.Receive(l.now, withMIC(t, sta[1], 3, &rsn.Key{1}))  // unexpected counter
	l.s.RekeyPTK(l.now)                                     // message 1 out, counter 3
	l.s.Receive(l.now, withMIC(t, sta[0], 4, &kck))         // a message 2 for a counter not sent
	l.s.Receive(l.now, withMIC(t, sta[1], 3, &kck))         // message 4 while message 1 is out
	a, s := l.a.Counters(), l.sup.Counters()
	if a.Malformed != 1 || a.Replayed != 3 || a.State != 1 || s.Replayed != 1 || s.MIC != 1 {
		t.Fatalf("authenticator %+v, supplicant %+v", a, s)
	}
}

// TestSupplicantLeavesCallersFrame: Receive does not clear the Key Data of
// a frame whose Key Data is not encrypted: those bytes are the caller's.
func TestSupplicantLeavesCallersFrame(t *testing.T) {
	su := setup{}
	sup, _ := NewSupplicant(SupplicantConfig{SPA: staMAC, AA: apMAC, PMK: pmkOf(t, "correct horse battery"),
		RSNE: su.stationRSNE(), APRSNE: su.policy().Element(), Rand: testRand()})
	m1 := rsn.AppendKeyFrame(nil, &rsn.KeyFields{ProtocolVersion: 2, Info: rsn.VersionHMACSHA1 | rsn.InfoPairwise | rsn.InfoAck,
		KeyLength: 16, Replay: 1, Data: rsn.AppendPMKIDKDE(nil, rsn.PMKID{1, 2, 3})})
	orig := string(m1)
	sup.Receive(time.Second, m1)
	if string(m1) != orig || len(drained(sup)) != 1 {
		t.Errorf("Supplicant.Receive modified the caller's frame")
	}
}
