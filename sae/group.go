package sae

import (
	"crypto/elliptic"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
	"math/big"

	"filippo.io/bigmod"
)

// Group is one of the elliptic-curve groups SAE runs in here: 19 (P-256,
// the mandatory one and the default), 20 (P-384) and 21 (P-521), the
// ones hostapd's dragonfly_suitable_group allows for ECC. Its values are
// public constants; nothing in a Group is secret.
type Group struct {
	ID       uint16
	primeLen int // octets of p: scalars and coordinates on the air
	orderLen int // octets of r
	bits     int // bits of p
	hashLen  int // H2E's hash (and its keys'): by the length of p
	newHash  func() hash.Hash
	newPoint func() point

	p, r     *bigmod.Modulus
	rMinus1  *bigmod.Modulus // H2E's val = H(...) mod (r-1) + 1
	rStep    *bigmod.Nat     // reduce's multiplier for rMinus1
	prime    []byte          // p, primeLen octets
	order    []byte          // r, orderLen octets
	a, b     *bigmod.Nat     // curve: y^2 = x^3 + a*x + b, a = -3
	sqrtExp  []byte          // (p+1)/4: p = 3 mod 4 for all three
	legExp   []byte          // (p-1)/2: Euler's criterion
	invExp   []byte          // p-2: Fermat inversion, constant time
	z        *bigmod.Nat     // SSWU's z for the group (RFC 9380, 802.11 12.4.4.2.3)
	sswuX1a  *bigmod.Nat     // b / (z*a): x1 when the denominator is zero
	sswuNegB *bigmod.Nat     // -b/a
	wideStep *bigmod.Nat     // 2^(8*(primeLen-1)) mod p, for reducing wide values
}

// Groups this package implements, by their IANA number.
var groups = map[uint16]*Group{}

func init() {
	groups[19] = newGroup(19, elliptic.P256(), -10, sha256.New, newP256)
	groups[20] = newGroup(20, elliptic.P384(), -12, sha512.New384, newP384)
	groups[21] = newGroup(21, elliptic.P521(), -4, sha512.New, newP521)
}

// GroupByID returns the group with IANA number id, if it is one of 19,
// 20 and 21.
func GroupByID(id uint16) (*Group, bool) {
	g, ok := groups[id]
	return g, ok
}

// Supported reports whether id names a group this package implements.
func Supported(id uint16) bool { _, ok := groups[id]; return ok }

func newGroup(id uint16, c elliptic.Curve, z int64, h func() hash.Hash, np func() point) *Group {
	params := c.Params()
	g := &Group{ID: id, bits: params.P.BitLen(), newHash: h, newPoint: np}
	g.primeLen = (g.bits + 7) / 8
	g.orderLen = (params.N.BitLen() + 7) / 8
	g.hashLen = h().Size()
	g.prime = params.P.FillBytes(make([]byte, g.primeLen))
	g.order = params.N.FillBytes(make([]byte, g.orderLen))
	g.p = mustModulus(g.prime)
	g.r = mustModulus(g.order)
	g.rMinus1 = mustModulus(new(big.Int).Sub(params.N, big.NewInt(1)).Bytes())
	g.rStep = stepFor(g.rMinus1)
	g.a = g.natP(new(big.Int).Sub(params.P, big.NewInt(3)))
	g.b = g.natP(params.B)
	g.sqrtExp = new(big.Int).Rsh(new(big.Int).Add(params.P, big.NewInt(1)), 2).Bytes()
	g.legExp = new(big.Int).Rsh(new(big.Int).Sub(params.P, big.NewInt(1)), 1).Bytes()
	g.invExp = new(big.Int).Sub(params.P, big.NewInt(2)).Bytes()
	zz := new(big.Int).Mod(big.NewInt(z), params.P)
	g.z = g.natP(zz)
	// The SSWU constants are public: math/big's variable-time inverse is
	// fine for them (never for anything derived from a password).
	p := params.P
	za := new(big.Int).Mul(zz, new(big.Int).Sub(p, big.NewInt(3)))
	g.sswuX1a = g.natP(new(big.Int).Mod(new(big.Int).Mul(params.B, new(big.Int).ModInverse(za.Mod(za, p), p)), p))
	aInv := new(big.Int).ModInverse(new(big.Int).Sub(p, big.NewInt(3)), p)
	negB := new(big.Int).Sub(p, params.B)
	g.sswuNegB = g.natP(new(big.Int).Mod(new(big.Int).Mul(negB, aInv), p))
	step := new(big.Int).Lsh(big.NewInt(1), uint(8*(g.primeLen-1)))
	g.wideStep = g.natP(step.Mod(step, p))
	return g
}

