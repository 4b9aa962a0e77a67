package ap

import "encoding/binary"

// flowHash hashes an MSDU's flow (IP addresses, protocol and ports, or the
// EtherType for non-IP) for the FQ-CoDel flow table, as the kernel's
// skb_get_hash would; the same flow always lands in the same queue flow.
func flowHash(etherType uint16, payload []byte) uint32 {
	h := uint32(2166136261)
	mix := func(b []byte) {
		for _, c := range b {
			h = (h ^ uint32(c)) * 16777619
		}
	}
	mix([]byte{byte(etherType >> 8), byte(etherType)})
	switch {
	case etherType == 0x0800 && len(payload) >= 20:
		ihl := int(payload[0]&0x0f) * 4
		mix(payload[9:10])  // protocol
		mix(payload[12:20]) // addresses
		if ihl >= 20 && len(payload) >= ihl+4 && binary.BigEndian.Uint16(payload[6:8])&0x1fff == 0 {
			mix(payload[ihl : ihl+4]) // ports of the first fragment
		}
	case etherType == 0x86dd && len(payload) >= 40:
		mix(payload[6:7])  // next header
		mix(payload[8:40]) // addresses
		if len(payload) >= 44 {
			mix(payload[40:44])
		}
	}
	return h
}

// markCE sets ECN Congestion Experienced on an IP packet that is ECN
// capable, fixing the IPv4 header checksum; it reports false otherwise.
func markCE(etherType uint16, payload []byte) bool {
	switch {
	case etherType == 0x0800 && len(payload) >= 20:
		tos := payload[1]
		if tos&3 == 0 {
			return false
		}
		if tos&3 == 3 {
			return true
		}
		old := binary.BigEndian.Uint16(payload[0:2])
		payload[1] |= 3
		// RFC 1624 incremental update: HC' = ~(~HC + ~m + m').
		sum := uint32(^binary.BigEndian.Uint16(payload[10:12])) + uint32(^old) + uint32(binary.BigEndian.Uint16(payload[0:2]))
		sum = (sum & 0xffff) + sum>>16
		sum = (sum & 0xffff) + sum>>16
		binary.BigEndian.PutUint16(payload[10:12], ^uint16(sum))
		return true
	case etherType == 0x86dd && len(payload) >= 40:
		ecn := (payload[1] >> 4) & 3
		if ecn == 0 {
			return false
		}
		payload[1] |= 3 << 4
		return true
	}
	return false
}
