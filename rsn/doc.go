// Package rsn holds the robust security network pieces an access point
// needs for WPA2-Personal, as IEEE 802.11-2020 clause 9.4.2.24 and 12.7
// define them and hostapd 2.10 applies them:
//
//   - the RSN element: Parse, Append, and Policy.Validate, which answers a
//     station's element in an association request with hostapd's status
//     codes (wpa_validate_wpa_ie, wpa_parse_wpa_ie_rsn);
//   - KDEs and the Key Data field: ParseKeyData and the Append*KDE encoders,
//     padding and AES key wrap;
//   - EAPOL-Key frames: a zero-copy view (KeyFrame), an encoder, and the
//     MIC (HMAC-SHA1-128 for descriptor version 2, AES-128-CMAC for 3);
//   - the key hierarchy: PMK from a passphrase (PBKDF2-SHA1) or hex PSK,
//     PRF-384 (AKM 00-0F-AC:2) and KDF-SHA256-384 (AKM 00-0F-AC:6) to the
//     PTK, the PMKID, random GTKs and IGTKs.
//
// Nothing here does I/O or keeps time; the handshakes that use these
// pieces are in rsn/handshake. The types that hold keys (PMK, Key, PTK,
// KeyBytes) write "[redacted]" from String, Format, LogValue and
// MarshalText, and KeyData prints only which KDEs it holds, so a key
// printed, logged or marshalled as a value, through a pointer or in an
// exported field shows no byte. fmt cannot call a method through an
// unexported field: a struct that keeps one of these in an unexported
// field prints the bytes unless it formats itself, as the handshake
// machines do.
package rsn
