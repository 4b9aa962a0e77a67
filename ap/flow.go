package ap

import "encoding/binary"

// flowHash hashes an MSDU's flow (IP addresses, protocol and ports, or the
// EtherType for non-IP) for the FQ-CoDel flow table, as the kernel's
// skb_get_hash would; the same flow always lands in the same queue flow.
// The hash is FNV-1a over those bytes, taken four at a time from fixed-size
// arrays so that the bytes stay in registers and need no bounds checks:
// every downlink frame is hashed.
func flowHash(etherType uint16, payload []byte) uint32 {
	h := fnv1a(fnvOffset, byte(etherType>>8))
	h = fnv1a(h, byte(etherType))
	switch {
	case etherType == 0x0800 && len(payload) >= 20:
		ihl := int(payload[0]&0x0f) * 4
		h = fnv1a(h, payload[9])                              // protocol
		h = fnv1a4(fnv1a4(h, payload[12:16]), payload[16:20]) // addresses
		if ihl >= 20 && len(payload) >= ihl+4 && binary.BigEndian.Uint16(payload[6:8])&0x1fff == 0 {
			h = fnv1a4(h, payload[ihl:ihl+4]) // ports of the first fragment
		}
	case etherType == 0x86dd && len(payload) >= 40:
		h = fnv1a(h, payload[6]) // next header
		for i := 8; i < 40; i += 4 {
			h = fnv1a4(h, payload[i:i+4]) // addresses
		}
		if len(payload) >= 44 {
			h = fnv1a4(h, payload[40:44])
		}
	}
	return h
}

const fnvOffset, fnvPrime = 2166136261, 16777619

func fnv1a(h uint32, c byte) uint32 { return (h ^ uint32(c)) * fnvPrime }

// fnv1a4 is fnv1a over the four bytes of b.
func fnv1a4(h uint32, b []byte) uint32 {
	q := (*[4]byte)(b)
	h = (h ^ uint32(q[0])) * fnvPrime
	h = (h ^ uint32(q[1])) * fnvPrime
	h = (h ^ uint32(q[2])) * fnvPrime
	return (h ^ uint32(q[3])) * fnvPrime
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
