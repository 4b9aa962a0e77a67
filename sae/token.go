package sae

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"hash"
	"io"
	"time"
)

// tokenKeyLifetime is how long a token key lives (hostapd regenerates
// its comeback key every 60 s, and when the index wraps).
const tokenKeyLifetime = 60 * time.Second

// Tokens makes and checks anti-clogging tokens as hostapd's
// comeback_token.c: a token is a 16-bit index followed by the last 30
// octets of HMAC-SHA256(key, MAC || index); 256 pending slots, picked by
// the first octet of HMAC(key, MAC), hold the index a MAC was given, and
// a token is accepted once, then its slot is cleared. So a token is bound
// to its MAC, single use, and dies with the key. Check allocates nothing.
type Tokens struct {
	key     [32]byte
	keyAt   time.Time
	hasKey  bool
	idx     uint16
	pending [256]uint16
	mac     hash.Hash
	sum     [sha256.Size]byte
	in      [8]byte // MAC || index: hashed from here so that nothing escapes
}

// Request returns the token for peer (32 octets, appended to dst),
// rotating the key first when it is older than a minute or the index is
// about to wrap; an outstanding token for the same slot is given again.
func (t *Tokens) Request(dst []byte, now time.Time, rng io.Reader, peer MAC) ([]byte, error) {
	if !t.hasKey || now.Sub(t.keyAt) >= tokenKeyLifetime || t.idx == 0xffff {
		if _, err := io.ReadFull(rng, t.key[:]); err != nil {
			return dst, err
		}
		t.mac = hmac.New(sha256.New, t.key[:])
		t.keyAt, t.hasKey, t.idx = now, true, 0
		t.pending = [256]uint16{}
	}
	slot := t.slot(peer)
	if t.pending[slot] == 0 {
		t.idx++
		t.pending[slot] = t.idx
	}
	var ib [2]byte
	binary.BigEndian.PutUint16(ib[:], t.pending[slot])
	sum := t.tag(peer, ib[:])
	dst = append(dst, ib[:]...)
	return append(dst, sum[2:]...), nil
}

// Check reports whether token is a valid, unused token for peer, and uses
// it up.
func (t *Tokens) Check(peer MAC, token []byte) bool {
	if !t.hasKey || len(token) != tokenLen {
		return false
	}
	slot := t.slot(peer)
	idx := t.pending[slot]
	if idx == 0 || idx != binary.BigEndian.Uint16(token) {
		return false
	}
	sum := t.tag(peer, token[:2])
	if subtle.ConstantTimeCompare(token[2:], sum[2:]) != 1 {
		return false
	}
	t.pending[slot] = 0
	return true
}

func (t *Tokens) slot(peer MAC) byte {
	copy(t.in[:], peer[:])
	t.mac.Reset()
	t.mac.Write(t.in[:6])
	return t.mac.Sum(t.sum[:0])[0]
}

func (t *Tokens) tag(peer MAC, idx []byte) []byte {
	copy(t.in[:], peer[:])
	copy(t.in[6:], idx)
	t.mac.Reset()
	t.mac.Write(t.in[:8])
	return t.mac.Sum(t.sum[:0])
}
