package ieee80211

// MaxAID is the highest association ID an AP may assign.
const MaxAID = 2007

// TIMBitmap is the traffic indication virtual bitmap: bit n is AID n.
// AID 0 is not a station; group traffic is signalled separately.
type TIMBitmap [MaxAID/8 + 1]byte

func (t *TIMBitmap) Set(aid uint16) {
	if aid <= MaxAID {
		t[aid/8] |= 1 << (aid % 8)
	}
}

func (t *TIMBitmap) Clear(aid uint16) {
	if aid <= MaxAID {
		t[aid/8] &^= 1 << (aid % 8)
	}
}

func (t *TIMBitmap) Has(aid uint16) bool { return aid <= MaxAID && t[aid/8]&(1<<(aid%8)) != 0 }

// partial returns N1 and N2 of IEEE 802.11 9.4.2.5: N1 is the largest even
// octet index with no set bit before it, N2 the last octet with a set bit.
// With no bit set the partial bitmap is the single octet 0.
func (t *TIMBitmap) partial() (n1, n2 int) {
	n1, n2 = -1, 0
	for i, o := range t {
		if o != 0 {
			if n1 < 0 {
				n1 = i &^ 1
			}
			n2 = i
		}
	}
	if n1 < 0 {
		return 0, 0
	}
	return n1, n2
}

// AppendTIM appends a TIM element. multicast sets the group-traffic bit,
// meaningful in DTIM beacons (dtimCount 0). bm may be nil for no traffic.
func AppendTIM(dst []byte, dtimCount, dtimPeriod uint8, multicast bool, bm *TIMBitmap) []byte {
	var empty TIMBitmap
	if bm == nil {
		bm = &empty
	}
	n1, n2 := bm.partial()
	ctl := uint8(n1) // N1 is even: bits 1-7 carry N1/2
	if multicast {
		ctl |= 1
	}
	dst = append(dst, ElemTIM, uint8(3+n2-n1+1), dtimCount, dtimPeriod, ctl)
	return append(dst, bm[n1:n2+1]...)
}

// TIM is a received TIM element body.
type TIM []byte

// ParseTIM checks a TIM body: count, period, control and at least one octet.
func ParseTIM(b []byte) (TIM, error) {
	if len(b) < 4 {
		return nil, ErrBody
	}
	return TIM(b), nil
}

func (t TIM) DTIMCount() uint8  { return t[0] }
func (t TIM) DTIMPeriod() uint8 { return t[1] }

// Multicast reports the group-traffic bit.
func (t TIM) Multicast() bool { return t[2]&1 != 0 }

// HasAID reports whether the AP buffers traffic for aid.
func (t TIM) HasAID(aid uint16) bool {
	octet := int(aid / 8)
	i := octet - int(t[2]&0xfe)
	if i < 0 || 3+i >= len(t) {
		return false
	}
	return t[3+i]&(1<<(aid%8)) != 0
}
