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
	// ErrAMSDUInjection: the first subframe's DA is an RFC 1042 header,
	// the mark of a plain MSDU whose A-MSDU bit an attacker flipped.
	ErrAMSDUInjection = errors.New("ieee80211: A-MSDU whose first DA is an LLC/SNAP header")
	ErrNotData        = errors.New("ieee80211: not a data frame with a payload")
	ErrBuffer         = errors.New("ieee80211: destination buffer too small")
)
