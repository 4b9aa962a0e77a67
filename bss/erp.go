package bss

// The capability field and the ERP element follow the associated
// stations: 802.11b ones need protection and long preambles.

// Capability bits a BSS advertises: ESS, privacy with WPA2, spectrum
// management where configured, and on 2.4 GHz short slot time, and short
// preamble where the radio allows it, while every associated station has
// them in its capability.
const (
	CapESS          = 0x0001
	CapPrivacy      = 0x0010 // WPA2: data is protected
	CapShortPre     = 0x0020
	CapSpectrumMgmt = 0x0100
	CapShortSlot    = 0x0400
)

// ERP element bits (IEEE 802.11 9.4.2.11).
const (
	ERPNonERPPresent = 0x01
	ERPUseProtection = 0x02
	ERPBarker        = 0x04
)

// ERP counts the associated stations behind the capability bits and the
// ERP element: those without OFDM rates, without short preamble and
// without short slot time (hostapd's num_sta_non_erp,
// num_sta_no_short_preamble and num_sta_no_short_slot_time).
type ERP struct {
	NonERP       int // associated stations without OFDM rates
	LongPreamble int // associated stations without short preamble
	NoShortSlot  int // associated stations whose capability lacks short slot time
	// Overlap: an 802.11b BSS was heard on the channel (hostapd's olbc),
	// so ERP stations protect their OFDM frames.
	Overlap bool
	// ShortPreamble: the radio allows short preambles while every
	// associated station has them (hostapd's preamble=1); false, hostapd's
	// default, keeps the long one whoever is associated.
	ShortPreamble bool
}

// ERPClass is what one station brings to the counts: no OFDM rate, no
// short preamble, no short slot time in its capability. An 802.11b
// station has all three; an 802.11g one may still lack short slot time.
type ERPClass struct {
	NonERP, LongPreamble, NoShortSlot bool
}

// Join counts a station that associates; Leave one that leaves.
func (e *ERP) Join(c ERPClass) { e.add(c, 1) }

// Leave undoes Join.
func (e *ERP) Leave(c ERPClass) { e.add(c, -1) }

func (e *ERP) add(c ERPClass, n int) {
	if c.NonERP {
		e.NonERP += n
	}
	if c.LongPreamble {
		e.LongPreamble += n
	}
	if c.NoShortSlot {
		e.NoShortSlot += n
	}
}

// With is the counts once a station being admitted is associated too:
// what its association response announces.
func (e ERP) With(c ERPClass) ERP {
	e.Join(c)
	return e
}

// Capability is base (ESS, privacy, spectrum management) with short slot
// time, and short preamble where allowed, on 2.4 GHz while every
// associated station has them in its capability, as hostapd sets them
// for 802.11g.
func (e ERP) Capability(base uint16, band2GHz bool) uint16 {
	if !band2GHz {
		return base
	}
	if e.ShortPreamble && e.LongPreamble == 0 {
		base |= CapShortPre
	}
	if e.NoShortSlot == 0 {
		base |= CapShortSlot
	}
	return base
}

// Flags asks ERP stations to protect their OFDM frames while an 802.11b
// station is associated or an 802.11b BSS is heard, and for long
// preambles while a station needs them or the radio allows no short one.
func (e ERP) Flags() uint8 {
	var f uint8
	if e.Overlap {
		f |= ERPUseProtection
	}
	if e.NonERP > 0 {
		f |= ERPNonERPPresent | ERPUseProtection
	}
	if e.LongPreamble > 0 || !e.ShortPreamble {
		f |= ERPBarker
	}
	return f
}

// Capability is the BSS's Capability field on freq MHz: ESS, privacy when
// it is protected, spectrum management where configured, and short slot
// time, and short preamble where the radio allows it, while every
// associated station can use them.
func (b *BSS) Capability(freq int) uint16 { return b.capabilityOf(b.shared().ERP, freq) }

// CapabilityWith is the capability once a station being admitted (of
// class c) is associated too: what its association response announces.
func (b *BSS) CapabilityWith(freq int, c ERPClass) uint16 {
	return b.capabilityOf(b.shared().ERP.With(c), freq)
}

func (b *BSS) capabilityOf(e ERP, freq int) uint16 {
	c := uint16(CapESS) | b.Profile.Advert.SpectrumCap(freq)
	if b.Profile.RSNE != nil {
		c |= CapPrivacy
	}
	return e.Capability(c, freq < 3000)
}
