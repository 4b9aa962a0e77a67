package radiotap

import (
	"encoding/binary"

	"github.com/airq/airq/radio"
)

// txPresent is the presence word AppendTx writes for p.
func txPresent(p radio.TxParams) uint32 {
	present := uint32(1<<Flags|1<<TxFlags) | rateBit(p.Rate)
	if p.Retries > 0 {
		present |= 1 << DataRetries
	}
	return present
}

// txMCSKnown is the known byte of the TX MCS field: everything its flags
// byte says, and the format, STBC and extension streams left at zero.
const txMCSKnown = MCSHaveBW | MCSHaveMCS | MCSHaveGI | MCSHaveFmt | MCSHaveFEC | MCSHaveSTBC | MCSHaveNESS

// TxHeaderLen returns the length of the header AppendTx writes for p, so a
// buffer can keep exactly that much headroom.
func TxHeaderLen(p radio.TxParams) int { return int(txLens[txLayout(p)]) }

// txLayout numbers the presence words txPresent can give: the rate's field
// (none, RATE, MCS, VHT) times whether DATA_RETRIES is there.
func txLayout(p radio.TxParams) int {
	i := 0
	switch p.Rate.Mode {
	case radio.ModeLegacy:
		if p.Rate.Legacy != 0 {
			i = 1
		}
	case radio.ModeHT:
		i = 2
	case radio.ModeVHT:
		i = 3
	}
	if p.Retries > 0 {
		i += 4
	}
	return i
}

// txLens is sizeOf of each layout's presence word, computed once: the
// header length is asked for every frame sent.
var txLens = func() (n [8]uint8) {
	rates := [4]radio.Rate{{}, {Mode: radio.ModeLegacy, Legacy: 2}, {Mode: radio.ModeHT}, {Mode: radio.ModeVHT}}
	for i := range n {
		p := radio.TxParams{Rate: rates[i%4], Retries: uint8(i / 4)}
		n[txLayout(p)] = uint8(sizeOf(txPresent(p)))
	}
	return n
}()

// AppendTx appends the injection header for p: the fields mac80211 honours
// (tx.c, ieee80211_parse_tx_radiotap). FLAGS and TX_FLAGS always, RATE for
// legacy rates, MCS for HT (BW40 is the only width mac80211 takes from
// it), VHT for VHT, and DATA_RETRIES when a retry count is asked for. With
// no rate mac80211 picks the lowest basic rate.
//
// FLAGS is always zero, which is what the frame gets on the air: mac80211
// reads FCS (it would cut four bytes off the frame), WEP (encrypt it) and
// FRAG (allow fragmenting it) from it, none of which airq wants, and
// ignores the short-preamble bit: an injected DSSS/CCK frame goes out with
// the long preamble, so ShortPre is dropped. Its short-GI bit stays clear
// too, as in mac80211's own headers: the MCS and VHT fields carry the
// guard interval. Without FLAGS a capture tool cannot tell the preamble
// (Wireshark assumes a short one) nor that no FCS follows.
//
// For the same reason the MCS and VHT fields vouch for what mac80211 and
// the drivers do with an injected frame beyond its rate: HT-mixed format
// (greenfield is never injected), no STBC (mac80211 reads STBC only from
// the MCS field, where it is zero) and no extension spatial streams.
func AppendTx(dst []byte, p radio.TxParams) []byte {
	dst, e := startSized(dst, txPresent(p), TxHeaderLen(p))
	e.field(Flags) // zero: see above
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
		putMCS(e.field(MCS), txMCSKnown, p.Rate)
	case radio.ModeVHT:
		putVHT(e.field(VHT), VHTKnownSTBC|VHTKnownGI|VHTKnownBandwidth, p.Rate, true)
	}
	return dst
}

// maxTxLen bounds TxHeaderLen over every TxParams (TestTxHeadersFit).
const maxTxLen = 32

// TxHeaders appends injection headers as AppendTx does, keeping the last
// one built: a data path sends runs of frames with the same parameters (a
// station's rate, often the same for every station), and copying a header
// costs a fraction of encoding it field by field. The zero value is ready.
type TxHeaders struct {
	p   radio.TxParams
	n   int // the kept header's length; 0 before the first
	hdr [maxTxLen]byte
}

// Append is AppendTx(dst, p).
func (c *TxHeaders) Append(dst []byte, p radio.TxParams) []byte {
	if c.n == 0 || p != c.p {
		c.p, c.n = p, len(AppendTx(c.hdr[:0], p))
	}
	return append(dst, c.hdr[:c.n]...)
}
