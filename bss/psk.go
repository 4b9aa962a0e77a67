package bss

import (
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// PSK is one pre-shared key (a wpa_psk, or a line of hostapd's
// wpa_psk_file): its PMK, or a passphrase the core derives it from at start, for the
// station Addr or for any (Addr zero); KeyID is the line's keyid=, shown
// for the stations that used it. The PMK is behind a pointer so that
// printing a configuration shows an address, whatever the verb (fmt skips
// a type's own formatting under a wrong verb, and would print an array's
// bytes).
type PSK struct {
	Addr       ieee80211.MAC
	PMK        *rsn.PMK
	Passphrase Passphrase
	KeyID      string
}

// Passphrase is a WPA passphrase, kept behind a pointer for the same
// reason. It prints as [redacted]; the zero value is none.
type Passphrase struct{ s *string }

// NewPassphrase holds p.
func NewPassphrase(p string) Passphrase { return Passphrase{&p} }

// Reveal returns the passphrase, for deriving its PMK.
func (p Passphrase) Reveal() string {
	if p.s == nil {
		return ""
	}
	return *p.s
}

// Set reports whether there is a passphrase.
func (p Passphrase) Set() bool { return p.s != nil }

func (Passphrase) String() string               { return "[redacted]" }
func (Passphrase) GoString() string             { return "[redacted]" }
func (Passphrase) Format(f fmt.State, _ rune)   { io.WriteString(f, "[redacted]") }
func (Passphrase) LogValue() slog.Value         { return slog.StringValue("[redacted]") }
func (Passphrase) MarshalText() ([]byte, error) { return []byte("[redacted]"), nil }

// CheckPassphrase is wpa_passphrase's rule: 8 to 63 printable ASCII.
func CheckPassphrase(p string) error {
	if n := len(p); n < 8 || n > 63 {
		return fmt.Errorf("%d characters, want 8 to 63", n)
	}
	for _, ch := range []byte(p) {
		if ch < 32 || ch > 126 {
			return errors.New("want printable ASCII characters only")
		}
	}
	return nil
}

// PSKSet is the BSS's PMKs, derived once, with their keyid.
type PSKSet struct {
	wildcard []pskEntry
	perSTA   map[ieee80211.MAC][]pskEntry
}

type pskEntry struct {
	pmk   rsn.PMK
	keyID string
}

// NewPSKSet derives every passphrase's PMK for ssid, from the lines of
// wpa_psk_file (psks), wpa_psk (psk) and wpa_passphrase: at start, never
// per association.
func NewPSKSet(psks []PSK, psk *rsn.PMK, passphrase Passphrase, ssid string) (PSKSet, error) {
	s := PSKSet{perSTA: map[ieee80211.MAC][]pskEntry{}}
	for i, p := range psks {
		e := pskEntry{keyID: p.KeyID}
		if p.PMK != nil {
			e.pmk = *p.PMK
		} else {
			pmk, err := rsn.PMKFromPassphrase(p.Passphrase.Reveal(), []byte(ssid))
			if err != nil {
				return s, fmt.Errorf("wpa_psk_file: PSK %d: %w", i+1, err)
			}
			e.pmk = pmk
		}
		if p.Addr.IsZero() {
			s.wildcard = append(s.wildcard, e)
		} else {
			s.perSTA[p.Addr] = append(s.perSTA[p.Addr], e)
		}
	}
	if psk != nil {
		s.wildcard = append(s.wildcard, pskEntry{pmk: *psk})
	}
	if passphrase.Set() {
		pmk, err := rsn.PMKFromPassphrase(passphrase.Reveal(), []byte(ssid))
		if err != nil {
			return s, fmt.Errorf("wpa_passphrase: %w", err)
		}
		s.wildcard = append(s.wildcard, pskEntry{pmk: pmk})
	}
	return s, nil
}

// A station's candidates are tried in airq's order: its own lines of
// wpa_psk_file, then the wildcard lines, each in the file's order, then
// wpa_psk or wpa_passphrase. hostapd makes wpa_psk's or wpa_passphrase's
// entry first, then puts each line of the file at the head of its list as
// it reads it (hostapd_setup_wpa_psk, hostapd_config_read_wpa_psk), and
// hostapd_get_psk walks that list from the head: the file's lines from the
// last up, a station's own and the wildcards mixed, then the passphrase. The order decides only which
// keyid= a station is reported with when two lines share a secret
// (KeyIDOf), and how soon a station's message 2 verifies.

// PMKs is the authenticator's PMK source: it appends spa's candidates to
// dst.
func (s *PSKSet) PMKs(dst []rsn.PMK, spa ieee80211.MAC) []rsn.PMK {
	for _, e := range s.perSTA[spa] {
		dst = append(dst, e.pmk)
	}
	for _, e := range s.wildcard {
		dst = append(dst, e.pmk)
	}
	return dst
}

// KeyIDOf is the keyid of spa's first candidate with PMK pmk. hostapd
// reports the first line in its list with that PMK, whoever's it is: of
// two lines sharing a secret, the later in the file.
func (s *PSKSet) KeyIDOf(spa ieee80211.MAC, pmk *rsn.PMK) string {
	for _, list := range [][]pskEntry{s.perSTA[spa], s.wildcard} {
		for _, e := range list {
			if e.pmk == *pmk {
				return e.keyID
			}
		}
	}
	return ""
}
