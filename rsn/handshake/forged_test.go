package handshake

import (
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// forgedMsg2 is what anyone on the channel can send: a message 2 with a
// replay counter seen on the air, an SNonce of its own and a junk MIC.
func forgedMsg2(replay uint64, info uint16, rsne []byte) []byte {
	var n rsn.Nonce
	for i := range n {
		n[i] = byte(i*7 + 1)
	}
	f := rsn.AppendKeyFrame(nil, &rsn.KeyFields{ProtocolVersion: 1, Info: info, Replay: replay, Nonce: n, Data: rsne})
	copy(rsn.KeyFrame(f).MIC(), "0123456789abcdef")
	return f
}

const msg2Info = rsn.VersionHMACSHA1 | rsn.InfoPairwise | rsn.InfoMIC

// awaitingMessage4 runs a handshake in which message 1 went out twice and
// the station answered the first: message 3 is out. The station's message
// 2, the second message 1 (which it never saw) and its message 4 were kept
// off the air and are returned in that order; message 2 has been
// delivered.
func awaitingMessage4(t testing.TB, su setup) (*link, [3][]byte) {
	var kept [3][]byte
	phase := 0
	l := &link{t: t, pmk: pmkOf(t, "correct horse battery"), now: time.Second, ack: true}
	l.drop = func(_ ieee80211.MAC, toSTA bool, f []byte) bool {
		k, _ := rsn.ParseKeyFrame(f)
		switch {
		case phase == 0 && !toSTA: // the answer to message 1 #1 is late
			kept[0], phase = f, 1
		case phase == 1 && toSTA && k.Replay() == 2: // message 1 #2 is lost
			kept[1] = f
		case phase == 2 && !toSTA && len(k.KeyData()) == 0:
			kept[2] = f
		default:
			return false
		}
		return true
	}
	connect(t, su, l)
	l.now += 1100 * time.Millisecond
	l.a.Tick(l.now) // message 1 #2, 1 s after message 1 #1 was acked
	l.flush()
	phase = 2
	l.deliver(staMAC, true, kept[0])
	if l.s.State() != "PTKINITNEGOTIATING" || kept[1] == nil || kept[2] == nil {
		t.Fatalf("state %s, kept %d %d %d", l.s.State(), len(kept[0]), len(kept[1]), len(kept[2]))
	}
	l.drop = nil
	return l, kept
}

// TestForgedMessage2First: a forged message 2 that beats the station's
// own answer is dropped and leaves its replay counter open: the station's
// message 2 completes the handshake without a retransmission.
func TestForgedMessage2First(t *testing.T) {
	var m1 []byte
	l := connect(t, setup{}, &link{t: t, pmk: pmkOf(t, "correct horse battery"), now: time.Second, ack: true,
		drop: func(_ ieee80211.MAC, toSTA bool, f []byte) bool {
			if toSTA && m1 == nil {
				m1 = f
				return true
			}
			return false
		}})
	l.deliver(staMAC, true, forgedMsg2(1, msg2Info, setup{}.stationRSNE()))
	if l.s.State() != "PTKSTART" || l.a.Counters().MIC != 1 || count(l.ap, ActPSKMismatch) != 1 {
		t.Fatalf("after a forged message 2: %s, %+v, %s", l.s.State(), l.a.Counters(), kinds(l.ap))
	}
	l.deliver(staMAC, false, m1)
	if !l.s.Authorized() || len(sends(t, l.ap)) != 2 {
		t.Fatalf("the station's own message 2 did not complete the handshake: %s, %s", l.s.State(), kinds(l.ap))
	}
}

// TestDroppedFrameChangesNothing: frames that look like an SNonce update
// but are dropped for their flags change nothing: the station's message 4
// still completes the handshake.
func TestDroppedFrameChangesNothing(t *testing.T) {
	rsne := setup{}.stationRSNE()
	for name, f := range map[string][]byte{
		"Key Ack set": forgedMsg2(2, msg2Info|rsn.InfoAck, rsne),
		"no MIC bit":  forgedMsg2(2, msg2Info&^rsn.InfoMIC, rsne),
	} {
		l, kept := awaitingMessage4(t, setup{})
		n := len(l.ap)
		l.deliver(staMAC, true, f)
		if l.s.updateSNonce || l.s.altSNonceValid || len(l.ap) != n {
			t.Errorf("%s: a dropped frame started an SNonce update: %s", name, kinds(l.ap[n:]))
		}
		l.deliver(staMAC, true, kept[2])
		if !l.s.Authorized() {
			t.Errorf("%s: the station's message 4 refused after a dropped frame; state %s", name, l.s.State())
		}
	}
}

// TestForgedSNonceUpdate: a forged message 2 with the counter of the
// second message 1 (no key needed) neither replaces the PTK of the message
// 3 already out nor costs the association.
func TestForgedSNonceUpdate(t *testing.T) {
	l, kept := awaitingMessage4(t, setup{})
	n := len(l.ap)
	l.deliver(staMAC, true, forgedMsg2(2, msg2Info, setup{}.stationRSNE()))
	if l.s.State() != "PTKINITNEGOTIATING" || count(l.ap[n:], ActSend) != 0 || l.a.Counters().MIC != 1 {
		t.Fatalf("a forged SNonce update: state %s, %s, %+v", l.s.State(), kinds(l.ap[n:]), l.a.Counters())
	}
	l.deliver(staMAC, true, kept[2])
	l.runUntil(l.now + 10*time.Second)
	if d, ok := last(l.ap, ActDeauth); ok || !l.s.Authorized() {
		t.Fatalf("one forged frame cost the station its association: %v (%s); state %s", d.Reason, d.Cause, l.s.State())
	}
}

// TestExtendedKeyIDEarlierSNonce: with Extended Key ID, message 3 #2 (for
// a station that answered message 1 #2 with a new SNonce) installs the new
// PTK's TK for receive; when message 4 answers message 3 #1 instead, the
// earlier PTK's TK goes in before the key ID is activated, so the AP sends
// with the TK the station has.
func TestExtendedKeyIDEarlierSNonce(t *testing.T) {
	su := setup{ext: 1}
	l, kept := awaitingMessage4(t, su)
	// A station that updates its SNonce answers message 1 #2 anew; message
	// 3 #2 never reaches it.
	l.drop = func(_ ieee80211.MAC, toSTA bool, _ []byte) bool { return toSTA }
	other, _ := NewSupplicant(SupplicantConfig{SPA: staMAC, AA: apMAC, PMK: l.pmk, RSNE: su.stationRSNE(),
		APRSNE: su.policy().Element(), EAPOLVersion: 2, Rand: testRand()})
	other.Receive(l.now, kept[1])
	for _, a := range drained(other) {
		if a.Kind == ActSend {
			l.deliver(staMAC, true, a.Frame)
		}
	}
	if n := len(sends(t, l.ap)); n != 4 {
		t.Fatalf("no message 3 for the new SNonce: %s", kinds(l.ap))
	}
	l.drop = nil
	l.deliver(staMAC, true, kept[2])
	if !l.s.Authorized() {
		t.Fatalf("not completed: %s", l.s.State())
	}
	var rx rsn.Key
	for _, a := range l.ap {
		if a.Kind == ActInstallPTK && a.RXOnly {
			rx = a.Key
		}
	}
	if act, _ := last(l.ap, ActActivatePTK); act.KeyID != 0 || rx != installedTK(t, l.sta, 0) {
		t.Fatalf("AP activated key ID %d holding a TK the station does not have", act.KeyID)
	}
}

// TestMismatchCause: MIC mismatches that all answer the latest message 1
// say "wrong passphrase likely"; with a late answer among them, the cause
// also names forged frames.
func TestMismatchCause(t *testing.T) {
	var late []byte
	l := connect(t, setup{passphrase: "wrong horse battery"}, &link{t: t, pmk: pmkOf(t, "correct horse battery"),
		now: time.Second, ack: true, drop: func(_ ieee80211.MAC, toSTA bool, f []byte) bool {
			if !toSTA && late == nil {
				late = f
				return true
			}
			return false
		}})
	l.runUntil(l.now + 1500*time.Millisecond) // message 1 #2, answered at once
	l.deliver(staMAC, true, late)             // the answer to message 1 #1
	l.runUntil(l.now + 10*time.Second)
	d, _ := last(l.ap, ActDeauth)
	if d.Cause != CauseMICMismatch || d.Cause.String() != "MIC mismatch on message 2 (wrong passphrase, or a forged frame)" {
		t.Fatalf("cause %q", d.Cause)
	}
	if m, _ := last(l.ap, ActPSKMismatch); m.Cause != CauseWrongPassphrase {
		t.Fatalf("the answer to the latest message 1: %q", m.Cause)
	}
}

// TestMICFailureReportIgnored: a Michael MIC failure report (Error bit)
// from a CCMP station is counted and changes nothing, even where a PTK
// rekey would disconnect it (wpa_deny_ptk0_rekey).
func TestMICFailureReportIgnored(t *testing.T) {
	for _, pairwise := range []uint16{0, rsn.InfoPairwise} {
		l := newLink(t, setup{cfg: func(c *Config) { c.DenyPTK0Rekey = true }})
		n := len(l.ap)
		f := rsn.AppendKeyFrame(nil, &rsn.KeyFields{ProtocolVersion: 1, Replay: 9,
			Info: rsn.VersionHMACSHA1 | rsn.InfoRequest | rsn.InfoError | rsn.InfoSecure | rsn.InfoMIC | pairwise})
		rsn.SetMIC(f, &l.s.ptk.KCK)
		l.deliver(staMAC, true, f)
		if len(l.ap) != n || !l.s.Authorized() || l.a.Counters().MICFailureReports != 1 {
			t.Fatalf("pairwise %#x: a MIC failure report caused %s; %+v", pairwise, kinds(l.ap[n:]), l.a.Counters())
		}
	}
}
