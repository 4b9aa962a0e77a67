package bss

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// TestSharedSecretKeyID: of two lines sharing a secret, a station gets the
// keyid of the first in the order candidates are tried, its own line
// before the wildcards, each in the file's order (README, WPA2).
func TestSharedSecretKeyID(t *testing.T) {
	pmk := rsn.PMK{1, 2, 3}
	sta, other := ieee80211.MAC{0x02, 0, 0, 0, 1, 0}, ieee80211.MAC{0x02, 0, 0, 0, 9, 0}
	set, err := NewPSKSet([]PSK{
		{PMK: &pmk, KeyID: "wildcard-1"},
		{PMK: &pmk, KeyID: "wildcard-2"},
		{Addr: sta, PMK: &pmk, KeyID: "own"},
	}, nil, Passphrase{}, "airq-test")
	if err != nil {
		t.Fatal(err)
	}
	if got := set.KeyIDOf(sta, &pmk); got != "own" {
		t.Errorf("the station with its own line: keyid %q", got)
	}
	if got := set.KeyIDOf(other, &pmk); got != "wildcard-1" {
		t.Errorf("another station: keyid %q", got)
	}
	if got := set.PMKs(nil, sta); len(got) != 3 {
		t.Errorf("the station's candidates: %d, want its own line and both wildcards", len(got))
	}
}

// TestPassphraseNeverPrints: every way of printing a passphrase shows
// [redacted], and the secret only comes out through Reveal.
func TestPassphraseNeverPrints(t *testing.T) {
	p := NewPassphrase("correct horse")
	var logged strings.Builder
	slog.New(slog.NewTextHandler(&logged, nil)).Info("x", "p", p)
	for _, s := range []string{fmt.Sprint(p), fmt.Sprintf("%v %+v %#v %s %q %x", p, p, p, p, p, p), fmt.Sprintf("%v", PSK{Passphrase: p}), logged.String()} {
		if strings.Contains(s, "horse") {
			t.Errorf("printed the secret: %s", s)
		}
	}
	if p.Reveal() != "correct horse" || !p.Set() || (Passphrase{}).Set() {
		t.Error("Reveal or Set")
	}
}
