// Package cmac implements AES-CMAC (RFC 4493, NIST SP 800-38B) on a
// cipher.Block from crypto/aes. The standard library has no CMAC; RSN needs
// it for the EAPOL-Key MIC of descriptor version 3 (AKM 00-0F-AC:6) and for
// BIP-CMAC-128. The package is tested against the RFC 4493 examples.
package cmac
