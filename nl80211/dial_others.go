//go:build !linux

package nl80211

// Dial returns ErrNotSupported: nl80211 exists only on Linux.
func Dial() (*Conn, error) { return nil, ErrNotSupported }
