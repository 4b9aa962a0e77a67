package ccmp

import (
	"encoding/binary"

	"github.com/airq/airq/internal/ieee80211"
)

// Nonce Flags bits (12.5.3.3.4).
const (
	nonceManagement = 0x10
	fcDataSubtype   = 0x0070 // subtype bits b4 b5 b6 of a data frame
)

// prepare builds the nonce and the AAD of f (whose header is all there)
// into k's scratch and returns the AAD.
func (k *Key) prepare(f ieee80211.Frame, pn uint64) []byte {
	fc := f.FC()
	data := f.Type() == ieee80211.TypeData
	qos := f.IsQoS()
	var prio byte
	if qos {
		prio = f.TID()
	}

	flags := prio
	if !data {
		flags |= nonceManagement
	}
	k.nonce[0] = flags
	copy(k.nonce[1:7], f[10:16])
	for i := 0; i < 6; i++ {
		k.nonce[12-i] = byte(pn >> (8 * i))
	}

	m := fc &^ (ieee80211.FCRetry | ieee80211.FCPwrMgt | ieee80211.FCMoreData)
	m |= ieee80211.FCProtected
	if data {
		m &^= fcDataSubtype
	}
	if qos {
		m &^= ieee80211.FCOrder
	}
	a := k.aad[:]
	binary.LittleEndian.PutUint16(a, m)
	copy(a[2:20], f[4:22])       // A1 A2 A3
	a[20], a[21] = f[22]&0x0f, 0 // SC: fragment number only
	n := 22
	if data && f.ToDS() && f.FromDS() {
		copy(a[22:28], f[24:30])
		n = 28
	}
	if qos {
		a[n], a[n+1] = prio, 0
		n += 2
	}
	return a[:n]
}
