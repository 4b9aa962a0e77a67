package main

import (
	"encoding/binary"
	"fmt"
)

// Management frames for the 802.11w checks: unprotected deauthentications,
// disassociations and authentications, and association requests, spoofed
// from -ta to -ra within -bssid, as an attacker without the keys sends
// them.

// mgmtSubtypes are the kinds e2einject mgmt builds.
var mgmtSubtypes = map[string]byte{"deauth": 12, "disassoc": 10, "auth": 11, "assoc": 0}

// mgmtForger builds management frames from ta to ra in bssid.
type mgmtForger struct {
	ta, ra, bssid [6]byte
	ssid          string
	akm           byte // the RSNE's AKM suite type for assoc (2 PSK, 6 PSK-SHA256)
	noMFPC        bool // the RSNE of assoc offers no MFP (wpa_supplicant's ieee80211w=0)
	seq           uint16
}

// frame returns frame i of kind: a deauthentication or disassociation
// with reason 7 (class 3 frame from a nonassociated station), an
// authentication (open system, transaction 1 from a station, 2 with
// success from the AP), or an association request offering MFP.
func (f *mgmtForger) frame(kind string, fromAP bool) ([]byte, error) {
	st, ok := mgmtSubtypes[kind]
	if !ok {
		return nil, fmt.Errorf("-kind deauth, disassoc, auth or assoc, not %q", kind)
	}
	b := []byte{st << 4, 0, 0x3a, 0x01} // FC: management, subtype; duration 314 µs
	b = append(b, f.ra[:]...)
	b = append(b, f.ta[:]...)
	b = append(b, f.bssid[:]...)
	f.seq = (f.seq + 1) & 0xfff
	b = binary.LittleEndian.AppendUint16(b, f.seq<<4)
	switch kind {
	case "deauth", "disassoc":
		b = binary.LittleEndian.AppendUint16(b, 7)
	case "auth":
		tr := uint16(1)
		if fromAP {
			tr = 2
		}
		b = binary.LittleEndian.AppendUint16(b, 0) // open system
		b = binary.LittleEndian.AppendUint16(b, tr)
		b = binary.LittleEndian.AppendUint16(b, 0)
	case "assoc":
		b = binary.LittleEndian.AppendUint16(b, 0x0431) // ESS, privacy, short preamble and slot
		b = binary.LittleEndian.AppendUint16(b, 10)
		b = append(b, 0, byte(len(f.ssid)))
		b = append(b, f.ssid...)
		b = append(b, 1, 8, 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24)
		caps := byte(0x80) // RSN capabilities: MFPC
		if f.noMFPC {
			caps = 0
		}
		b = append(b, 48, 20, 1, 0, 0x00, 0x0f, 0xac, 4, 1, 0, 0x00, 0x0f, 0xac, 4, 1, 0, 0x00, 0x0f, 0xac, f.akm, caps, 0)
	}
	return b, nil
}
