package handshake

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

func TestHandshakeCompletes(t *testing.T) {
	for _, su := range []setup{
		{akm: rsn.AKMPSK},
		{akm: rsn.AKMPSKSHA256},
		{akm: rsn.AKMPSKSHA256, mfp: rsn.MFPRequired},
		{akm: rsn.AKMPSK, mfp: rsn.MFPOptional, ext: 1},
		{akm: rsn.AKMPSK, ext: 2},
	} {
		name := fmt.Sprintf("%v mfp %d ext %d", su.akm, su.mfp, su.ext)
		l := newLink(t, su)
		if !l.s.Authorized() || !l.sup.Completed() || l.s.State() != "PTKINITDONE" {
			t.Fatalf("%s: not completed: %s", name, l.s)
		}
		frames := sends(t, l.ap)
		if len(frames) != 2 || frames[0].Replay() != 1 || frames[1].Replay() != 2 {
			t.Fatalf("%s: AP sent %d frames", name, len(frames))
		}
		wantVer := uint16(rsn.VersionHMACSHA1)
		if su.akm == rsn.AKMPSKSHA256 {
			wantVer = rsn.VersionAESCMAC
		}
		for _, f := range append(frames, sends(t, l.sta)...) {
			if f.DescriptorVersion() != wantVer {
				t.Fatalf("%s: descriptor version %d", name, f.DescriptorVersion())
			}
		}
		keyID := 0
		if su.ext == 2 {
			keyID = 1
		}
		apTK := installedTK(t, l.ap, keyID)
		staTK := installedTK(t, l.sta, keyID)
		if apTK != staTK {
			t.Fatalf("%s: the two sides installed different TKs", name)
		}
		apGTK, _ := last(l.ap, ActInstallGTK)
		staGTK, ok := last(l.sta, ActInstallGTK)
		if !ok || apGTK.Key != staGTK.Key || apGTK.KeyID != 1 || staGTK.KeyID != 1 {
			t.Fatalf("%s: GTK %d/%d", name, apGTK.KeyID, staGTK.KeyID)
		}
		apIGTK, apHas := last(l.ap, ActInstallIGTK)
		staIGTK, staHas := last(l.sta, ActInstallIGTK)
		if mfp := su.mfp != rsn.MFPDisabled; apHas != mfp || staHas != mfp || mfp && (apIGTK.Key != staIGTK.Key || staIGTK.KeyID != 4) {
			t.Fatalf("%s: IGTK installed %v/%v", name, apHas, staHas)
		}
		c, _ := last(l.ap, ActCompleted)
		if c.Rekey || c.Addr != staMAC || count(l.ap, ActCompleted) != 1 || count(l.ap, ActDeauth) != 0 {
			t.Fatalf("%s: completion %+v", name, c)
		}
		if at, ok := l.a.Deadline(); ok && at < l.now+time.Hour {
			t.Fatalf("%s: a timer still armed at %v", name, at)
		}
	}
}

// installedTK returns the TK a side installed under keyID for sending
// (directly or by activating an RX-only key).
func installedTK(t *testing.T, acts []Action, keyID int) rsn.Key {
	t.Helper()
	var tk rsn.Key
	var found, active bool
	for _, a := range acts {
		switch {
		case a.Kind == ActInstallPTK && a.KeyID == keyID:
			tk, found, active = a.Key, true, !a.RXOnly
		case a.Kind == ActActivatePTK && a.KeyID == keyID:
			active = found
		}
	}
	if !found || !active {
		t.Fatalf("no TK %d installed for sending: %v", keyID, kinds(acts))
	}
	return tk
}

func kinds(acts []Action) string {
	var b strings.Builder
	for _, a := range acts {
		fmt.Fprintf(&b, "%v@%v ", a.Kind, a.At)
	}
	return b.String()
}

func TestWrongPassphrase(t *testing.T) {
	l := newLink(t, setup{passphrase: "wrong horse battery"})
	l.ack = true
	l.runUntil(l.now + 10*time.Second)
	if count(l.ap, ActInstallPTK) != 0 || count(l.ap, ActCompleted) != 0 || l.s.Authorized() {
		t.Fatalf("a wrong passphrase got keys: %s", kinds(l.ap))
	}
	d, ok := last(l.ap, ActDeauth)
	if !ok || d.Reason != ieee80211.Reason4WayTimeout || d.Cause != CauseWrongPassphrase {
		t.Fatalf("deauth %+v", d)
	}
	if n := count(l.ap, ActPSKMismatch); n != 4 {
		t.Fatalf("%d PSK mismatch notices, want one per message 2 (4)", n)
	}
	if !strings.Contains(d.Cause.String(), "wrong passphrase") {
		t.Fatalf("cause %q", d.Cause)
	}
}

func TestSeveralPMKs(t *testing.T) {
	right := pmkOf(t, "correct horse battery")
	wrong1, wrong2 := pmkOf(t, "not this one"), pmkOf(t, "nor this one")
	l := newLink(t, setup{cfg: func(c *Config) {
		c.PMKs = func(dst []rsn.PMK, spa ieee80211.MAC) []rsn.PMK {
			if spa != staMAC {
				t.Errorf("PMKs asked for %v", spa)
			}
			return append(dst, wrong1, wrong2, right)
		}
	}})
	c, ok := last(l.ap, ActCompleted)
	if !ok || c.PMK != 2 || count(l.ap, ActPSKMismatch) != 0 {
		t.Fatalf("completion %+v; %s", c, kinds(l.ap))
	}
}

func TestNoPSK(t *testing.T) {
	l := newLink(t, setup{cfg: func(c *Config) { c.PMKs = func(dst []rsn.PMK, _ ieee80211.MAC) []rsn.PMK { return dst } }})
	d, ok := last(l.ap, ActDeauth)
	if !ok || d.Cause != CauseNoPSK || d.Reason != ieee80211.ReasonPrevAuthNotValid || count(l.ap, ActSend) != 0 {
		t.Fatalf("%+v %s", d, kinds(l.ap))
	}
}

func TestRedacted(t *testing.T) {
	l := newLink(t, setup{mfp: rsn.MFPOptional})
	tk := installedTK(t, l.ap, 0)
	for _, v := range []any{l.a, l.s, l.sup, *l.s, l.ap[len(l.ap)-1]} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%x"} {
			s := fmt.Sprintf(verb, v)
			if strings.Contains(s, fmt.Sprintf("%x", tk[:4])) || strings.Contains(s, fmt.Sprint(tk[0], " ", tk[1])) {
				t.Fatalf("%s of %T shows key bytes: %s", verb, v, s)
			}
		}
	}
}
