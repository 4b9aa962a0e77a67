package rsn

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"

	"github.com/airq/airq/internal/ieee80211"
)

var (
	// ErrPassphrase is returned for a passphrase outside 8..63 characters.
	ErrPassphrase = errors.New("rsn: passphrase must be 8 to 63 characters")
	// ErrPSK is returned for a PSK that is not 64 hex digits.
	ErrPSK = errors.New("rsn: PSK must be 64 hexadecimal digits")
	// ErrSSID is returned for an SSID longer than 32 octets.
	ErrSSID = errors.New("rsn: SSID longer than 32 octets")
)

// PMKFromPassphrase derives the PMK of a WPA-Personal network:
// PBKDF2-SHA1(passphrase, SSID, 4096, 256 bits) (802.11-2020 J.4.1). Like
// hostapd it takes 8 to 63 bytes of passphrase as they are. It costs a few
// milliseconds: derive once, when the configuration is loaded.
func PMKFromPassphrase(passphrase string, ssid []byte) (PMK, error) {
	var pmk PMK
	if len(passphrase) < 8 || len(passphrase) > 63 {
		return pmk, ErrPassphrase
	}
	if len(ssid) > 32 {
		return pmk, ErrSSID
	}
	k, err := pbkdf2.Key(sha1.New, passphrase, ssid, 4096, len(pmk))
	if err != nil {
		return pmk, err
	}
	copy(pmk[:], k)
	clear(k)
	return pmk, nil
}

// ParsePSK reads a PSK given as 64 hexadecimal digits (wpa_psk).
func ParsePSK(s string) (PMK, error) {
	var pmk PMK
	if len(s) != 2*len(pmk) {
		return pmk, ErrPSK
	}
	if _, err := hex.Decode(pmk[:], []byte(s)); err != nil {
		return PMK{}, ErrPSK
	}
	return pmk, nil
}

// PMKID is a PMK identifier.
type PMKID [16]byte

// PMKIDOf returns Truncate-128(HMAC-Hash(PMK, "PMK Name" || AA || SPA))
// (802.11-2020 12.7.1.3), with SHA-256 for the SHA-256 AKMs and SHA-1
// otherwise, as hostapd's rsn_pmkid.
func PMKIDOf(pmk *PMK, aa, spa ieee80211.MAC, akm AKM) PMKID {
	h := sha1.New
	if akm.UsesSHA256() {
		h = sha256.New
	}
	m := hmac.New(h, pmk[:])
	m.Write([]byte("PMK Name"))
	m.Write(aa[:])
	m.Write(spa[:])
	var id PMKID
	copy(id[:], m.Sum(nil))
	return id
}

// RandomKey reads a fresh 128-bit key (a GTK or IGTK) from r, which is
// crypto/rand.Reader outside tests.
func RandomKey(r io.Reader) (Key, error) {
	var k Key
	_, err := io.ReadFull(r, k[:])
	return k, err
}

// RandomNonce reads a fresh 256-bit nonce (ANonce, SNonce) from r.
func RandomNonce(r io.Reader) (Nonce, error) {
	var n Nonce
	_, err := io.ReadFull(r, n[:])
	return n, err
}

// Nonce is an ANonce or SNonce.
type Nonce [32]byte
