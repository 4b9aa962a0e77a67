package ap

import "github.com/airq/airq/ctl"

// The capability field and the ERP element follow the associated
// stations: 802.11b ones need protection and long preambles.

// Capability bits we advertise: ESS, and short slot time on 2.4 GHz where
// the BSS has only ERP stations' rates.
const (
	capESS       = 0x0001
	capShortPre  = 0x0020
	capShortSlot = 0x0400
	capPrivacy   = 0x0010 // WPA2: data is protected
)

// capability advertises short preamble and short slot time only while every
// associated station can use them (802.11b stations cannot).
func (a *AP) capability() uint16 { return a.capabilityOf(a.longPreamble, a.nonERP) }

// capabilityWith is the capability once station s, being admitted, is
// associated too: what its association response announces.
func (a *AP) capabilityWith(s *station) uint16 {
	long, nonERP := a.longPreamble, a.nonERP
	if s.longPreamble {
		long++
	}
	if s.nonERP {
		nonERP++
	}
	return a.capabilityOf(long, nonERP)
}

func (a *AP) capabilityOf(longPreamble, nonERP int) uint16 {
	c := uint16(capESS) | a.spectrumCap()
	if a.rsn != nil {
		c |= capPrivacy
	}
	if a.cfg.Freq >= 3000 {
		return c
	}
	if longPreamble == 0 {
		c |= capShortPre
	}
	if nonERP == 0 {
		c |= capShortSlot
	}
	return c
}

// ERP element bits (IEEE 802.11 9.4.2.11).
const (
	erpNonERPPresent = 0x01
	erpUseProtection = 0x02
	erpBarker        = 0x04
)

// erp asks ERP stations to protect their OFDM frames while an 802.11b
// station is associated, and for long preambles while one needs them.
func (a *AP) erp() uint8 {
	var f uint8
	if a.nonERP > 0 {
		f |= erpNonERPPresent | erpUseProtection
	}
	if a.longPreamble > 0 {
		f |= erpBarker
	}
	return f
}

// ctlBSSParam is the BSS's part of a station's entry, as mac80211 reports
// it from its interface: short slot time always on 5 GHz.
func (a *AP) ctlBSSParam(st *ctl.Station) {
	c := a.capability()
	st.DTIMPeriod, st.BeaconInterval = a.cfg.DTIMPeriod, a.cfg.BeaconInterval
	st.CTSProtection = a.erp()&erpUseProtection != 0
	st.BSSShortPreamble = c&capShortPre != 0
	st.ShortSlotTime = c&capShortSlot != 0 || a.cfg.Freq >= 3000
}

// joinERP and leaveERP keep the counts behind the ERP element and the
// capability bits.
func (a *AP) joinERP(s *station) {
	if s.nonERP {
		a.nonERP++
	}
	if s.longPreamble {
		a.longPreamble++
	}
}

func (a *AP) leaveERP(s *station) {
	if s.nonERP {
		a.nonERP--
	}
	if s.longPreamble {
		a.longPreamble--
	}
}
