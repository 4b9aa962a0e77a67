package sae

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"testing"
)

// FuzzParseCommit: any body parses or is refused without a panic; a
// parsed Commit's slices lie inside the body, and writing it back and
// parsing again gives the same fields.
func FuzzParseCommit(f *testing.F) {
	local, _ := hex.DecodeString(j10LocalCommit)
	f.Add(local, 32, false)
	sc, el := local[2:34], local[34:98]
	f.Add(AppendCommit(nil, 19, bytes.Repeat([]byte{7}, 32), sc, el, nil, false, false, nil), 32, false)
	f.Add(AppendCommit(nil, 19, bytes.Repeat([]byte{7}, 32), sc, el, []byte("id"), true, true, []uint16{20, 21}), 32, true)
	f.Add([]byte{19, 0, 1}, 32, true)
	f.Fuzz(func(t *testing.T, body []byte, primeLen int, h2e bool) {
		if primeLen < 1 || primeLen > 66 {
			return
		}
		c, err := ParseCommit(body, primeLen, h2e)
		if err != nil {
			return
		}
		if len(c.Scalar) != primeLen || len(c.Element) != 2*primeLen || len(c.RejectedGroups)%2 != 0 {
			t.Fatalf("lengths: %+v", c)
		}
		var rg []uint16
		if c.HasRejected {
			rg = []uint16{}
			for i := 0; i < len(c.RejectedGroups); i += 2 {
				rg = append(rg, uint16(c.RejectedGroups[i])|uint16(c.RejectedGroups[i+1])<<8)
			}
		}
		if !h2e && c.Token != nil && len(c.Token) < tokenLen {
			t.Fatalf("short token %x", c.Token)
		}
		if c.HasPasswordID && len(c.PasswordID) > 254 || len(c.Token) > 254 && h2e {
			return // no element can carry it back
		}
		if !h2e && c.Token != nil && c.HasPasswordID {
			return // hostapd's ambiguity: an H&P token swallows what follows
		}
		out := AppendCommit(nil, c.Group, c.Token, c.Scalar, c.Element, c.PasswordID, c.HasPasswordID, h2e, rg)
		d, err := ParseCommit(out, primeLen, h2e)
		if err != nil {
			t.Fatalf("re-parse of %x: %v", out, err)
		}
		if d.Group != c.Group || !bytes.Equal(d.Token, c.Token) || !bytes.Equal(d.Scalar, c.Scalar) ||
			!bytes.Equal(d.Element, c.Element) || !bytes.Equal(d.PasswordID, c.PasswordID) ||
			d.HasPasswordID != c.HasPasswordID || !bytes.Equal(d.RejectedGroups, c.RejectedGroups) || d.HasRejected != c.HasRejected {
			t.Fatalf("round trip:\n%+v\n%+v", c, d)
		}
	})
}

// FuzzParseConfirm: a Confirm parses exactly when it is long enough, and
// writes back to the same octets.
func FuzzParseConfirm(f *testing.F) {
	f.Add(AppendConfirm(nil, 1, bytes.Repeat([]byte{1}, 32)), 32)
	f.Add([]byte{1}, 48)
	f.Fuzz(func(t *testing.T, body []byte, hashLen int) {
		if hashLen < 0 || hashLen > 64 {
			return
		}
		c, err := ParseConfirm(body, hashLen)
		if (err == nil) != (len(body) >= 2+hashLen) {
			t.Fatalf("len %d hashLen %d: %v", len(body), hashLen, err)
		}
		if err != nil {
			return
		}
		if out := append(AppendConfirm(nil, c.SendConfirm, c.Verifier), c.Rest...); !bytes.Equal(out, body) {
			t.Fatalf("round trip %x -> %x", body, out)
		}
	})
}

// FuzzTokenContainer: a container parses to a token that writes back to
// the same element, and what follows it is left alone.
func FuzzTokenContainer(f *testing.F) {
	f.Add(AppendTokenContainer(nil, bytes.Repeat([]byte{3}, 32)))
	f.Add([]byte{255, 1, 93})
	f.Add([]byte{255, 40, 93, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		tok, rest, err := ParseTokenContainer(b)
		if err != nil {
			return
		}
		if out := append(AppendTokenContainer(nil, tok), rest...); !bytes.Equal(out, b) {
			t.Fatalf("round trip %x -> %x", b, out)
		}
	})
}

// FuzzHandle feeds arbitrary frames to an Authenticator after a real
// Commit: nothing panics, state stays bounded, and a reply is never sent
// for a frame the rules drop.
func FuzzHandle(f *testing.F) {
	local, _ := hex.DecodeString(j10LocalCommit)
	f.Add(uint16(1), uint16(0), local)
	f.Add(uint16(1), uint16(126), local)
	f.Add(uint16(2), uint16(0), AppendConfirm(nil, 1, make([]byte, 32)))
	f.Add(uint16(3), uint16(0), []byte{})
	a := newAP(f, func(c *Config) { c.MaxPeers = 4; c.Groups = []uint16{19} })
	f.Fuzz(func(t *testing.T, trans, status uint16, body []byte) {
		peer := MAC{2, 0, 0, 0, 0, byte(len(body) % 8)}
		r := a.Handle(t0, rand.Reader, peer, Frame{trans, status, body})
		if r.Job != nil {
			r.Job.Run(nil)
			r = a.Finish(t0, r.Job)
		}
		if r.Drop != DropNone && len(r.Replies) != 0 {
			t.Fatalf("drop %d with replies %+v", r.Drop, r.Replies)
		}
		if len(a.peers) > 4 {
			t.Fatalf("%d instances", len(a.peers))
		}
	})
}
