package ap

import (
	"bytes"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
	"github.com/airq/airq/sae"
)

// hostapd 2.11's h2e_required: with hash-to-element the only method
// (sae_pwe=1, or identifiers on every password), beacons list BSS
// membership selector 123 after the rates, so that stations that cannot
// do H2E skip the BSS; also in transition mode, as there. The rates
// themselves are all still there.
func TestSAEH2EOnlySelector(t *testing.T) {
	withIDs := saeConfig(t, sae.HuntAndPeck)
	withIDs.RSN.SAE.Passwords[0].Identifier = []byte("guest")
	for _, c := range []struct {
		name string
		cfg  Config
		want bool
	}{
		{"sae_pwe=0", saeConfig(t, sae.HuntAndPeck), false},
		{"sae_pwe=1", saeConfig(t, sae.HashToElement), true},
		{"sae_pwe=2", saeConfig(t, sae.BothMethods), false},
		{"sae_pwe=1 transition", saeConfig(t, sae.HashToElement, rsn.AKMPSK), true},
		{"identifiers on every password", withIDs, true},
	} {
		h := newHarness(t, c.cfg)
		out, _ := h.take()
		_, fr := parsed(t, out[0])
		ies := ieee80211.Elements(fr.Body()[12:])
		var rates []byte
		for _, id := range []uint8{ieee80211.ElemSupportedRates, ieee80211.ElemExtSupportedRates} {
			if body, ok := ies.Find(id); ok {
				rates = append(rates, body...)
			}
		}
		selector := byte(ieee80211.RateBasic | ieee80211.SelectorSAEH2E)
		if got := bytes.IndexByte(rates, selector) >= 0; got != c.want {
			t.Errorf("%s: rates %x, selector 123 listed %v, want %v", c.name, rates, got, c.want)
		}
		if !bytes.HasPrefix(rates, h.a.bss.Rates.IE) {
			t.Errorf("%s: rates %x lack the BSS's %x", c.name, rates, h.a.bss.Rates.IE)
		}
	}
}
