package radiotap

import (
	"encoding/binary"
	"math/bits"

	"github.com/airq/airq/radio"
)

// Parse decodes the radiotap header at the start of b and returns its length
// (the 802.11 frame starts at b[hdrLen:]). Both structs are zeroed first; nil
// pointers are allowed. If the header carries TX_FLAGS the frame is mac80211's
// TX-status echo of a frame we injected: echo is true and tx is filled. RX
// frames from mac80211 never carry TX_FLAGS.
//
// Fields are read only from the first radiotap-namespace block: later blocks
// hold per-chain values (mac80211 writes one per antenna chain after the
// combined signal). Vendor namespaces are stepped over by their skip_length.
// Like the kernel's iterator, Parse stops at the first present field whose
// size it does not know; what it read before that stands.
func Parse(b []byte, rx *radio.RxInfo, tx *radio.TxStatus) (hdrLen int, echo bool, err error) {
	var rxs radio.RxInfo
	var txs radio.TxStatus
	if rx == nil {
		rx = &rxs
	}
	if tx == nil {
		tx = &txs
	}
	*rx = radio.RxInfo{}
	*tx = radio.TxStatus{}
	h, err := header(b)
	if err != nil {
		return 0, false, err
	}
	var s state
	if !s.echoLayout(h) {
		if err := s.walk(h); err != nil {
			return 0, false, err
		}
	}
	s.fill(rx, tx)
	return len(h), s.echo, nil
}

// header validates version and it_len and returns the header bytes.
func header(b []byte) ([]byte, error) {
	if len(b) < headerLen {
		return nil, ErrShort
	}
	if b[0] != Version {
		return nil, ErrVersion
	}
	n := int(binary.LittleEndian.Uint16(b[2:]))
	if n < headerLen || n > len(b) {
		return nil, ErrLength
	}
	return b[:n], nil
}

// bitmaps returns the number of presence words and fails if the chain of
// Ext bits runs past the header.
func bitmaps(h []byte) (int, error) {
	n := 1
	for off := 4; binary.LittleEndian.Uint32(h[off:])&(1<<Ext) != 0; off += 4 {
		if off+8 > len(h) {
			return 0, ErrBitmaps
		}
		n++
	}
	return n, nil
}

// namespace of the presence word being read.
type namespace uint8

const (
	nsRadiotap namespace = iota
	nsVendor             // unknown vendor data, already skipped
)

// walk steps over every field in the header, recording the ones we use.
func (s *state) walk(h []byte) error {
	words, err := bitmaps(h)
	if err != nil {
		return err
	}
	off := 4 + 4*words
	ns, base, block := nsRadiotap, 0, 0
	for w := 0; w < words; w++ {
		word := binary.LittleEndian.Uint32(h[4+4*w:])
		if ns == nsRadiotap {
			var stop bool
			off, stop, err = s.fields(h, off, word, base, block == 0)
			if err != nil || stop {
				return err
			}
		}
		switch {
		case word&(1<<VendorNS) != 0:
			off = align(off, 2)
			if off+6 > len(h) {
				return ErrNamespace
			}
			off += 6 + int(binary.LittleEndian.Uint16(h[off+4:]))
			if off > len(h) {
				return ErrNamespace
			}
			ns, base = nsVendor, 0
		case word&(1<<RadiotapNS) != 0:
			ns, base = nsRadiotap, 0
			block++
		default:
			base += 32
		}
	}
	return nil
}

// fields reads the radiotap-namespace fields of one presence word. It
// reports stop when a present field is unknown and the walk must end.
func (s *state) fields(h []byte, off int, word uint32, base int, record bool) (int, bool, error) {
	for w := word & fieldBits; w != 0; w &= w - 1 {
		idx := base + bits.TrailingZeros32(w)
		if idx >= len(fields) || fields[idx].size == 0 {
			return off, true, nil
		}
		f := fields[idx]
		off = align(off, int(f.align))
		end := off + int(f.size)
		if end > len(h) {
			return off, false, ErrField
		}
		if record {
			s.field(idx, h[off:end])
		}
		off = end
	}
	return off, false, nil
}
