package ccmp

import (
	"errors"

	"github.com/airq/airq/internal/ieee80211"
)

// Errors of the management frame API.
var (
	ErrNotMgmt        = errors.New("ccmp: not a management frame")
	ErrGroupAddressed = errors.New("ccmp: group-addressed management frame: BIP protects it, not CCMP")
	ErrReplay         = errors.New("ccmp: PN not above the last one accepted (replay)")
)

// SealMgmt protects a unicast robust management frame (Deauthentication,
// Disassociation, a robust Action frame such as SA Query) under the
// pairwise key, 802.11-2020 12.5.3 with the Management flag in the nonce,
// priority 0, and Frame Control's subtype bits kept in the AAD. frame is
// laid out as for Seal: MAC header, HeaderLen reserved bytes, the body,
// MICLen bytes of spare capacity. The PN comes from the key's one
// sequence, which data and management frames share, as mac80211 keeps
// one transmit PN per key.
//
// A group-addressed frame is refused (ErrGroupAddressed): those carry an
// MME under the IGTK instead (package bip).
func (k *Key) SealMgmt(frame []byte) (pn uint64, out []byte, err error) {
	if err := unicastMgmt(frame); err != nil {
		return 0, nil, err
	}
	return k.Seal(frame)
}

// SealMgmtInHeadroom is SealMgmt for a frame built without the CCMP gap,
// laid out as for SealInHeadroom: buf[off:] holds the MAC header and the
// body, with HeaderLen bytes of headroom before off.
func (k *Key) SealMgmtInHeadroom(buf []byte, off int) (pn uint64, out []byte, err error) {
	if off < 0 || off > len(buf) {
		return 0, nil, ErrRoom
	}
	if err := unicastMgmt(buf[off:]); err != nil {
		return 0, nil, err
	}
	return k.SealInHeadroom(buf, off)
}

// OpenMgmt checks and decrypts a protected unicast management frame in
// place: the PN against r's management counter before any work, the MIC,
// then it records the PN. It returns the plaintext body, a slice of
// frame. On any error frame is left as it came and r is unchanged, so a
// forged or replayed frame changes nothing.
func (k *Key) OpenMgmt(frame []byte, r *Replay) ([]byte, error) {
	if err := unicastMgmt(frame); err != nil {
		return nil, err
	}
	return k.Open(frame, r)
}

// Open is OpenMgmt for any protected MPDU: the PN is checked against the
// counter CounterIndex picks (the TID, or management), the frame
// decrypted, and the PN accepted only then.
func (k *Key) Open(frame []byte, r *Replay) ([]byte, error) {
	pn, id, err := ParseHeader(frame)
	if err != nil {
		return nil, err
	}
	if id != k.id {
		return nil, ErrKeyID
	}
	i := CounterIndex(ieee80211.Frame(frame))
	if !r.Fresh(i, pn) {
		return nil, ErrReplay
	}
	body, err := k.Decrypt(frame)
	if err != nil {
		return nil, err
	}
	r.Accept(i, pn)
	return body, nil
}

func unicastMgmt(frame []byte) error {
	if len(frame) < ieee80211.MgmtHeaderLen {
		return ErrShort
	}
	f := ieee80211.Frame(frame)
	if f.Type() != ieee80211.TypeMgmt {
		return ErrNotMgmt
	}
	if f.Addr1().IsMulticast() {
		return ErrGroupAddressed
	}
	return nil
}
