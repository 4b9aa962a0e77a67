package sae

import (
	"encoding/binary"
	"errors"
)

// MAC is a station's or the AP's address.
type MAC [6]byte

// Status codes of 802.11-2020 Table 9-50 that SAE uses.
const (
	StatusSuccess           uint16 = 0
	StatusUnspecified       uint16 = 1
	StatusChallengeFail     uint16 = 15
	StatusAntiCloggingToken uint16 = 76
	StatusGroupNotSupported uint16 = 77
	StatusUnknownPasswordID uint16 = 123
	StatusSAEHashToElement  uint16 = 126
	StatusSAEPK             uint16 = 127
)

// Element IDs: SAE's elements are extension elements (ID 255).
const (
	elemExtension     = 255
	extPasswordID     = 33
	extRejectedGroups = 92
	extTokenContainer = 93
	tokenLen          = 32 // hostapd's token: SHA256_MAC_LEN octets
)

var (
	errShort   = errors.New("sae: frame too short")
	errElement = errors.New("sae: malformed element")
)

// Commit is a zero-copy view of an SAE Commit (the Authentication frame
// body of 802.11-2020 9.3.3.12 for algorithm 3, transaction 1, after the
// status code); every slice points into the frame.
type Commit struct {
	Group   uint16
	Token   []byte // Anti-Clogging Token: before the scalar (H&P) or in its container (H2E)
	Scalar  []byte // primeLen octets
	Element []byte // 2*primeLen octets: x || y
	// PasswordID is the identifier's octets; HasPasswordID tells an empty
	// one from none.
	PasswordID    []byte
	HasPasswordID bool
	// RejectedGroups is the Rejected Groups element's payload (H2E only),
	// pairs of little-endian group numbers; HasRejected tells the element
	// is there. An odd length is refused at parse time.
	RejectedGroups []byte
	HasRejected    bool
}

// CommitGroup reads the Finite Cyclic Group field, which decides the
// lengths of the rest.
func CommitGroup(body []byte) (uint16, error) {
	if len(body) < 2 {
		return 0, errShort
	}
	return binary.LittleEndian.Uint16(body), nil
}

// ParseCommit parses a Commit body for a group whose prime is primeLen
// octets, as hostapd's sae_parse_commit: without H2E a token is whatever
// precedes the scalar and element when at least 32 octets are left over;
// with H2E the token only comes in its container element, and a Rejected
// Groups element may precede it. Elements it does not know after the
// element are ignored, as there.
func ParseCommit(body []byte, primeLen int, h2e bool) (Commit, error) {
	var c Commit
	if len(body) < 2 {
		return c, errShort
	}
	c.Group = binary.LittleEndian.Uint16(body)
	pos := body[2:]
	se := 3 * primeLen
	if !h2e && len(pos) > se && len(pos)-se >= tokenLen {
		n := len(pos) - se
		c.Token, pos = pos[:n:n], pos[n:]
	}
	if len(pos) < se {
		return c, errShort
	}
	c.Scalar = pos[:primeLen:primeLen]
	c.Element = pos[primeLen:se:se]
	pos = pos[se:]
	if id, rest, ok, err := extElement(pos, extPasswordID, 0); err != nil {
		return c, err
	} else if ok {
		c.PasswordID, c.HasPasswordID, pos = id, true, rest
	}
	if !h2e {
		return c, nil
	}
	if rg, rest, ok, err := extElement(pos, extRejectedGroups, 2); err != nil {
		return c, err
	} else if ok {
		if len(rg)%2 != 0 {
			return c, errElement
		}
		c.RejectedGroups, c.HasRejected, pos = rg, true, rest
	}
	if tok, _, ok, err := extElement(pos, extTokenContainer, 0); err != nil {
		return c, err
	} else if ok {
		c.Token = tok
	}
	return c, nil
}

