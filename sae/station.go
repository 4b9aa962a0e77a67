package sae

import (
	"encoding/binary"
	"fmt"
	"io"
)

// Station is the station's side of one SAE exchange, as wpa_supplicant
// runs it against an AP: Commit, the AP's Commit (or a token request),
// Confirm, the AP's Confirm. The simulator's stations and the tests use
// it against an Authenticator.
type Station struct {
	g            *Group
	own, ap      MAC
	password, id []byte
	h2e          bool
	pt           *PT
	x            *exchange
	token        []byte
	sendConfirm  uint16
	rejected     []uint16
}

// SetRejectedGroups sets the Rejected Groups list the station's H2E
// Commit carries (groups the AP refused earlier) and binds into its
// keyseed.
func (s *Station) SetRejectedGroups(groups []uint16) { s.rejected = groups }

// NewStation prepares a station's exchange in group g; with h2e it
// derives the PT (as wpa_supplicant does when it connects).
func NewStation(g *Group, own, ap MAC, ssid, password, id []byte, h2e bool) (*Station, error) {
	s := &Station{g: g, own: own, ap: ap, password: password, id: id, h2e: h2e}
	if h2e {
		pt, err := g.DerivePT(ssid, password, id)
		if err != nil {
			return nil, err
		}
		s.pt = pt
	}
	return s, nil
}

// Commit returns the station's Commit (the same commit again, with the
// token, after a token request).
func (s *Station) Commit(rng io.Reader) (Frame, error) {
	if s.x == nil {
		var pwe point
		var err error
		if s.pt != nil {
			pwe, err = s.pt.pwe(s.own, s.ap)
		} else {
			pwe, err = s.g.pweHuntAndPeck(s.own, s.ap, s.password, rng, nil, nil)
		}
		if err != nil {
			return Frame{}, err
		}
		if s.x, err = s.g.newCommit(pwe, rng); err != nil {
			return Frame{}, err
		}
		s.x.h2e = s.h2e
		s.x.ownHigher = string(s.own[:]) > string(s.ap[:])
		if s.h2e && s.rejected != nil {
			s.x.ownRejected = AppendRejectedGroups(nil, s.rejected)[3:]
		}
	}
	status := StatusSuccess
	if s.h2e {
		status = StatusSAEHashToElement
	}
	body := AppendCommit(nil, s.g.ID, s.token, s.x.scalar, s.x.element, s.id, len(s.id) > 0, s.h2e, s.rejected)
	return Frame{Transaction: 1, Status: status, Body: body}, nil
}

// StatusError is a status code the AP answered with.
type StatusError struct{ Transaction, Status uint16 }

func (e *StatusError) Error() string {
	return fmt.Sprintf("sae: AP answered transaction %d with status %d", e.Transaction, e.Status)
}

// Handle takes a frame from the AP: the reply to send (nil for none), and
// the keys once the AP's Confirm checks out.
func (s *Station) Handle(rng io.Reader, f Frame) (*Frame, *Keys, error) {
	switch {
	case f.Transaction == 1 && f.Status == StatusAntiCloggingToken:
		if len(f.Body) < 2 {
			return nil, nil, errShort
		}
		tok := f.Body[2:]
		if s.h2e {
			var err error
			if tok, _, err = ParseTokenContainer(tok); err != nil {
				return nil, nil, err
			}
		}
		s.token = append([]byte(nil), tok...)
		c, err := s.Commit(rng)
		return &c, nil, err
	case f.Transaction == 1 && (f.Status == StatusSuccess || f.Status == StatusSAEHashToElement):
		c, err := ParseCommit(f.Body, s.g.primeLen, s.h2e)
		if err != nil {
			return nil, nil, err
		}
		ps, err := s.g.peerScalar(c.Scalar)
		if err != nil {
			return nil, nil, err
		}
		pe, err := s.g.pointFromElement(c.Element)
		if err != nil {
			return nil, nil, err
		}
		if err := s.x.process(ps, pe, c.Scalar, c.Element, nil); err != nil {
			return nil, nil, err
		}
		s.sendConfirm++
		r := Frame{Transaction: 2, Body: AppendConfirm(nil, s.sendConfirm, s.x.confirm(s.sendConfirm, true))}
		return &r, nil, nil
	case f.Transaction == 2 && f.Status == StatusSuccess:
		if s.x == nil || s.x.kck == nil {
			return nil, nil, errShort
		}
		c, err := ParseConfirm(f.Body, len(s.x.kck))
		if err != nil {
			return nil, nil, err
		}
		if !s.x.checkConfirm(binary.LittleEndian.Uint16(f.Body), c.Verifier) {
			return nil, nil, &StatusError{2, StatusChallengeFail}
		}
		return nil, &Keys{PMK: s.x.pmk, PMKID: s.x.pmkid, Group: s.g.ID, H2E: s.h2e}, nil
	}
	return nil, nil, &StatusError{f.Transaction, f.Status}
}
