package rsn

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/airq/airq/internal/ieee80211"
)

// KDE data types under OUI 00-0F-AC (802.11-2020 Table 12-9).
const (
	KDEGTK   = 1
	KDEMAC   = 3
	KDEPMKID = 4
	KDEIGTK  = 9
	KDEKeyID = 10
)

// ElemRSNX is the RSN Extension element, which travels with the RSNE.
const ElemRSNX = 244

var ouiIEEE = [3]byte{0x00, 0x0f, 0xac}

// The Wi-Fi Alliance's Transition Disable KDE (WPA3 specification 13.5):
// OUI 50-6F-9A, type 0x20, one octet of bits.
var ouiWFA = [3]byte{0x50, 0x6f, 0x9a}

const kdeWFATransitionDisable = 0x20

// Transition Disable bits (hostapd's transition_disable).
const (
	TransitionDisableWPA3Personal   = 1 << 0
	TransitionDisableSAEPK          = 1 << 1
	TransitionDisableWPA3Enterprise = 1 << 2
	TransitionDisableEnhancedOpen   = 1 << 3
)

// ErrKeyData is returned for a Key Data field whose elements overrun it.
var ErrKeyData = errors.New("rsn: Key Data element overruns the field")

// KeyData is a decoded Key Data field. Slices alias the decoded bytes; a
// KDE that appears twice keeps the last one, as hostapd's
// wpa_parse_kde_ies does.
type KeyData struct {
	RSNE  []byte // the RSN element, ID and length included
	RSNXE []byte // the RSN Extension element, ID and length included

	HasGTK   bool
	GTKKeyID uint8    // bits 0-1 of the GTK KDE
	GTKTx    bool     // bit 2
	GTK      KeyBytes // the key, its length as sent

	HasIGTK   bool
	IGTKKeyID uint16 // 4 or 5
	IPN       uint64 // the IGTK's packet number (6 octets)
	IGTK      KeyBytes

	HasMAC bool
	MAC    ieee80211.MAC

	HasPMKID bool
	PMKID    PMKID

	HasKeyID bool
	KeyID    uint8 // Extended Key ID: 0 or 1 in bits 0-1

	HasTransitionDisable bool
	TransitionDisable    uint8 // the Transition Disable bits
}

// ParseKeyData decodes a (decrypted) Key Data field with the rules of
// hostapd's wpa_parse_kde_ies: it stops at the 0xdd padding octet, an
// element that overruns the field is an error, unknown elements and KDEs
// are skipped, and a KDE too short for its type is ignored.
func ParseKeyData(b []byte) (KeyData, error) {
	var d KeyData
	for p := b; len(p) > 1; {
		if p[0] == ieee80211.ElemVendor && p[1] == 0 {
			break // padding: 0xdd then zeros
		}
		n := 2 + int(p[1])
		if n > len(p) {
			return d, ErrKeyData
		}
		switch p[0] {
		case ieee80211.ElemRSN:
			d.RSNE = p[:n]
		case ElemRSNX:
			d.RSNXE = p[:n]
		case ieee80211.ElemVendor:
			d.kde(p[2:n])
		}
		p = p[n:]
	}
	return d, nil
}

// kde takes in a vendor element body if it is a KDE this package knows.
func (d *KeyData) kde(b []byte) {
	if len(b) >= 5 && [3]byte(b[:3]) == ouiWFA && b[3] == kdeWFATransitionDisable {
		d.HasTransitionDisable, d.TransitionDisable = true, b[4]
		return
	}
	if len(b) < 4 || [3]byte(b[:3]) != ouiIEEE {
		return
	}
	v := b[4:]
	switch b[3] {
	case KDEGTK:
		if len(v) > 2 {
			d.HasGTK, d.GTKKeyID, d.GTKTx, d.GTK = true, v[0]&3, v[0]&4 != 0, v[2:]
		}
	case KDEIGTK:
		// hostapd takes any IGTK KDE with data and checks its length where
		// it is used: a short one leaves IGTK empty.
		if len(v) > 2 {
			d.HasIGTK, d.IGTK = true, nil
			if len(v) >= 8 {
				d.IGTKKeyID, d.IGTK = binary.LittleEndian.Uint16(v), v[8:]
				d.IPN = uint64(binary.LittleEndian.Uint32(v[2:])) | uint64(binary.LittleEndian.Uint16(v[6:]))<<32
			}
		}
	case KDEMAC:
		if len(v) >= 6 {
			d.HasMAC, d.MAC = true, ieee80211.MAC(v[:6])
		}
	case KDEPMKID:
		if len(v) >= 16 {
			d.HasPMKID, d.PMKID = true, PMKID(v[:16])
		}
	case KDEKeyID:
		if len(v) >= 2 {
			d.HasKeyID, d.KeyID = true, v[0]&3
		}
	}
}

