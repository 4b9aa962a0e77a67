package radiotap

import "errors"

// Errors returned by Parse. They are fixed values so that a bad frame costs
// no allocation; wrap them at the edge if context is needed.
var (
	ErrShort     = errors.New("radiotap: header truncated")
	ErrVersion   = errors.New("radiotap: unsupported version")
	ErrLength    = errors.New("radiotap: it_len exceeds the buffer or is below 8")
	ErrField     = errors.New("radiotap: field runs past it_len")
	ErrBitmaps   = errors.New("radiotap: presence bitmaps run past it_len")
	ErrNamespace = errors.New("radiotap: vendor namespace data runs past it_len")
)
