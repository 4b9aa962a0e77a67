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

// protectionStatus fills STATUS's protection counts from the radio's, as
// hostapd's interface counts: the operation mode is 0 on a radio without
// HT (hostapd leaves ht_op_mode alone without ieee80211n), and Forty MHz
// Intolerant stations count on 2.4 GHz alone, where 40 MHz channels must
// give way to them.
func (a *AP) protectionStatus(st *ctl.Status) {
	e, p := &a.shared.ERP, &a.shared.HT
	st.NumNonERP, st.NumNoShortSlot, st.NumNoShortPreamble, st.OLBC = e.NonERP, e.NoShortSlot, e.LongPreamble, e.Overlap
	st.NumHTNoGF, st.NumNoHT, st.NumHT20, st.OLBCHT = p.NoGF, p.NoHT, p.HT20, p.NonHTBSS
	if a.cfg.Freq < 3000 {
		st.NumHT40Intolerant = p.Intolerant40
	}
	if a.cfg.PHY.HT {
		st.HTOpMode = p.OpMode(a.cfg.PHY.Width >= 40)
	}
}
