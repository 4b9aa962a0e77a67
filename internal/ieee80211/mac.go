package ieee80211

import "errors"

// MAC is an IEEE 802 MAC address.
type MAC [6]byte

// Broadcast is ff:ff:ff:ff:ff:ff.
var Broadcast = MAC{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}

// ErrMAC is returned by ParseMAC for anything but six colon- or
// dash-separated hex octets.
var ErrMAC = errors.New("ieee80211: invalid MAC address")

const hexDigits = "0123456789abcdef"

// String formats m as 02:00:00:00:01:00.
func (m MAC) String() string {
	var b [17]byte
	m.appendTo(b[:0])
	return string(b[:])
}

// AppendText appends the text form of m without allocating.
func (m MAC) AppendText(b []byte) ([]byte, error) { return m.appendTo(b), nil }

func (m MAC) appendTo(b []byte) []byte {
	for i, o := range m {
		if i > 0 {
			b = append(b, ':')
		}
		b = append(b, hexDigits[o>>4], hexDigits[o&15])
	}
	return b
}

// ParseMAC parses six hex octets separated by ':' or '-'.
func ParseMAC(s string) (MAC, error) {
	var m MAC
	if len(s) != 17 {
		return m, ErrMAC
	}
	for i := range m {
		hi, ok1 := unhexDigit(s[3*i])
		lo, ok2 := unhexDigit(s[3*i+1])
		if !ok1 || !ok2 || (i < 5 && s[3*i+2] != ':' && s[3*i+2] != '-') || (i < 5 && s[3*i+2] != s[2]) {
			return MAC{}, ErrMAC
		}
		m[i] = hi<<4 | lo
	}
	return m, nil
}

func unhexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// IsBroadcast reports whether m is ff:ff:ff:ff:ff:ff.
func (m MAC) IsBroadcast() bool { return m == Broadcast }

// IsMulticast reports whether the group bit is set; broadcast is a group address too.
func (m MAC) IsMulticast() bool { return m[0]&1 != 0 }

// IsZero reports whether m is 00:00:00:00:00:00.
func (m MAC) IsZero() bool { return m == MAC{} }

// IsLocal reports whether the locally administered bit is set.
func (m MAC) IsLocal() bool { return m[0]&2 != 0 }
