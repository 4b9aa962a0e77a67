package ieee80211

import "encoding/binary"

// AppendBeaconFixed appends the fixed fields of a Beacon or Probe Response.
// The timestamp is usually patched just before sending; see TimestampOffset.
func AppendBeaconFixed(dst []byte, tsf uint64, interval, capability uint16) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, tsf)
	dst = appendLE16(dst, interval)
	return appendLE16(dst, capability)
}

// TimestampOffset is where a Beacon's timestamp sits in the frame (after the
// 24-byte header), for patching a prebuilt template.
const TimestampOffset = MgmtHeaderLen

// SetTimestamp patches the timestamp of a Beacon or Probe Response body.
func (b Beacon) SetTimestamp(tsf uint64) { binary.LittleEndian.PutUint64(b, tsf) }

// AppendProbeReq appends a whole Probe Request (header and body) from a
// station: wildcard BSSID, the SSID (empty = wildcard) and its rates.
func AppendProbeReq(dst []byte, sta MAC, ssid string, rates []byte, seq uint16) []byte {
	dst = AppendMgmtHeader(dst, SubtypeProbeReq, Broadcast, sta, Broadcast, seq)
	dst = AppendSSID(dst, ssid)
	return AppendRates(dst, rates)
}

// AppendAuth appends an Authentication body.
func AppendAuth(dst []byte, algorithm, transaction, status uint16) []byte {
	dst = appendLE16(dst, algorithm)
	dst = appendLE16(dst, transaction)
	return appendLE16(dst, status)
}

// AppendAssocReq appends the fixed fields of an Association Request.
func AppendAssocReq(dst []byte, capability, listenInterval uint16) []byte {
	dst = appendLE16(dst, capability)
	return appendLE16(dst, listenInterval)
}

// AppendReassocReq appends the fixed fields of a Reassociation Request.
func AppendReassocReq(dst []byte, capability, listenInterval uint16, currentAP MAC) []byte {
	dst = AppendAssocReq(dst, capability, listenInterval)
	return append(dst, currentAP[:]...)
}

// AppendAssocResp appends the fixed fields of an (Re)Association Response.
// The AID is sent with its two high bits set, as stations expect.
func AppendAssocResp(dst []byte, capability, status, aid uint16) []byte {
	dst = appendLE16(dst, capability)
	dst = appendLE16(dst, status)
	if status != StatusSuccess {
		return appendLE16(dst, 0)
	}
	return appendLE16(dst, aid&AIDMask|0xc000)
}

// AppendDeauth appends a Deauthentication or Disassociation body.
func AppendDeauth(dst []byte, reason uint16) []byte { return appendLE16(dst, reason) }

// AppendAction appends an Action body: category, code, then the rest.
func AppendAction(dst []byte, category, code uint8, body ...byte) []byte {
	dst = append(dst, category, code)
	return append(dst, body...)
}
