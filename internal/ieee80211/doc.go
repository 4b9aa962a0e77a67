// Package ieee80211 provides zero-copy views of 802.11 frames, information
// elements, MAC addresses, channels and the TID/AC mapping, plus encoders that
// append frames into caller-owned buffers. Nothing here allocates on the hot
// path or retains the bytes it is given.
package ieee80211
