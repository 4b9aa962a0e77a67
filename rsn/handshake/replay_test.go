package handshake

import (
	"bytes"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// TestReplaysIgnored: every frame of a completed handshake, delivered
// again to either side, changes nothing.
func TestReplaysIgnored(t *testing.T) {
	l := newLink(t, setup{})
	nAP, nSTA := len(l.ap), len(l.sta)
	for _, f := range sends(t, l.sta) {
		l.s.Receive(l.now, f)
	}
	for _, f := range sends(t, l.ap) {
		l.sup.Receive(l.now, f)
	}
	l.flush()
	if len(l.ap) != nAP || len(l.sta) != nSTA || l.s.State() != "PTKINITDONE" {
		t.Fatalf("replays caused %s / %s", kinds(l.ap[nAP:]), kinds(l.sta[nSTA:]))
	}
}

// withMIC returns f with another replay counter and a valid MIC under kck.
func withMIC(t *testing.T, f rsn.KeyFrame, replay uint64, kck *rsn.Key) []byte {
	b := rsn.AppendKeyFrame(nil, &rsn.KeyFields{ProtocolVersion: f.ProtocolVersion(), Info: f.Info(),
		KeyLength: f.KeyLength(), Replay: replay, Nonce: f.Nonce(), RSC: f.RSC(), Data: f.KeyData()})
	if err := rsn.SetMIC(b, kck); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestOldReplayCounter: message 4 under the right key but with message 1's
// counter is dropped; the real one completes; forged variants are dropped.
func TestOldReplayCounter(t *testing.T) {
	var held []byte
	l := connect(t, setup{}, &link{t: t, pmk: pmkOf(t, "correct horse battery"), now: time.Second,
		drop: func(_ ieee80211.MAC, toSTA bool, f []byte) bool {
			if !toSTA && len(keyFrame(t, f).KeyData()) == 0 && held == nil {
				held = f // message 4
				return true
			}
			return false
		}})
	if held == nil || l.s.State() != "PTKINITNEGOTIATING" {
		t.Fatalf("message 4 not held: %s", l.s)
	}
	m4 := keyFrame(t, held)
	kck := l.s.ptk.KCK
	bad := map[string][]byte{
		"message 1's counter": withMIC(t, m4, 1, &kck),
		"a future counter":    withMIC(t, m4, 3, &kck),
		"flipped MIC":         func() []byte { b := bytes.Clone(held); b[90] ^= 1; return b }(),
		"no MIC bit": func() []byte {
			b := rsn.AppendKeyFrame(nil, &rsn.KeyFields{ProtocolVersion: 2, Info: m4.Info() &^ rsn.InfoMIC, Replay: 2})
			return b
		}(),
		"Ack set": withMIC(t, keyFrame(t, rsn.AppendKeyFrame(nil, &rsn.KeyFields{ProtocolVersion: 2,
			Info: m4.Info() | rsn.InfoAck, Replay: 2})), 2, &kck),
		"version 3 with AKM 2": withMIC(t, keyFrame(t, rsn.AppendKeyFrame(nil, &rsn.KeyFields{ProtocolVersion: 2,
			Info: m4.Info()&^7 | rsn.VersionAESCMAC, Replay: 2})), 2, &kck),
		"truncated": held[:60],
	}
	n := len(l.ap)
	for name, b := range bad {
		l.s.Receive(l.now, b)
		l.flush()
		if len(l.ap) != n || l.s.Authorized() {
			t.Fatalf("%s accepted: %s", name, kinds(l.ap[n:]))
		}
	}
	l.s.Receive(l.now, held)
	l.flush()
	if !l.s.Authorized() || count(l.ap, ActInstallPTK) != 1 {
		t.Fatalf("real message 4 refused: %s", kinds(l.ap[n:]))
	}
	l.s.Receive(l.now, held)
	l.flush()
	if count(l.ap, ActInstallPTK) != 1 {
		t.Fatal("TK installed twice")
	}
}

// TestSupplicantReplay: the supplicant drops a message 1 or 3 whose replay
// counter does not increase, and never reinstalls a key.
func TestSupplicantReplay(t *testing.T) {
	l := newLink(t, setup{})
	ap := sends(t, l.ap)
	n := len(l.sta)
	l.sup.Receive(l.now, ap[1])                              // message 3 again
	l.sup.Receive(l.now, withMIC(t, ap[1], 1, &l.s.ptk.KCK)) // with an older counter
	l.sup.Receive(l.now, rsn.AppendKeyFrame(nil, &rsn.KeyFields{Info: ap[0].Info(), Replay: 2, Nonce: ap[0].Nonce(),
		ProtocolVersion: 2, KeyLength: 16})) // message 1 with the counter of message 3
	l.flush()
	if len(l.sta) != n {
		t.Fatalf("replays answered: %s", kinds(l.sta[n:]))
	}
	// A retransmission with a higher counter is answered, but keys stay.
	l.sup.Receive(l.now, withMIC(t, ap[1], 9, &l.s.ptk.KCK))
	l.sup.Drain(func(a Action) { l.sta = append(l.sta, a) })
	if count(l.sta[n:], ActSend) != 1 || count(l.sta, ActInstallPTK) != 1 || count(l.sta, ActInstallGTK) != 1 {
		t.Fatalf("retransmitted message 3: %s", kinds(l.sta[n:]))
	}
}

// TestRequestReplay: a request is honoured once.
func TestRequestReplay(t *testing.T) {
	l := newLink(t, setup{})
	l.sup.RequestRekey(l.now, true)
	var req []byte
	l.sup.Drain(func(a Action) { req = a.Frame })
	l.s.Receive(l.now, req)
	l.flush()
	if count(l.ap, ActCompleted) != 2 {
		t.Fatalf("rekey on request: %s", kinds(l.ap))
	}
	n := len(l.ap)
	l.s.Receive(l.now, req)
	l.flush()
	if len(l.ap) != n {
		t.Fatalf("replayed request honoured: %s", kinds(l.ap[n:]))
	}
}

func TestRSNEMismatch(t *testing.T) {
	// The station's message 2 carries another RSNE than its association
	// request: deauthenticated with reason 2 once its MIC verified.
	other := rsn.Element{Version: 1, Group: rsn.CipherCCMP, Pairwise: []rsn.Cipher{rsn.CipherCCMP},
		AKMs: []rsn.AKM{rsn.AKMPSK}, Caps: rsn.CapPTKSAReplay16, Last: rsn.FieldCaps}
	l := newLink(t, setup{sup: func(c *SupplicantConfig) { c.RSNE = other.Append(nil) }})
	d, ok := last(l.ap, ActDeauth)
	if !ok || d.Reason != ieee80211.ReasonPrevAuthNotValid || d.Cause != CauseRSNEMismatch ||
		count(l.ap, ActInstallPTK) != 0 || count(l.ap, ActSend) != 1 {
		t.Fatalf("%+v: %s", d, kinds(l.ap))
	}
	// The AP's message 3 carries another RSNE than its beacon (as the
	// supplicant saw it): the supplicant leaves with reason 17.
	beacon := rsn.DefaultPolicy()
	beacon.WMM = false
	l = newLink(t, setup{sup: func(c *SupplicantConfig) { c.APRSNE = beacon.Element() }})
	d, ok = last(l.sta, ActDeauth)
	if !ok || d.Reason != ieee80211.ReasonIEMismatch || d.Cause != CauseAPRSNEMismatch ||
		count(l.sta, ActInstallPTK) != 0 || count(l.sta, ActInstallGTK) != 0 {
		t.Fatalf("supplicant %+v: %s", d, kinds(l.sta))
	}
}

func TestRSNXEMismatch(t *testing.T) {
	l := newLink(t, setup{})
	su := setup{}
	n, _ := su.policy().Validate(su.stationRSNE())
	sup, _ := NewSupplicant(SupplicantConfig{SPA: sta2, AA: apMAC, PMK: l.pmk, RSNE: su.stationRSNE(),
		APRSNE: su.policy().Element(), Rand: testRand()})
	p := &peer{sup: sup, s: l.a.Join(l.now, sta2, n, []byte{244, 1, 0x20})}
	l.peers = append(l.peers, p)
	p.s.Start(l.now)
	l.flush()
	d, ok := last(l.ap, ActDeauth)
	if !ok || d.Addr != sta2 || d.Cause != CauseRSNXEMismatch {
		t.Fatalf("%+v", d)
	}
}
