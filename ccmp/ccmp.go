package ccmp

import (
	"encoding/binary"
	"errors"
	"strconv"

	"github.com/airq/airq/internal/ccm"
	"github.com/airq/airq/internal/ieee80211"
)

const (
	// HeaderLen is the CCMP header between the MAC header and the body.
	HeaderLen = 8
	// MICLen is the MIC appended to the body.
	MICLen = 8
	// Overhead is what CCMP adds to an MPDU.
	Overhead = HeaderLen + MICLen
	// TKLen is the length of a CCMP-128 temporal key.
	TKLen = 16
	// MaxPN is the largest packet number; a key whose PN reaches it is spent.
	MaxPN = 1<<48 - 1
	// MaxBody is the longest body CCM's 2-octet length field (a 13-octet
	// nonce) can count; 802.11 MPDUs stay far below it.
	MaxBody = 1<<16 - 1

	extIV     = 0x20
	nonceLen  = 13
	maxAADLen = 30 // FC A1 A2 A3 SC A4 QC
)

// Errors are fixed values so a dropped frame costs no allocation.
var (
	ErrFrameType    = errors.New("ccmp: not a data or management frame")
	ErrShort        = errors.New("ccmp: frame too short")
	ErrNotProtected = errors.New("ccmp: Protected Frame bit clear")
	ErrExtIV        = errors.New("ccmp: Extended IV bit clear")
	ErrKeyID        = errors.New("ccmp: frame uses another key ID")
	ErrMIC          = errors.New("ccmp: MIC mismatch")
	ErrPN           = errors.New("ccmp: PN outside 1..2^48-1")
	ErrPNSpent      = errors.New("ccmp: every PN of the key is used: replace the key")
	ErrRoom         = errors.New("ccmp: no room for the MIC after the body")
	ErrProtected    = errors.New("ccmp: Protected Frame bit already set: frame encrypted once")
	ErrTooLong      = errors.New("ccmp: body longer than CCM can count (65535 octets)")
	ErrKey          = errors.New("ccmp: temporal key must be 16 bytes and key ID 0..3")
)

// Key is one CCMP-128 temporal key (a PTK's TK or a GTK) with its key ID.
type Key struct {
	c     *ccm.CCM
	id    uint8
	last  uint64 // the highest PN sent under the key: Seal's sequence
	nonce [nonceLen]byte
	aad   [maxAADLen]byte
}

// New returns a Key for the 16-byte temporal key tk under key ID id.
func New(tk []byte, id uint8) (*Key, error) {
	if len(tk) != TKLen || id > 3 {
		return nil, ErrKey
	}
	c, err := ccm.NewAES(tk, nonceLen, MICLen)
	if err != nil {
		return nil, err
	}
	return &Key{c: c, id: id}, nil
}

// ID returns the key ID the Key writes and accepts.
func (k *Key) ID() uint8 { return k.id }

// LastPN returns the highest PN the key has sent (0 before the first
// frame): the Key RSC or IPN of a group key handed to a station in
// message 3 or group message 1.
func (k *Key) LastPN() uint64 { return k.last }

// Seal protects the MPDU in frame, laid out as for Encrypt, with the next
// PN of the key's own sequence (one more than LastPN) and returns that PN
// and the protected frame. The datapath sends with Seal, at the last
// moment before injection: a frame re-buffered or rebuilt for a retry is
// sealed again from its plaintext and gets a new PN, so no (key, PN) pair
// is ever used twice. Once MaxPN is used, Seal returns ErrPNSpent and the
// key must be replaced (a rekey). A Seal that fails uses no PN.
func (k *Key) Seal(frame []byte) (pn uint64, out []byte, err error) {
	if k.last >= MaxPN {
		return 0, nil, ErrPNSpent
	}
	out, err = k.Encrypt(frame, k.last+1)
	if err != nil {
		return 0, nil, err
	}
	return k.last, out, nil
}

// SealInHeadroom is Seal for a frame built without the CCMP gap, laid out
// as for EncryptInHeadroom.
func (k *Key) SealInHeadroom(buf []byte, off int) (pn uint64, out []byte, err error) {
	if k.last >= MaxPN {
		return 0, nil, ErrPNSpent
	}
	out, err = k.EncryptInHeadroom(buf, off, k.last+1)
	if err != nil {
		return 0, nil, err
	}
	return k.last, out, nil
}

// String names the key without its bytes.
func (k *Key) String() string { return "ccmp key " + strconv.Itoa(int(k.id)) }

