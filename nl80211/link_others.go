//go:build !linux

package nl80211

func setLinkDown(string) error { return ErrNotSupported }