// appendKDE appends a KDE header for data of n octets.
func appendKDE(dst []byte, typ byte, n int) []byte {
	return append(dst, ieee80211.ElemVendor, byte(4+n), ouiIEEE[0], ouiIEEE[1], ouiIEEE[2], typ)
}

// AppendGTKKDE appends a GTK KDE: key ID, Tx (hostapd leaves it clear with
// pairwise keys), a reserved octet, the GTK.
func AppendGTKKDE(dst []byte, keyID uint8, tx bool, gtk *Key) []byte {
	dst = appendKDE(dst, KDEGTK, 2+len(gtk))
	b := keyID & 3
	if tx {
		b |= 4
	}
	dst = append(dst, b, 0)
	return append(dst, gtk[:]...)
}

// AppendIGTKKDE appends an IGTK KDE: key ID (2 octets), IPN (6), IGTK.
func AppendIGTKKDE(dst []byte, keyID uint16, ipn uint64, igtk *Key) []byte {
	dst = appendKDE(dst, KDEIGTK, 8+len(igtk))
	dst = binary.LittleEndian.AppendUint16(dst, keyID)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(ipn))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(ipn>>32))
	return append(dst, igtk[:]...)
}

// AppendMACKDE appends a MAC address KDE.
func AppendMACKDE(dst []byte, m ieee80211.MAC) []byte {
	return append(appendKDE(dst, KDEMAC, 6), m[:]...)
}

// AppendPMKIDKDE appends a PMKID KDE.
func AppendPMKIDKDE(dst []byte, id PMKID) []byte {
	return append(appendKDE(dst, KDEPMKID, 16), id[:]...)
}

// AppendTransitionDisableKDE appends the Wi-Fi Alliance's Transition
// Disable KDE with bits, for message 3 (hostapd's transition_disable).
func AppendTransitionDisableKDE(dst []byte, bits uint8) []byte {
	return append(dst, ieee80211.ElemVendor, 5, ouiWFA[0], ouiWFA[1], ouiWFA[2], kdeWFATransitionDisable, bits)
}

// AppendKeyIDKDE appends a Key ID KDE (Extended Key ID): the key ID and a
// reserved octet.
func AppendKeyIDKDE(dst []byte, keyID uint8) []byte {
	return append(appendKDE(dst, KDEKeyID, 2), keyID&3, 0)
}

// Format prints the KDEs present, never the key bytes they carry, for
// every verb; the key fields print and marshal (JSON, text, slog) as
// "[redacted]" on their own too.
func (d KeyData) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "{RSNE:%d RSNXE:%d", len(d.RSNE), len(d.RSNXE))
	if d.HasGTK {
		fmt.Fprintf(f, " GTK:%d(tx %v)", d.GTKKeyID, d.GTKTx)
	}
	if d.HasIGTK {
		fmt.Fprintf(f, " IGTK:%d IPN:%d", d.IGTKKeyID, d.IPN)
	}
	if d.HasMAC {
		fmt.Fprintf(f, " MAC:%v", d.MAC)
	}
	if d.HasPMKID {
		fmt.Fprintf(f, " PMKID:%x", d.PMKID[:])
	}
	if d.HasKeyID {
		fmt.Fprintf(f, " KeyID:%d", d.KeyID)
	}
	io.WriteString(f, "}")
}
