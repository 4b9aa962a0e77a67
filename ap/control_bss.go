package ap

import (
	"slices"
	"strings"

	"github.com/airq/airq/ctl"
	"github.com/airq/airq/rsn"
)

// describeBSS fills in what the BSS is: its security and its PHY.
func (a *AP) describeBSS(st *ctl.Status) {
	st.Security, st.KeyMgmt, st.PMF = describeSecurity(a.radios[0].rsn)
	st.PHYMode, st.Width = a.phyMode(), a.cfg.PHY.WidthName()
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

// phyMode names the standard the first BSS runs: the highest of its PHY
// (the radio's less its disable_11n, disable_11ac), and without HT the
// band's, 802.11b when every rate is a DSSS/CCK one.
func (a *AP) phyMode() string {
	switch {
	case a.bss.PHY.VHT():
		return "802.11ac"
	case a.bss.PHY.HT():
		return "802.11n"
	case a.cfg.Freq > 5000:
		return "802.11a"
	case slices.Max(a.cfg.Rates) <= 11000:
		return "802.11b"
	}
	return "802.11g"
}
