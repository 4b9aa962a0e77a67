package ieee80211

import "errors"

// Errors are fixed values so a malformed frame costs no allocation.
var (
	ErrShort     = errors.New("ieee80211: frame too short for its type")
	ErrVersion   = errors.New("ieee80211: unknown protocol version")
	ErrFrameType = errors.New("ieee80211: unsupported frame type")
	ErrTruncated = errors.New("ieee80211: element truncated")
	ErrBody      = errors.New("ieee80211: body too short")
	ErrAMSDU     = errors.New("ieee80211: malformed A-MSDU subframe")
	ErrNotData   = errors.New("ieee80211: not a data frame with a payload")
	ErrBuffer    = errors.New("ieee80211: destination buffer too small")
)
