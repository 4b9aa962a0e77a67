package ieee80211

// DA returns the final destination of a data frame, by its DS bits.
func (f Frame) DA() MAC {
	if f.ToDS() {
		return f.Addr3()
	}
	return f.Addr1()
}

// SA returns the original source of a data frame, by its DS bits.
func (f Frame) SA() MAC {
	switch {
	case f.ToDS() && f.FromDS():
		return f.Addr4()
	case f.FromDS():
		return f.Addr3()
	}
	return f.Addr2()
}

// EthernetToData appends an 802.11 data frame carrying the Ethernet frame
// eth. h gives the flags, sequence and QoS fields; the addresses follow from
// its DS bits: FromDS (AP to station) is DA, BSSID, SA; ToDS is BSSID, SA,
// DA; neither is DA, SA, BSSID. With both bits set h.Addr1 and h.Addr2 (RA,
// TA) are kept and DA, SA go to Addr3, Addr4. An 802.3 frame with a length
// field is carried as is, with no LLC/SNAP added (its LLC is in it).
func EthernetToData(dst, eth []byte, bssid MAC, h DataHeader) ([]byte, error) {
	e, err := ParseEtherHdr(eth)
	if err != nil {
		return dst, err
	}
	da, sa := e.Dst(), e.Src()
	switch h.Flags & (FCToDS | FCFromDS) {
	case FCFromDS:
		h.Addr1, h.Addr2, h.Addr3 = da, bssid, sa
	case FCToDS:
		h.Addr1, h.Addr2, h.Addr3 = bssid, sa, da
	case 0:
		h.Addr1, h.Addr2, h.Addr3 = da, sa, bssid
	default:
		h.Addr3, h.Addr4 = da, sa
	}
	h.Null, h.AMSDU = false, false
	dst = AppendDataHeader(dst, h)
	payload := e.Payload()
	if et := e.EtherType(); et >= EtherTypeMin {
		dst = AppendLLCSNAP(dst, et)
	} else if int(et) <= len(payload) {
		payload = payload[:et]
	}
	return append(dst, payload...), nil
}

// DataToEthernet appends the Ethernet frame carried by a data frame (not
// protected, not null, not an A-MSDU: walk those with AMSDUSubframes and
// use MSDUToEthernet). Bodies without a usable LLC/SNAP header become 802.3
// frames with a length field, as Linux bridges them.
func DataToEthernet(dst []byte, f Frame) ([]byte, error) {
	if f.Type() != TypeData || f.IsNullData() || f.Protected() || f.AMSDUPresent() {
		return dst, ErrNotData
	}
	return MSDUToEthernet(dst, f.DA(), f.SA(), f.Body())
}

// MSDUToEthernet appends the Ethernet frame for one MSDU from da to sa.
func MSDUToEthernet(dst []byte, da, sa MAC, msdu []byte) ([]byte, error) {
	if et, payload, ok := Decap(msdu); ok {
		dst = AppendEtherHdr(dst, da, sa, et)
		return append(dst, payload...), nil
	}
	if len(msdu) >= EtherTypeMin {
		return dst, ErrNotData
	}
	dst = AppendEtherHdr(dst, da, sa, uint16(len(msdu)))
	return append(dst, msdu...), nil
}
