package radiotap

import "encoding/binary"

// The presence words of mac80211's TX-status echo (status.c,
// ieee80211_add_tx_radiotap_header; AppendEcho writes the same): TX_FLAGS
// and DATA_RETRIES, with RATE for a legacy rate, or MCS or VHT after them.
const (
	echoBare   = 1<<TxFlags | 1<<DataRetries
	echoLegacy = echoBare | 1<<Rate
	echoMCS    = echoBare | 1<<MCS
	echoVHT    = echoBare | 1<<VHT
)

// echoLayout reads a header laid out exactly as mac80211's echo, at the
// fixed offsets that layout gives its fields, and reports whether it was
// one. Any other header (more fields, another length, more presence words)
// is left to walk; both read the same fields into s.
func (s *state) echoLayout(h []byte) bool {
	switch binary.LittleEndian.Uint32(h[4:]) {
	case echoBare:
		if len(h) != 11 {
			return false
		}
		s.echoFlags(h[8:10], h[10])
	case echoLegacy:
		if len(h) != 13 {
			return false
		}
		s.field(Rate, h[8:9])
		s.echoFlags(h[10:12], h[12])
	case echoMCS:
		if len(h) != 14 {
			return false
		}
		s.echoFlags(h[8:10], h[10])
		s.mcs(h[11:14])
	case echoVHT:
		if len(h) != 24 {
			return false
		}
		s.echoFlags(h[8:10], h[10])
		s.vht(h[12:24])
	default:
		return false
	}
	return true
}

// echoFlags records TX_FLAGS and DATA_RETRIES.
func (s *state) echoFlags(txFlags []byte, retries uint8) {
	s.echo, s.txFlags = true, binary.LittleEndian.Uint16(txFlags)
	s.retries = retries
}
