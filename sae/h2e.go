package sae

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/subtle"

	"filippo.io/bigmod"
)

// PT is hash-to-element's password token (802.11-2020 12.4.4.2.3): a
// point derived once per password, identifier, SSID and group, from which
// each exchange's PWE follows with one scalar multiplication by a value
// of the two MAC addresses. A PT is as secret as the password.
type PT struct {
	g  *Group
	pt point
}

// Group is the PT's group.
func (t *PT) Group() *Group { return t.g }

// Bytes is the PT's x || y (for tests and vectors; it is secret).
func (t *PT) Bytes() []byte { return elementBytes(t.pt) }

// DerivePT computes the PT as hostapd's sae_derive_pt_ecc does:
// pwd-seed = HKDF-Extract(ssid, password [|| identifier]);
// u1, u2 = HKDF-Expand(pwd-seed, "SAE Hash to Element u1 P1" / "u2 P2",
// len(p) + len(p)/2) mod p; PT = SSWU(u1) + SSWU(u2). The map is
// constant time (constant-time selects, inversion and square root by
// exponentiation).
func (g *Group) DerivePT(ssid, password, identifier []byte) (*PT, error) {
	ikm := append(append([]byte(nil), password...), identifier...)
	seed, err := hkdf.Extract(g.newHash, ikm, ssid)
	clear(ikm)
	if err != nil {
		return nil, err
	}
	n := g.primeLen + (g.primeLen+1)/2
	var pts [2]point
	for i, info := range []string{"SAE Hash to Element u1 P1", "SAE Hash to Element u2 P2"} {
		v, err := hkdf.Expand(g.newHash, seed, info, n)
		if err != nil {
			return nil, err
		}
		u := reduce(v, g.p, g.wideStep)
		clear(v)
		if pts[i], err = g.sswu(u); err != nil {
			return nil, err
		}
	}
	clear(seed)
	pt := g.newPoint()
	pt.add(pts[0], pts[1])
	return &PT{g: g, pt: pt}, nil
}

// sswu is RFC 9380's simplified SWU map (6.6.2) with the exceptional case
// handled as 802.11 and hostapd's sswu() do: x1 = b/(z*a) when
// z^2*u^4 + z*u^2 is zero, else (-b/a)(1 + 1/(z^2*u^4 + z*u^2)); the
// inverse is an exponentiation by p-2 (0 maps to 0), every choice a
// constant-time select, and y's sign that of u.
func (g *Group) sswu(u *bigmod.Nat) (point, error) {
	p := g.p
	nat := func() *bigmod.Nat { return bigmod.NewNat().ExpandFor(p) }
	u2 := nat().Mod(u, p).Mul(u, p)
	t1 := nat().Mod(g.z, p).Mul(u2, p)   // z*u^2
	m := nat().Mod(t1, p).Mul(t1, p)     // z^2*u^4
	m.Add(t1, p)                         // m = z^2*u^4 + z*u^2
	mZero := int(m.IsZero())             // l = CEQ(m, 0)
	t := nat().Exp(m, g.invExp, p)       // t = inverse(m), 0 when m is 0
	one := nat().SetUint(1).ExpandFor(p) // 1
	x1b := nat().Mod(one, p).Add(t, p)   // 1 + t
	x1b.Mul(g.sswuNegB, p)               // (-b/a)(1 + t)
	x1 := g.selectNat(mZero, g.sswuX1a, x1b)
	gx1 := g.curveY2(x1, nil)
	x2 := nat().Mod(t1, p).Mul(x1, p) // z*u^2*x1
	gx2 := g.curveY2(x2, nil)
	leg := nat().Exp(gx1, g.legExp, p)
	isQR := int(leg.IsZero() | leg.IsOne())
	v := g.selectNat(isQR, gx1, gx2)
	x := g.selectNat(isQR, x1, x2)
	y := nat().Exp(v, g.sqrtExp, p)
	negY := nat().Sub(y, p)
	ub, yb, nb := u.Bytes(p), y.Bytes(p), negY.Bytes(p)
	same := subtle.ConstantTimeByteEq(ub[len(ub)-1]&1, yb[len(yb)-1]&1)
	ctSelect(same, yb, yb, nb)
	return g.pointFromXY(x.Bytes(p), yb)
}

// selectNat is a when choice is 1, else b, through their encodings.
func (g *Group) selectNat(choice int, a, b *bigmod.Nat) *bigmod.Nat {
	out := make([]byte, g.primeLen)
	ctSelect(choice, out, a.Bytes(g.p), b.Bytes(g.p))
	n, err := bigmod.NewNat().SetBytes(out, g.p)
	if err != nil {
		panic(err) // both inputs were below p
	}
	return n
}

// pwe is the exchange's PWE from the PT (hostapd's
// sae_derive_pwe_from_pt_ecc): val = HKDF-Extract(0^n, MAX(a, b) ||
// MIN(a, b)) mod (r-1) + 1; PWE = val * PT.
func (t *PT) pwe(a, b MAC) (point, error) {
	v, err := t.g.pweVal(a, b)
	if err != nil {
		return nil, err
	}
	pwe := t.g.newPoint()
	if err := pwe.scalarMult(t.pt, t.g.scalarBytes(v)); err != nil {
		return nil, err
	}
	return pwe, nil
}

// pweVal is val = HKDF-Extract(0^n, MAX(a, b) || MIN(a, b)) mod (r-1) + 1.
func (g *Group) pweVal(a, b MAC) (*bigmod.Nat, error) {
	mac := hmac.New(g.newHash, make([]byte, g.hashLen))
	mac.Write(maxMin(a, b))
	val := reduce(mac.Sum(nil), g.rMinus1, g.rStep)
	v, err := bigmod.NewNat().SetBytes(val.Bytes(g.rMinus1), g.r)
	if err != nil {
		return nil, err
	}
	return v.Add(bigmod.NewNat().SetUint(1).ExpandFor(g.r), g.r), nil
}
