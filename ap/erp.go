package ap

import (
	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
)

// capability is the BSS's Capability field: short preamble and short slot
// time only while every associated station can use them (bss.ERP).
func (a *AP) capability() uint16 { return a.bss.ERP.Capability(a.baseCapability(), a.cfg.Freq < 3000) }

// capabilityWith is the capability once station s, being admitted, is
// associated too: what its association response announces.
func (a *AP) capabilityWith(s *station) uint16 {
	return a.bss.ERP.With(s.nonERP, s.longPreamble).Capability(a.baseCapability(), a.cfg.Freq < 3000)
}

// baseCapability is what does not follow the stations: ESS, spectrum
// management, and privacy with WPA2.
func (a *AP) baseCapability() uint16 {
	c := uint16(bss.CapESS) | a.cfg.Advert.SpectrumCap(a.cfg.Freq)
	if a.rsn != nil {
		c |= bss.CapPrivacy
	}
	return c
}

// ctlBSSParam is the BSS's part of a station's entry, as mac80211 reports
// it from its interface: short slot time always on 5 GHz.
func (a *AP) ctlBSSParam(st *ctl.Station) {
	c := a.capability()
	st.DTIMPeriod, st.BeaconInterval = a.cfg.DTIMPeriod, a.cfg.BeaconInterval
	st.CTSProtection = a.bss.ERP.Flags()&bss.ERPUseProtection != 0
	st.BSSShortPreamble = c&bss.CapShortPre != 0
	st.ShortSlotTime = c&bss.CapShortSlot != 0 || a.cfg.Freq >= 3000
}
