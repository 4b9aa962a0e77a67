package ieee80211

import "encoding/binary"

// setFC sets or clears bits of the Frame Control field in place.
func (f Frame) setFC(bits uint16, on bool) {
	fc := f.FC()
	if on {
		fc |= bits
	} else {
		fc &^= bits
	}
	binary.LittleEndian.PutUint16(f, fc)
}

func (f Frame) SetRetry(on bool)     { f.setFC(FCRetry, on) }
func (f Frame) SetPwrMgt(on bool)    { f.setFC(FCPwrMgt, on) }
func (f Frame) SetMoreData(on bool)  { f.setFC(FCMoreData, on) }
func (f Frame) SetProtected(on bool) { f.setFC(FCProtected, on) }

// SetDuration writes the Duration/ID field.
func (f Frame) SetDuration(d uint16) { binary.LittleEndian.PutUint16(f[2:], d) }

func (f Frame) SetAddr1(m MAC) { copy(f[4:10], m[:]) }
func (f Frame) SetAddr2(m MAC) { copy(f[10:16], m[:]) }
func (f Frame) SetAddr3(m MAC) { copy(f[16:22], m[:]) }

// SetSeq writes the sequence and fragment numbers; a no-op on control frames.
// The AP owns sequence numbering: mac80211 does not stamp injected frames.
func (f Frame) SetSeq(seq uint16, frag uint8) {
	if f.hasSeq() {
		binary.LittleEndian.PutUint16(f[22:], seq<<4|uint16(frag&15))
	}
}

// SetQoSControl writes the QoS Control field of a QoS data frame.
func (f Frame) SetQoSControl(qc uint16) {
	if f.IsQoS() && len(f) >= f.qosOffset()+2 {
		binary.LittleEndian.PutUint16(f[f.qosOffset():], qc)
	}
}

// SetEOSP sets the end-of-service-period bit of a QoS data frame, which ends
// a U-APSD service period.
func (f Frame) SetEOSP(on bool) {
	qc := f.QoSControl() &^ QoSEOSP
	if on {
		qc |= QoSEOSP
	}
	f.SetQoSControl(qc)
}