func mustModulus(b []byte) *bigmod.Modulus {
	m, err := bigmod.NewModulus(b)
	if err != nil {
		panic(err)
	}
	return m
}

// natP is a public constant as an element of GF(p).
func (g *Group) natP(v *big.Int) *bigmod.Nat {
	n, err := bigmod.NewNat().SetBytes(v.FillBytes(make([]byte, g.primeLen)), g.p)
	if err != nil {
		panic(err)
	}
	return n
}

// reduce returns b mod m for a big-endian b of any length, in time that
// depends only on len(b): Horner's rule on chunks one octet shorter than
// m, each below m, with constant-time Mul and Add.
func reduce(b []byte, m *bigmod.Modulus, step *bigmod.Nat) *bigmod.Nat {
	c := m.Size() - 1
	acc := bigmod.NewNat().ExpandFor(m)
	chunk := bigmod.NewNat()
	first := len(b) % c
	if first == 0 {
		first = c
	}
	for off, n := 0, first; off < len(b); off, n = off+n, c {
		if _, err := chunk.SetBytes(b[off:off+n], m); err != nil {
			panic(err) // a chunk of c octets is always below m
		}
		acc.Mul(step, m).Add(chunk, m)
	}
	return acc
}

// stepFor is 2^(8*(m.Size()-1)) mod m, reduce's multiplier.
func stepFor(m *bigmod.Modulus) *bigmod.Nat {
	v := new(big.Int).Lsh(big.NewInt(1), uint(8*(m.Size()-1)))
	v.Mod(v, new(big.Int).SetBytes(m.Nat().Bytes(m)))
	n, err := bigmod.NewNat().SetBytes(v.FillBytes(make([]byte, m.Size())), m)
	if err != nil {
		panic(err)
	}
	return n
}

// curveY2 returns x^3 + a*x + b mod p.
func (g *Group) curveY2(x *bigmod.Nat, m *meter) *bigmod.Nat {
	y2 := bigmod.NewNat().ExpandFor(g.p).Mod(x, g.p)
	y2.Mul(x, g.p).Mul(x, g.p)
	ax := bigmod.NewNat().ExpandFor(g.p).Mod(x, g.p)
	ax.Mul(g.a, g.p)
	y2.Add(ax, g.p).Add(g.b, g.p)
	m.add(opMul, 3)
	m.add(opAdd, 2)
	return y2
}

// pointFromXY builds a point from x and y, both primeLen octets; nistec
// checks the curve equation.
func (g *Group) pointFromXY(x, y []byte) (point, error) {
	enc := make([]byte, 1+2*g.primeLen)
	enc[0] = 4
	copy(enc[1:], x)
	copy(enc[1+g.primeLen:], y)
	p := g.newPoint()
	return p, p.setBytes(enc)
}

// elementBytes is the point's x || y as SAE puts it on the air.
func elementBytes(p point) []byte { return p.bytes()[1:] }

// pointFromElement parses an x || y element from the air.
func (g *Group) pointFromElement(e []byte) (point, error) {
	return g.pointFromXY(e[:g.primeLen], e[g.primeLen:])
}

// scalarBytes renders a scalar (a Nat mod r) as orderLen octets, the
// length nistec's ScalarMult takes.
func (g *Group) scalarBytes(n *bigmod.Nat) []byte { return n.Bytes(g.r) }
