package radiotap

import (
	"encoding/binary"
	"math/bits"

	"github.com/airq/airq/radio"
)

// sizeOf returns the header length for a single presence word, with every
// field aligned as the parser expects it.
func sizeOf(present uint32) int {
	off := headerLen
	for w := present & fieldBits; w != 0; w &= w - 1 {
		f := fields[bits.TrailingZeros32(w)]
		off = align(off, int(f.align)) + int(f.size)
	}
	return off
}

// encoder writes fields in bit order into a header sized by sizeOf.
type encoder struct {
	h   []byte
	off int
}

// start appends a zeroed header for present to dst and writes its first
// eight bytes. Appending make(...) does not allocate when cap suffices.
func start(dst []byte, present uint32) ([]byte, encoder) {
	return startSized(dst, present, sizeOf(present))
}

// startSized is start for a header whose size n the caller knows.
func startSized(dst []byte, present uint32, n int) ([]byte, encoder) {
	i := len(dst)
	dst = append(dst, make([]byte, n)...)
	h := dst[i : i+n]
	binary.LittleEndian.PutUint16(h[2:], uint16(n))
	binary.LittleEndian.PutUint32(h[4:], present)
	return dst, encoder{h: h, off: headerLen}
}

// field returns the bytes of the next field, idx; calls must follow bit order.
func (e *encoder) field(idx int) []byte {
	f := fields[idx]
	e.off = align(e.off, int(f.align))
	b := e.h[e.off : e.off+int(f.size)]
	e.off += int(f.size)
	return b
}

// rateBit is the presence bit that carries r, or 0 if r carries none.
func rateBit(r radio.Rate) uint32 {
	switch r.Mode {
	case radio.ModeLegacy:
		if r.Legacy != 0 {
			return 1 << Rate
		}
	case radio.ModeHT:
		return 1 << MCS
	case radio.ModeVHT:
		return 1 << VHT
	}
	return 0
}

// vhtBWCode is the radiotap VHT bandwidth code mac80211 reads and writes.
func vhtBWCode(bw radio.Bandwidth) uint8 {
	switch bw {
	case radio.BW40:
		return 1
	case radio.BW80:
		return 4
	case radio.BW160:
		return 11
	}
	return 0
}

// putMCS writes an HT MCS field.
func putMCS(f []byte, known uint8, r radio.Rate) {
	f[0] = known
	if r.Bandwidth == radio.BW40 {
		f[1] |= MCSBW40
	}
	if r.ShortGI {
		f[1] |= MCSSGI
	}
	if r.LDPC && known&MCSHaveFEC != 0 {
		f[1] |= MCSFECLDPC
	}
	f[2] = r.MCS
}

// putVHT writes a VHT field for a single user.
func putVHT(f []byte, known uint16, r radio.Rate, ldpc bool) {
	binary.LittleEndian.PutUint16(f, known)
	if r.ShortGI {
		f[2] = VHTFlagSGI
	}
	f[3] = vhtBWCode(r.Bandwidth)
	f[4] = r.MCS<<4 | r.NSS&0x0f
	if ldpc && r.LDPC {
		f[8] = VHTCodingLDPCU0
	}
}