// extElement reads an extension element with ext ID id at the head of b
// if there is one, and at least min octets of payload: its payload, what
// follows, and whether it was there. A truncated element of that ID is an
// error; anything else at the head is "not there".
func extElement(b []byte, id byte, min int) (payload, rest []byte, ok bool, err error) {
	if len(b) < 3 || b[0] != elemExtension || b[2] != id {
		return nil, b, false, nil
	}
	n := int(b[1])
	if n < 1 || n > len(b)-2 {
		return nil, b, false, errElement
	}
	if n-1 < min {
		return nil, b, false, nil
	}
	return b[3 : 2+n : 2+n], b[2+n:], true, nil
}

// AppendCommit appends a Commit body. token goes before the scalar
// without H2E and in its container with it; rejected is the Rejected
// Groups list (H2E only, nil for none); passwordID is written when
// hasID.
func AppendCommit(dst []byte, group uint16, token, scalar, element []byte, passwordID []byte, hasID, h2e bool, rejected []uint16) []byte {
	dst = binary.LittleEndian.AppendUint16(dst, group)
	if !h2e {
		dst = append(dst, token...)
	}
	dst = append(append(dst, scalar...), element...)
	if hasID {
		dst = AppendPasswordID(dst, passwordID)
	}
	if h2e && rejected != nil {
		dst = AppendRejectedGroups(dst, rejected)
	}
	if h2e && token != nil {
		dst = AppendTokenContainer(dst, token)
	}
	return dst
}

// AppendPasswordID appends a Password Identifier element.
func AppendPasswordID(dst, id []byte) []byte {
	return append(append(dst, elemExtension, byte(1+len(id)), extPasswordID), id...)
}

// AppendRejectedGroups appends a Rejected Groups element.
func AppendRejectedGroups(dst []byte, groups []uint16) []byte {
	dst = append(dst, elemExtension, byte(1+2*len(groups)), extRejectedGroups)
	for _, g := range groups {
		dst = binary.LittleEndian.AppendUint16(dst, g)
	}
	return dst
}

// AppendTokenContainer appends an Anti-Clogging Token Container element.
func AppendTokenContainer(dst, token []byte) []byte {
	return append(append(dst, elemExtension, byte(1+len(token)), extTokenContainer), token...)
}

// ParseTokenContainer reads an Anti-Clogging Token Container element at
// the head of b: its token and what follows.
func ParseTokenContainer(b []byte) (token, rest []byte, err error) {
	tok, rest, ok, err := extElement(b, extTokenContainer, 0)
	if err != nil {
		return nil, b, err
	}
	if !ok {
		return nil, b, errElement
	}
	return tok, rest, nil
}

// Confirm is a zero-copy view of an SAE Confirm (transaction 2).
type Confirm struct {
	SendConfirm uint16
	Verifier    []byte // hashLen octets
	Rest        []byte // elements after the confirm (SAE-PK's; ignored)
}

// ParseConfirm parses a Confirm body whose confirm is hashLen octets.
func ParseConfirm(body []byte, hashLen int) (Confirm, error) {
	if len(body) < 2+hashLen {
		return Confirm{}, errShort
	}
	return Confirm{
		SendConfirm: binary.LittleEndian.Uint16(body),
		Verifier:    body[2 : 2+hashLen : 2+hashLen],
		Rest:        body[2+hashLen:],
	}, nil
}

// AppendConfirm appends a Confirm body.
func AppendConfirm(dst []byte, sendConfirm uint16, verifier []byte) []byte {
	return append(binary.LittleEndian.AppendUint16(dst, sendConfirm), verifier...)
}

// AppendTokenRequest appends the body of a status-76 reply: the group
// and the token, in its container under H2E (hostapd's
// auth_build_token_req).
func AppendTokenRequest(dst []byte, group uint16, token []byte, h2e bool) []byte {
	dst = binary.LittleEndian.AppendUint16(dst, group)
	if h2e {
		return AppendTokenContainer(dst, token)
	}
	return append(dst, token...)
}
