// Package ccm implements the CCM authenticated encryption mode of NIST SP
// 800-38C (RFC 3610) on an AES cipher.Block, for CCMP. The standard library
// has no CCM, and the implementations in other modules either allocate per
// message or come tied to a protocol stack; CCMP needs one that costs no
// allocation per frame, so this one keeps its working blocks in the CCM
// value.
//
// The CBC-MAC and the counter-mode encryption run interleaved, one block of
// each per step: the MAC chain is serial, and the independent keystream
// block fills the AES unit while the chain waits. The package is tested
// against the RFC 3610 packet vectors and the NIST SP 800-38C examples.
package ccm
