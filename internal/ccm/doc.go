// Package ccm implements the CCM authenticated encryption mode of NIST SP
// 800-38C (RFC 3610) on an AES cipher.Block, for CCMP. The standard library
// has no CCM, and the implementations in other modules either allocate per
// message or come tied to a protocol stack; CCMP needs one that costs no
// allocation per frame, so this one keeps its working blocks in the CCM
// value.
//
// The CBC-MAC and the counter-mode encryption run interleaved, one block of
// each per step: the MAC chain is serial, and the independent keystream
// block fills the AES unit while the chain waits. New runs that in Go over
// any cipher.Block. NewAES, with an AES-128 key on an amd64 CPU with AES-NI,
// runs the whole blocks, B_0, short associated data and E(A_0) in assembly
// (fused_amd64.s) with a key schedule it expands itself (schedule.go): no
// interface call, no per-block checks, a few dozen instructions a block. Go
// stays the reference: both are held to the RFC 3610 packet vectors and the
// NIST SP 800-38C examples, and FuzzFusedMatchesGeneric compares them.
package ccm
