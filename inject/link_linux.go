package inject

import "encoding/binary"

// htons converts v to network byte order, as sockaddr_ll wants it.
func htons(v uint16) uint16 {
	var b [2]byte
	binary.BigEndian.PutUint16(b[:], v)
	return binary.NativeEndian.Uint16(b[:])
}
