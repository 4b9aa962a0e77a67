// Package aeskw implements the AES key wrap of RFC 3394 (NIST SP 800-38F
// KW) with the default initial value A6A6A6A6A6A6A6A6, as IEEE 802.11
// 12.7.2 uses it for the Key Data field of EAPOL-Key frames. The standard
// library has none; the package is tested against the RFC 3394 section 4
// examples.
//
// Wrap and Unwrap work in place (dst = input[:0]), as the ccm package
// does: the input is moved into dst before any block is written.
package aeskw
