//go:build !linux

package nl80211

// Dial returns ErrNotSupported: nl80211 exists only on Linux.
func Dial() (*Conn, error) { return nil, ErrNotSupported }

// DialEvents returns ErrNotSupported: nl80211 exists only on Linux.
func DialEvents(groups ...string) (*Events, error) { return nil, ErrNotSupported }