// Encrypt protects the MPDU in frame in place. frame holds the MAC header,
// HeaderLen reserved bytes and the plaintext body; its capacity must hold
// MICLen more bytes. Encrypt sets the Protected Frame bit, writes the CCMP
// header with pn and the key ID, encrypts the body and appends the MIC. It
// returns frame grown by MICLen. A frame whose Protected Frame bit is
// already set is refused (ErrProtected): encrypting a protected frame
// again, under its own PN, would put the plaintext on the air.
//
// The caller owns pn: it must never repeat under the same key. Encrypt is
// for callers that keep their own PN sequence, and for the test vectors;
// the datapath sends with Seal, which takes the PN from the Key. A pn
// above LastPN moves it up, so a Seal after Encrypt never reuses one.
func (k *Key) Encrypt(frame []byte, pn uint64) ([]byte, error) {
	h, err := headerLen(frame)
	if err != nil {
		return nil, err
	}
	if len(frame) < h+HeaderLen {
		return nil, ErrShort
	}
	if ieee80211.Frame(frame).Protected() {
		return nil, ErrProtected
	}
	if len(frame)-h-HeaderLen > MaxBody {
		return nil, ErrTooLong
	}
	if pn == 0 || pn > MaxPN {
		return nil, ErrPN
	}
	if cap(frame)-len(frame) < MICLen {
		return nil, ErrRoom
	}
	frame[1] |= ieee80211.FCProtected >> 8
	putHeader(frame[h:h+HeaderLen], pn, k.id)
	aad := k.prepare(ieee80211.Frame(frame), pn)
	body := frame[h+HeaderLen:]
	k.c.Seal(body[:0], k.nonce[:], body, aad)
	k.last = max(k.last, pn)
	return frame[:len(frame)+MICLen], nil
}

// EncryptInHeadroom is Encrypt for a frame built without the CCMP gap:
// buf[off:] holds the MAC header and the plaintext body, and at least
// HeaderLen bytes of headroom lie before off. It moves the MAC header
// HeaderLen bytes back into the headroom (a copy of at most 36 bytes, not
// of the body) and returns the protected frame, buf[off-HeaderLen:] grown
// by MICLen. As with Encrypt the caller owns pn; the datapath uses
// SealInHeadroom.
func (k *Key) EncryptInHeadroom(buf []byte, off int, pn uint64) ([]byte, error) {
	if off < HeaderLen || off > len(buf) {
		return nil, ErrRoom
	}
	h, err := headerLen(buf[off:])
	if err != nil {
		return nil, err
	}
	if len(buf)-off < h {
		return nil, ErrShort
	}
	if ieee80211.Frame(buf[off:]).Protected() {
		return nil, ErrProtected // before the move: a refused frame stays as it was
	}
	copy(buf[off-HeaderLen:], buf[off:off+h])
	return k.Encrypt(buf[off-HeaderLen:], pn)
}

// Decrypt verifies and decrypts the protected MPDU in frame in place and
// returns the plaintext body, a slice of frame. It checks neither the PN
// against a replay counter (do that first with ParseHeader, and Accept the
// PN only after Decrypt succeeds) nor the addresses. On a MIC mismatch
// ErrMIC is returned and frame is left as it came, ciphertext and all, so
// the caller may try another key with the same key ID (the old and the
// new TK of a PTK rekey without Extended Key ID) and no plaintext remains.
func (k *Key) Decrypt(frame []byte) ([]byte, error) {
	pn, id, err := ParseHeader(frame)
	if err != nil {
		return nil, err
	}
	if id != k.id {
		return nil, ErrKeyID
	}
	h, _ := headerLen(frame)
	aad := k.prepare(ieee80211.Frame(frame), pn)
	body := frame[h+HeaderLen:]
	plain, err := k.c.Open(body[:0], k.nonce[:], body, aad)
	if err != nil {
		return nil, ErrMIC
	}
	return plain, nil
}

// Plain turns frame, decrypted in place by Decrypt, Open or OpenMgmt into
// body (the plaintext they returned), into the unprotected frame: the MAC
// header moves up over the CCMP header and the Protected Frame bit is
// cleared. Only the header is copied; the result is a slice of frame.
func Plain(frame, body []byte) ieee80211.Frame {
	hl := ieee80211.Frame(frame).HeaderLen()
	copy(frame[HeaderLen:], frame[:hl])
	out := ieee80211.Frame(frame[HeaderLen : HeaderLen+hl+len(body)])
	out.SetProtected(false)
	return out
}

// ParseHeader returns the PN and key ID of a protected MPDU, for the replay
// check that comes before decryption.
func ParseHeader(frame []byte) (pn uint64, keyID uint8, err error) {
	h, err := headerLen(frame)
	if err != nil {
		return 0, 0, err
	}
	if len(frame) < h+Overhead {
		return 0, 0, ErrShort
	}
	if !ieee80211.Frame(frame).Protected() {
		return 0, 0, ErrNotProtected
	}
	c := frame[h : h+HeaderLen]
	if c[3]&extIV == 0 {
		return 0, 0, ErrExtIV
	}
	pn = uint64(c[0]) | uint64(c[1])<<8 | uint64(binary.LittleEndian.Uint32(c[4:]))<<16
	return pn, c[3] >> 6, nil
}

// headerLen returns the MAC header length of a data or management frame.
func headerLen(frame []byte) (int, error) {
	if len(frame) < ieee80211.MgmtHeaderLen {
		return 0, ErrShort
	}
	f := ieee80211.Frame(frame)
	if t := f.Type(); t != ieee80211.TypeData && t != ieee80211.TypeMgmt {
		return 0, ErrFrameType
	}
	return f.HeaderLen(), nil
}

// putHeader writes the CCMP header (12.5.3.2): PN0 PN1, a reserved octet,
// Key ID and Extended IV, PN2..PN5.
func putHeader(c []byte, pn uint64, id uint8) {
	c[0], c[1], c[2], c[3] = byte(pn), byte(pn>>8), 0, id<<6|extIV
	binary.LittleEndian.PutUint32(c[4:], uint32(pn>>16))
}
