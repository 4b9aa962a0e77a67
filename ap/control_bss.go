package ap

import (
	"slices"
	"strings"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/rsn"
)

// describeBSS fills in what BSS i of the radio is, as hostapd's STATUS on
// its socket gives it: its SSID, BSSID, DTIM period, station limit, WMM,
// HT and VHT (what it advertises of the radio's), security and standard;
// the width is the radio's channel's.
func (a *AP) describeBSS(st *ctl.Status, i int) {
	b := a.bsses[i]
	st.SSID, st.BSSID, st.DTIMPeriod = b.Profile.SSID, ctl.MAC(b.BSSID), b.Profile.DTIMPeriod
	st.MaxStations = a.radios[i].maxStations
	st.WMM, st.HT, st.VHT = b.Profile.WMM, b.PHY.HT(), b.PHY.VHT()
	st.Security, st.KeyMgmt, st.PMF = describeSecurity(a.radios[i].rsn)
	st.PHYMode, st.Width = a.phyMode(b), a.cfg.PHY.WidthName()
}

// describeSecurity names a BSS's security, its AKMs and its PMF from its
// RSN state, the one it runs (a restart replaces it); r nil is an open
// network.
func describeSecurity(r *rsnState) (security, keyMgmt, pmf string) {
	if r == nil {
		return "open", "", "off"
	}
	p := r.policy
	names := make([]string, len(p.AKMs))
	for i, akm := range p.AKMs {
		names[i] = akm.String()
	}
	security, keyMgmt, pmf = securityName(p.AKMs), strings.Join(names, " "), "off"
	switch p.MFP {
	case rsn.MFPOptional:
		pmf = "optional"
	case rsn.MFPRequired:
		pmf = "required"
	}
	return security, keyMgmt, pmf
}

// phyMode names the standard BSS b runs: the highest of its PHY (the
// radio's less its disable_11n, disable_11ac), and without HT the band's,
// 802.11b when every rate is a DSSS/CCK one.
func (a *AP) phyMode(b *bss.BSS) string {
	switch {
	case b.PHY.VHT():
		return "802.11ac"
	case b.PHY.HT():
		return "802.11n"
	case a.cfg.Freq > 5000:
		return "802.11a"
	case slices.Max(a.cfg.Rates) <= 11000:
		return "802.11b"
	}
	return "802.11g"
}
