package ap

import (
	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
)

// capability is the BSS's Capability field on the radio's channel.
func (a *AP) capability() uint16 { return a.bss.Capability(a.cfg.Freq) }

// ctlBSSParam is the BSS's part of a station's entry, as mac80211 reports
// it from its interface: short slot time always on 5 GHz.
func (a *AP) ctlBSSParam(st *ctl.Station) {
	c := a.capability()
	st.DTIMPeriod, st.BeaconInterval = a.cfg.DTIMPeriod, a.cfg.BeaconInterval
	st.CTSProtection = a.shared.ERP.Flags()&bss.ERPUseProtection != 0
	st.BSSShortPreamble = c&bss.CapShortPre != 0
	st.ShortSlotTime = c&bss.CapShortSlot != 0 || a.cfg.Freq >= 3000
}
