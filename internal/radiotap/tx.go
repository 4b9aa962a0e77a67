package radiotap

import (
	"encoding/binary"

	"github.com/airq/airq/radio"
)

// txPresent is the presence word AppendTx writes for p.
func txPresent(p radio.TxParams) uint32 {
	present := uint32(1<<TxFlags) | rateBit(p.Rate)
	if p.Retries > 0 {
		present |= 1 << DataRetries
	}
	return present
}

// TxHeaderLen returns the length of the header AppendTx writes for p, so a
// buffer can keep exactly that much headroom.
func TxHeaderLen(p radio.TxParams) int { return sizeOf(txPresent(p)) }

// AppendTx appends the injection header for p: the fields mac80211 honours
// (tx.c, ieee80211_parse_tx_radiotap). RATE for legacy rates, MCS for HT
// (BW40 is the only width mac80211 takes from it), VHT for VHT, TX_FLAGS
// always, and DATA_RETRIES when a retry count is asked for. With no rate
// mac80211 picks the lowest basic rate. ShortPre is not expressible on
// injection (mac80211 ignores FLAGS' short-preamble bit) and is dropped.
func AppendTx(dst []byte, p radio.TxParams) []byte {
	dst, e := start(dst, txPresent(p))
	switch p.Rate.Mode {
	case radio.ModeLegacy:
		if p.Rate.Legacy != 0 {
			e.field(Rate)[0] = p.Rate.Legacy
		}
	}
	binary.LittleEndian.PutUint16(e.field(TxFlags), p.Flags)
	if p.Retries > 0 {
		e.field(DataRetries)[0] = p.Retries
	}
	switch p.Rate.Mode {
	case radio.ModeHT:
		putMCS(e.field(MCS), MCSHaveBW|MCSHaveMCS|MCSHaveGI|MCSHaveFEC, p.Rate)
	case radio.ModeVHT:
		putVHT(e.field(VHT), VHTKnownGI|VHTKnownBandwidth, p.Rate, true)
	}
	return dst
}
