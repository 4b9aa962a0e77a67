package sae

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"io"

	"filippo.io/bigmod"
)

// minIterations is k of 12.4.4.2.2: the loop always runs this many
// times (hostapd's dragonfly_min_pwe_loop_iter for ECC groups).
const minIterations = 40

// maxIterations bounds the loop past k; a password that finds no point
// in 200 iterations does not exist in practice (probability 2^-200).
const maxIterations = 200

var errNoPWE = errors.New("sae: no password element found")

// pweHuntAndPeck derives the password element by hunting and pecking
// (802.11-2020 12.4.4.2.2) as hostapd's sae_derive_pwe_ecc does, with no
// branch and no memory access that depends on the password:
//
//   - at least 40 iterations, each doing the same work: one HMAC for the
//     seed, the KDF, a constant-time range check, y^2 = x^3 + ax + b, and
//     a blinded quadratic-residue test (one exponentiation); past 40 the
//     loop runs only until the first hit (hostapd's condition);
//   - after a hit, later iterations hash a random stub password of the
//     same length, chosen by a constant-time select, and the found x and
//     seed parity are kept by constant-time selects;
//   - the QR test multiplies y^2 by a fresh random square and by a random
//     residue or non-residue and compares the Legendre symbol, computed by
//     exponentiation, with the expected one (dragonfly.c's
//     dragonfly_is_quadratic_residue_blind), so that even the
//     exponentiation's input is unrelated to the password;
//   - y comes from one exponentiation by (p+1)/4 and its sign from a
//     constant-time select of y or p - y.
//
// yield, when not nil, is called between the blinding's random draws,
// between iterations and before the square root, so that a caller can
// cut the work into pieces of one exponentiation each.
func (g *Group) pweHuntAndPeck(a, b MAC, password []byte, rng io.Reader, m *meter, yield func()) (point, error) {
	qr, qnr, err := g.randomQRs(rng, yield)
	if err != nil {
		return nil, err
	}
	stub := make([]byte, len(password))
	if _, err := io.ReadFull(rng, stub); err != nil {
		return nil, err
	}
	key := maxMin(a, b)
	tmp := make([]byte, len(password)+1)
	x := make([]byte, g.primeLen)
	var seedOdd, found int
	for counter := 1; counter <= minIterations || found == 0; counter++ {
		if counter > maxIterations {
			return nil, errNoPWE
		}
		if yield != nil {
			yield()
		}
		m.next()
		ctSelect(found, tmp[:len(password)], stub, password)
		m.add(opSelect, 1)
		m.add(opSelectBytes, len(password))
		tmp[len(password)] = byte(counter)
		seed := hmacSum(sha256.New, key, tmp)
		m.add(opHMAC, 1)
		res, xCand, err := g.testSeed(seed, qr, qnr, rng, m)
		if err != nil {
			return nil, err
		}
		res &^= m.missAt(counter)
		ctSelect(found, x, x, xCand)
		seedOdd = subtle.ConstantTimeSelect(found, seedOdd, int(seed[len(seed)-1]&1))
		m.add(opSelect, 2)
		m.add(opSelectBytes, g.primeLen+1)
		found |= res
	}
	if yield != nil {
		yield()
	}
	return g.pointFromX(x, seedOdd)
}

// testSeed is hostapd's sae_test_pwd_seed_ecc: 1 when pwd-value is below
// p and x^3 + ax + b is a quadratic residue, with the same work either
// way.
func (g *Group) testSeed(seed []byte, qr, qnr *bigmod.Nat, rng io.Reader, m *meter) (int, []byte, error) {
	value := kdf(sha256.New, seed, "SAE Hunting and Pecking", g.prime, g.bits)
	m.add(opHMAC, (len(value)+sha256.Size-1)/sha256.Size)
	inRange := ctLess(value, g.prime)
	// A value >= p is reduced and tested anyway, and its result masked,
	// so that the rare case takes the same time. reduce, not bigmod's
	// SetOverflowingBytes, whose size check loops over the bit length of
	// the value's top word.
	x := reduce(value, g.p, g.wideStep)
	res, err := g.isQRBlind(g.curveY2(x, m), qr, qnr, rng, m)
	if err != nil {
		return 0, nil, err
	}
	return res & inRange, value, nil
}

