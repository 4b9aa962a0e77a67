package sae

import "filippo.io/nistec"

// point is the one interface the package uses for the three NIST curves,
// so that group code is written once. Every method is constant time in
// the point's value (nistec's guarantee); only the curve varies.
type point interface {
	// setBytes takes an uncompressed SEC 1 encoding (0x04 || x || y);
	// nistec refuses encodings off the curve and coordinates >= p.
	setBytes(b []byte) error
	// bytes appends the uncompressed encoding (0x04 || x || y).
	bytes() []byte
	// bytesX returns x, or an error for the point at infinity.
	bytesX() ([]byte, error)
	add(a, b point)
	// scalarMult sets the point to k*q; k is reduced mod r by nistec,
	// so callers range-check scalars that come from the air.
	scalarMult(q point, k []byte) error
	negate(q point)
	equal(q point) int
	isInfinity() int
	set(q point)
}

// nistPoint is what nistec's P256Point, P384Point and P521Point have in
// common.
type nistPoint[T any] interface {
	SetBytes([]byte) (T, error)
	Bytes() []byte
	BytesX() ([]byte, error)
	Add(T, T) T
	ScalarMult(T, []byte) (T, error)
	Negate(T) T
	Equal(T) int
	IsInfinity() int
	Set(T) T
}

// ecPoint adapts a nistec point to point.
type ecPoint[T nistPoint[T]] struct{ p T }

func (e *ecPoint[T]) setBytes(b []byte) error {
	_, err := e.p.SetBytes(b)
	return err
}
func (e *ecPoint[T]) bytes() []byte           { return e.p.Bytes() }
func (e *ecPoint[T]) bytesX() ([]byte, error) { return e.p.BytesX() }
func (e *ecPoint[T]) add(a, b point)          { e.p.Add(a.(*ecPoint[T]).p, b.(*ecPoint[T]).p) }
func (e *ecPoint[T]) scalarMult(q point, k []byte) error {
	_, err := e.p.ScalarMult(q.(*ecPoint[T]).p, k)
	return err
}
func (e *ecPoint[T]) negate(q point)    { e.p.Negate(q.(*ecPoint[T]).p) }
func (e *ecPoint[T]) equal(q point) int { return e.p.Equal(q.(*ecPoint[T]).p) }
func (e *ecPoint[T]) isInfinity() int   { return e.p.IsInfinity() }
func (e *ecPoint[T]) set(q point)       { e.p.Set(q.(*ecPoint[T]).p) }
func newP256() point                    { return &ecPoint[*nistec.P256Point]{nistec.NewP256Point()} }
func newP384() point                    { return &ecPoint[*nistec.P384Point]{nistec.NewP384Point()} }
func newP521() point                    { return &ecPoint[*nistec.P521Point]{nistec.NewP521Point()} }
