package ieee80211

// The 20/40 BSS Coexistence Management frame (IEEE 802.11-2020 9.6.7.12):
// a Public Action frame a station sends to say that 40 MHz hurts it or
// its neighbours.

// ActionCoex2040 is the Public Action code of the 20/40 BSS Coexistence
// Management frame.
const ActionCoex2040 = 0

// 20/40 BSS Coexistence Information field bits (9.4.2.60).
const (
	Coex2040InfoRequest     = 0x01
	Coex2040Intolerant      = 0x02 // 40 MHz Intolerant
	Coex2040WidthRequest    = 0x04 // 20 MHz BSS Width Request
	Coex2040ScanExemptReq   = 0x08
	Coex2040ScanExemptGrant = 0x10
)

// Coex2040Mgmt is a 20/40 BSS Coexistence Management frame's body after
// the category and action code, checked and viewed in place.
type Coex2040Mgmt struct {
	info    uint8
	reports []byte // the Intolerant Channel Report elements, each checked
}

// ParseCoex2040Mgmt checks b as hostapd's hostapd_2040_coex_action reads
// it: a 20/40 BSS Coexistence element of at least one octet first, then
// the Intolerant Channel Report elements that follow it (each at least an
// Operating Class); whatever else follows the last is ignored. A report
// that runs past the end makes the whole frame malformed.
func ParseCoex2040Mgmt(b []byte) (Coex2040Mgmt, error) {
	if len(b) < 3 || b[0] != ElemBSSCoex2040 || b[1] < 1 {
		return Coex2040Mgmt{}, ErrBody
	}
	if 2+int(b[1]) > len(b) {
		return Coex2040Mgmt{}, ErrTruncated
	}
	m := Coex2040Mgmt{info: b[2]}
	rest := b[2+int(b[1]):]
	n := 0
	for len(rest)-n >= 3 && rest[n] == ElemIntolerantReport && rest[n+1] >= 1 {
		if 2+int(rest[n+1]) > len(rest)-n {
			return Coex2040Mgmt{}, ErrTruncated
		}
		n += 2 + int(rest[n+1])
	}
	m.reports = rest[:n]
	return m, nil
}

// Info is the 20/40 BSS Coexistence Information field.
func (m Coex2040Mgmt) Info() uint8 { return m.info }

// IntolerantChannels calls fn with each channel the Intolerant Channel
// Reports name, in order, until fn returns false.
func (m Coex2040Mgmt) IntolerantChannels(fn func(ch uint8) bool) {
	r := m.reports
	for len(r) > 0 {
		n := int(r[1])
		for _, ch := range r[3 : 2+n] { // r[2] is the Operating Class
			if !fn(ch) {
				return
			}
		}
		r = r[2+n:]
	}
}

// AppendCoex2040Mgmt appends the body of a 20/40 BSS Coexistence
// Management frame (category and action code included) with Information
// field info and, when channels are given, one Intolerant Channel Report
// of operating class opClass.
func AppendCoex2040Mgmt(dst []byte, info, opClass uint8, channels ...uint8) []byte {
	dst = append(dst, CategoryPublic, ActionCoex2040, ElemBSSCoex2040, 1, info)
	if len(channels) > 0 {
		dst = append(dst, ElemIntolerantReport, uint8(1+len(channels)), opClass)
		dst = append(dst, channels...)
	}
	return dst
}

// AppendOBSSScanParams appends an Overlapping BSS Scan Parameters element
// (9.4.2.58) with BSS Width Trigger Scan Interval interval seconds and the
// standard's defaults elsewhere (the MIB's, which hostapd sends): passive
// dwell 20 TU, active dwell 10 TU, 200 and 20 TU per channel, transition
// delay factor 5, activity threshold 25 (0.25 %).
func AppendOBSSScanParams(dst []byte, interval uint16) []byte {
	dst = append(dst, ElemOBSSScanParams, 14)
	for _, v := range []uint16{20, 10, interval, 200, 20, 5, 25} {
		dst = append(dst, byte(v), byte(v>>8))
	}
	return dst
}