// isQRBlind is 1 when v is a non-zero quadratic residue mod p, decided on
// v*r^2*q for a random r and a random residue or non-residue q picked by
// r's parity (dragonfly_is_quadratic_residue_blind).
func (g *Group) isQRBlind(v, qr, qnr *bigmod.Nat, rng io.Reader, m *meter) (int, error) {
	r, err := g.randomNonZero(rng, m)
	if err != nil {
		return 0, err
	}
	num := bigmod.NewNat().ExpandFor(g.p).Mod(v, g.p)
	num.Mul(r, g.p).Mul(r, g.p)
	odd := int(r.IsOdd())
	var qb [66]byte
	sel := qb[:g.primeLen]
	ctSelect(odd, sel, qr.Bytes(g.p), qnr.Bytes(g.p))
	q, err := bigmod.NewNat().SetBytes(sel, g.p)
	if err != nil {
		return 0, err
	}
	num.Mul(q, g.p)
	leg := bigmod.NewNat().Exp(num, g.legExp, g.p)
	m.add(opMul, 3)
	m.add(opExp, 1)
	m.add(opSelect, 2)
	m.add(opSelectBytes, g.primeLen)
	// With a residue (r odd) v is a residue when the symbol is 1; with a
	// non-residue, when it is -1.
	return subtle.ConstantTimeSelect(odd, int(leg.IsOne()), int(leg.IsMinusOne(g.p))), nil
}

// randomNonZero is a random element of [1, p-1] (a zero draw becomes 1,
// a bias of 2^-256 and below), from primeLen+8 random octets reduced mod
// p so that the draw takes the same work every time.
func (g *Group) randomNonZero(rng io.Reader, m *meter) (*bigmod.Nat, error) {
	var buf [74]byte
	b := buf[:g.primeLen+8]
	if _, err := io.ReadFull(rng, b); err != nil {
		return nil, err
	}
	m.add(opRand, 1)
	r := reduce(b, g.p, g.wideStep)
	one := bigmod.NewNat().ExpandFor(g.p).SetUint(r.IsZero())
	return r.Add(one.ExpandFor(g.p), g.p), nil
}

// randomQRs draws a random quadratic residue and non-residue for the
// blinding, once per derivation. The draws loop on random values, never
// on the password; yield, when not nil, is called between draws.
func (g *Group) randomQRs(rng io.Reader, yield func()) (qr, qnr *bigmod.Nat, err error) {
	for i := 0; i < 256 && (qr == nil || qnr == nil); i++ {
		if i > 0 && yield != nil {
			yield()
		}
		t, err := g.randomNonZero(rng, nil)
		if err != nil {
			return nil, nil, err
		}
		leg := bigmod.NewNat().Exp(t, g.legExp, g.p)
		switch {
		case leg.IsOne() == 1 && qr == nil:
			qr = t
		case leg.IsMinusOne(g.p) == 1 && qnr == nil:
			qnr = t
		}
	}
	if qr == nil || qnr == nil {
		return nil, nil, errors.New("sae: randomness too poor for the QR blinding")
	}
	return qr, qnr, nil
}

// pointFromX solves y = sqrt(x^3 + ax + b) and takes y or p - y by a
// constant-time select so that y's parity is odd's.
func (g *Group) pointFromX(xb []byte, odd int) (point, error) {
	x, err := bigmod.NewNat().SetBytes(xb, g.p)
	if err != nil {
		return nil, errNoPWE
	}
	y := bigmod.NewNat().Exp(g.curveY2(x, nil), g.sqrtExp, g.p)
	negY := bigmod.NewNat().ExpandFor(g.p).Sub(y, g.p) // 0 - y
	yb, nb := y.Bytes(g.p), negY.Bytes(g.p)
	ctSelect(subtle.ConstantTimeByteEq(byte(odd), yb[len(yb)-1]&1), yb, yb, nb)
	return g.pointFromXY(xb, yb)
}
