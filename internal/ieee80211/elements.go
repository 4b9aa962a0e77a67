package ieee80211

// Elements is a run of information elements (ID, length, body) viewed in place.
type Elements []byte

// ElemIter walks Elements without allocating:
//
//	it := Elements(b).Iter()
//	for it.Next() { use(it.ID(), it.Body()) }
//	if it.Err() != nil { ... }
type ElemIter struct {
	rest []byte
	id   uint8
	body []byte
	err  error
}

// Iter returns an iterator positioned before the first element.
func (e Elements) Iter() ElemIter { return ElemIter{rest: e} }

// Next advances to the next element. It returns false at the end or when
// an element's length runs past the buffer; Err tells them apart.
func (it *ElemIter) Next() bool {
	if len(it.rest) == 0 || it.err != nil {
		return false
	}
	if len(it.rest) < 2 || len(it.rest) < 2+int(it.rest[1]) {
		it.err = ErrTruncated
		it.body = nil
		return false
	}
	n := 2 + int(it.rest[1])
	it.id, it.body = it.rest[0], it.rest[2:n:n]
	it.rest = it.rest[n:]
	return true
}

// ID returns the current element's ID.
func (it *ElemIter) ID() uint8 { return it.id }

// Body returns the current element's body, capped so appends cannot spill.
func (it *ElemIter) Body() []byte { return it.body }

// Err returns ErrTruncated if iteration stopped at a malformed element.
func (it *ElemIter) Err() error { return it.err }

// Find returns the body of the first element with the given ID. Elements
// before a truncated one are still searched.
func (e Elements) Find(id uint8) ([]byte, bool) {
	it := e.Iter()
	for it.Next() {
		if it.ID() == id {
			return it.Body(), true
		}
	}
	return nil, false
}

// FindExt returns the body (after the extension ID) of the first Element ID
// Extension element with extension ID ext.
func (e Elements) FindExt(ext uint8) ([]byte, bool) {
	it := e.Iter()
	for it.Next() {
		if b := it.Body(); it.ID() == ElemExtension && len(b) >= 1 && b[0] == ext {
			return b[1:], true
		}
	}
	return nil, false
}

// FindVendor returns the body, after OUI and type, of the first vendor
// element with that OUI and type (WMM is OUIMicrosoft, WMMType).
func (e Elements) FindVendor(oui [3]byte, typ uint8) ([]byte, bool) {
	it := e.Iter()
	for it.Next() {
		b := it.Body()
		if it.ID() == ElemVendor && len(b) >= 4 && b[0] == oui[0] && b[1] == oui[1] && b[2] == oui[2] && b[3] == typ {
			return b[4:], true
		}
	}
	return nil, false
}

// Validate returns ErrTruncated unless the elements run exactly to the end.
func (e Elements) Validate() error {
	it := e.Iter()
	for it.Next() {
	}
	return it.Err()
}
