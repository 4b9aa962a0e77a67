package bip

import (
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"strconv"

	"github.com/airq/airq/internal/cmac"
	"github.com/airq/airq/internal/ieee80211"
)

const (
	// KeyLen is the length of an IGTK for BIP-CMAC-128.
	KeyLen = 16
	// MaxIPN is the largest IPN; a key whose IPN reaches it is spent.
	MaxIPN = 1<<48 - 1
	// FirstKeyID and LastKeyID bound the IGTK key IDs (BIGTKs, 6 and 7,
	// are not supported: beacons go unprotected).
	FirstKeyID = 4
	LastKeyID  = 5

	hdrLen = ieee80211.MgmtHeaderLen
	aadLen = 20 // FC A1 A2 A3
)

// Errors are fixed values so a dropped frame costs no allocation.
var (
	ErrKey       = errors.New("bip: IGTK must be 16 bytes and key ID 4 or 5")
	ErrShort     = errors.New("bip: frame too short")
	ErrNotMgmt   = errors.New("bip: not a management frame")
	ErrUnicast   = errors.New("bip: individually addressed frame: CCMP protects it, not BIP")
	ErrProtected = errors.New("bip: Protected Frame bit set")
	ErrRoom      = errors.New("bip: no room for the MME after the body")
	ErrIPN       = errors.New("bip: IPN outside 1..2^48-1")
	ErrIPNSpent  = errors.New("bip: every IPN of the key is used: replace the key")
	ErrMME       = errors.New("bip: no Management MIC element of BIP-CMAC-128 at the end of the frame")
	ErrKeyID     = errors.New("bip: frame uses another key ID")
	ErrNoKey     = errors.New("bip: no IGTK installed under the frame's key ID")
	ErrReplay    = errors.New("bip: IPN not above the last one accepted (replay)")
	ErrMIC       = errors.New("bip: MIC mismatch")
)

// Key is one IGTK with its key ID. It owns its transmit IPN, as ccmp.Key
// owns its PN: Sign takes the next one.
type Key struct {
	m    *cmac.MAC
	id   uint16
	last uint64
	aad  [aadLen]byte
	tag  [cmac.Size]byte
}

var zeroMIC [MICLen]byte

// New returns a Key for the 16-byte IGTK under key ID id (4 or 5).
func New(igtk []byte, id uint16) (*Key, error) {
	if len(igtk) != KeyLen || id < FirstKeyID || id > LastKeyID {
		return nil, ErrKey
	}
	m, err := cmac.New(igtk)
	if err != nil {
		return nil, err
	}
	return &Key{m: m, id: id}, nil
}

// ID returns the key ID the Key writes and accepts.
func (k *Key) ID() uint16 { return k.id }

// LastIPN returns the highest IPN the key has used (0 before the first
// frame): the IPN of the IGTK KDE in message 3 and group message 1.
func (k *Key) LastIPN() uint64 { return k.last }

// String names the key without its bytes.
func (k *Key) String() string { return "bip key " + strconv.Itoa(int(k.id)) }

// Sign protects the group-addressed management frame in frame (MAC header
// and body; its capacity must hold MMELen more bytes) with the next IPN of
// the key and returns that IPN and the frame grown by the MME. Once MaxIPN
// is used Sign returns ErrIPNSpent; a Sign that fails uses no IPN.
func (k *Key) Sign(frame []byte) (ipn uint64, out []byte, err error) {
	if k.last >= MaxIPN {
		return 0, nil, ErrIPNSpent
	}
	out, err = k.SignIPN(frame, k.last+1)
	if err != nil {
		return 0, nil, err
	}
	return k.last, out, nil
}

// SignIPN is Sign with the IPN given, for callers that keep their own
// sequence and for the test vectors; an ipn above LastIPN moves it up.
// Frame Control's Protected bit stays clear: a BIP frame is not encrypted.
func (k *Key) SignIPN(frame []byte, ipn uint64) ([]byte, error) {
	if err := groupMgmt(frame); err != nil {
		return nil, err
	}
	if ipn == 0 || ipn > MaxIPN {
		return nil, ErrIPN
	}
	if cap(frame)-len(frame) < MMELen {
		return nil, ErrRoom
	}
	out := MME{KeyID: k.id, IPN: ipn}.Append(frame)
	copy(out[len(out)-MICLen:], k.mic(out))
	k.last = max(k.last, ipn)
	return out, nil
}

// Verify checks the MME and MIC of a BIP-protected frame under k and
// returns its IPN and body without the MME, a slice of frame. It checks no
// replay counter (Receiver.Open does).
func (k *Key) Verify(frame []byte) (ipn uint64, body []byte, err error) {
	m, err := parse(frame)
	if err != nil {
		return 0, nil, err
	}
	if m.KeyID != k.id {
		return 0, nil, ErrKeyID
	}
	if subtle.ConstantTimeCompare(k.mic(frame), m.MIC[:]) != 1 {
		return 0, nil, ErrMIC
	}
	return m.IPN, frame[hdrLen : len(frame)-MMELen], nil
}

// mic computes the MIC of frame, which ends with its MME (802.11-2020
// 12.5.4.5): AES-128-CMAC over the AAD (Frame Control with Retry, Power
// Management and More Data masked, A1, A2, A3) and everything after the
// 24-octet header with the MME's MIC field taken as zero. Like mac80211
// and hostapd, the body starts at octet 24, so an HT Control field is
// covered as body. The result lives in k's scratch.
func (k *Key) mic(frame []byte) []byte {
	fc := binary.LittleEndian.Uint16(frame) &^ (ieee80211.FCRetry | ieee80211.FCPwrMgt | ieee80211.FCMoreData)
	binary.LittleEndian.PutUint16(k.aad[:], fc)
	copy(k.aad[2:], frame[4:22])
	k.m.Reset()
	k.m.Write(k.aad[:])
	k.m.Write(frame[hdrLen : len(frame)-MICLen])
	k.m.Write(zeroMIC[:])
	return k.m.Sum(k.tag[:0])[:MICLen]
}

// parse checks frame as a BIP-protected group-addressed management frame
// and returns its MME.
func parse(frame []byte) (MME, error) {
	if err := groupMgmt(frame); err != nil {
		return MME{}, err
	}
	return FrameMME(frame)
}

// groupMgmt checks that BIP applies: an unprotected group-addressed
// management frame.
func groupMgmt(frame []byte) error {
	if len(frame) < hdrLen {
		return ErrShort
	}
	f := ieee80211.Frame(frame)
	switch {
	case f.Type() != ieee80211.TypeMgmt:
		return ErrNotMgmt
	case !f.Addr1().IsMulticast():
		return ErrUnicast
	case f.Protected():
		return ErrProtected
	}
	return nil
}
