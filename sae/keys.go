package sae

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"io"

	"filippo.io/bigmod"
)

// PMKLen and PMKIDLen are the lengths of SAE's PMK (AKM 8) and PMKID.
const (
	PMKLen   = 32
	PMKIDLen = 16
)

var (
	errScalar   = errors.New("sae: peer scalar out of range")
	errInfinity = errors.New("sae: K is the point at infinity")
)

// exchange is one SAE exchange's cryptographic state: our commit, the
// peer's, and the keys. rand is secret; so are kck and pmk.
type exchange struct {
	g        *Group
	h2e      bool
	pwe      point
	rand     *bigmod.Nat
	scalar   []byte // own commit-scalar, primeLen octets
	element  []byte // own COMMIT-ELEMENT, x || y
	peerScal []byte
	peerElem []byte
	kck      []byte
	pmk      [PMKLen]byte
	pmkid    [PMKIDLen]byte
	// Rejected Groups lists bound into the keyseed under H2E, as sent.
	ownRejected, peerRejected []byte
	ownHigher                 bool
}

// newCommit picks rand and mask, 1 < rand, mask < r with
// (rand + mask) mod r > 1 (dragonfly_generate_scalar), and computes
// commit-scalar = (rand + mask) mod r and COMMIT-ELEMENT =
// inverse(mask * PWE).
func (g *Group) newCommit(pwe point, rng io.Reader) (*exchange, error) {
	for range 100 {
		rnd, err1 := g.randomScalar(rng)
		mask, err2 := g.randomScalar(rng)
		if err1 != nil || err2 != nil {
			return nil, errors.Join(err1, err2)
		}
		if rnd == nil || mask == nil {
			continue
		}
		x, err := g.commitFrom(pwe, rnd, mask)
		if err == nil {
			return x, nil
		}
	}
	return nil, errors.New("sae: no usable random scalar")
}

// commitFrom computes the commit for given rand and mask (the vectors'
// entry point); it refuses a scalar of 0 or 1.
func (g *Group) commitFrom(pwe point, rnd, mask *bigmod.Nat) (*exchange, error) {
	s := bigmod.NewNat().ExpandFor(g.r).Mod(rnd, g.r).Add(mask, g.r)
	if s.IsZero() == 1 || s.IsOne() == 1 {
		return nil, errScalar
	}
	e := g.newPoint()
	if err := e.scalarMult(pwe, g.scalarBytes(mask)); err != nil {
		return nil, err
	}
	e.negate(e)
	if e.isInfinity() == 1 {
		return nil, errInfinity
	}
	return &exchange{g: g, pwe: pwe, rand: rnd, scalar: g.padScalar(s), element: elementBytes(e)}, nil
}

// padScalar renders a scalar mod r as primeLen octets, the length on the
// air (equal to orderLen for the three groups).
func (g *Group) padScalar(s *bigmod.Nat) []byte {
	b := s.Bytes(g.r)
	out := make([]byte, g.primeLen)
	copy(out[g.primeLen-len(b):], b)
	return out
}

// randomScalar draws a value in [2, r-1] by rejection; nil when the draw
// fell outside (the caller draws again). The loop depends on random
// values only.
func (g *Group) randomScalar(rng io.Reader) (*bigmod.Nat, error) {
	b := make([]byte, g.orderLen)
	if _, err := io.ReadFull(rng, b); err != nil {
		return nil, err
	}
	if g.ID == 21 {
		b[0] &= 1 // r has 521 bits
	}
	n, err := bigmod.NewNat().SetBytes(b, g.r)
	if err != nil || n.IsZero() == 1 || n.IsOne() == 1 {
		return nil, nil
	}
	return n, nil
}

// peerScalar checks a peer's commit-scalar: 1 < s < r (nistec would
// silently reduce anything else).
func (g *Group) peerScalar(b []byte) (*bigmod.Nat, error) {
	if len(b) != g.primeLen {
		return nil, errScalar
	}
	s, err := bigmod.NewNat().SetBytes(b[g.primeLen-g.orderLen:], g.r)
	if err != nil || s.IsZero() == 1 || s.IsOne() == 1 {
		return nil, errScalar
	}
	return s, nil
}

// process takes the peer's commit (already range-checked by the caller
// through peerScalar and pointFromElement) and derives K, the keyseed,
// KCK, PMK and PMKID (hostapd's sae_derive_k_ecc and sae_derive_keys).
func (x *exchange) process(peerScalar *bigmod.Nat, peerElem point, peerScalarBytes, peerElemBytes []byte, yield func()) error {
	g := x.g
	k := g.newPoint()
	if err := k.scalarMult(x.pwe, g.scalarBytes(peerScalar)); err != nil {
		return err
	}
	if yield != nil {
		yield()
	}
	k.add(k, peerElem)
	if err := k.scalarMult(k, g.scalarBytes(x.rand)); err != nil {
		return err
	}
	kx, err := k.bytesX()
	if err != nil {
		return errInfinity
	}
	x.peerScal = append(x.peerScal[:0], peerScalarBytes...)
	x.peerElem = append(x.peerElem[:0], peerElemBytes...)
	// H&P keeps SHA-256; H2E takes the group's hash (12.4.5.4).
	h, hl := sha256.New, sha256.Size
	if x.h2e {
		h, hl = g.newHash, g.hashLen
	}
	salt := make([]byte, hl)
	if x.h2e && (x.ownRejected != nil || x.peerRejected != nil) {
		if x.ownHigher {
			salt = append(append([]byte{}, x.ownRejected...), x.peerRejected...)
		} else {
			salt = append(append([]byte{}, x.peerRejected...), x.ownRejected...)
		}
	}
	keyseed := hmacSum(h, salt, kx)
	own, _ := bigmod.NewNat().SetBytes(x.scalar[g.primeLen-g.orderLen:], g.r)
	sum := own.Add(peerScalar, g.r)
	val := sum.Bytes(g.r)
	keys := kdf(h, keyseed, "SAE KCK and PMK", val, 8*(hl+PMKLen))
	clear(keyseed)
	x.kck = append(x.kck[:0], keys[:hl]...)
	copy(x.pmk[:], keys[hl:])
	copy(x.pmkid[:], val)
	clear(keys)
	return nil
}

// confirm is CN(KCK, send-confirm, commit-scalar, COMMIT-ELEMENT,
// peer-commit-scalar, PEER-COMMIT-ELEMENT); with ours false it is the
// verifier of the peer's confirm (the two halves swapped).
func (x *exchange) confirm(sendConfirm uint16, ours bool) []byte {
	h := sha256.New
	if x.h2e {
		h = x.g.newHash
	}
	var sc [2]byte
	binary.LittleEndian.PutUint16(sc[:], sendConfirm)
	a, ae, b, be := x.scalar, x.element, x.peerScal, x.peerElem
	if !ours {
		a, ae, b, be = b, be, a, ae
	}
	return hmacSum(h, x.kck, sc[:], a, ae, b, be)
}

// checkConfirm compares the peer's confirm in constant time.
func (x *exchange) checkConfirm(sendConfirm uint16, verifier []byte) bool {
	return hmac.Equal(x.confirm(sendConfirm, false), verifier)
}

// reflected reports whether a peer commit is our own sent back
// (scalar and element both equal).
func (x *exchange) reflected(scalar, element []byte) bool {
	return subtle.ConstantTimeCompare(scalar, x.scalar)&subtle.ConstantTimeCompare(element, x.element) == 1
}
