package ap

import (
	"strings"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// The WMM Parameter element of beacons, probe responses and association
// responses carries Config.WMMParams; the zero value is hostapd's defaults.
func TestWMMParams(t *testing.T) {
	custom := ieee80211.DefaultEDCA()
	custom[ieee80211.ACBE] = ieee80211.EDCA{AIFSN: 7, ECWMin: 6, ECWMax: 10, TXOP: 31}
	custom[ieee80211.ACVO].TXOP = 0
	for _, c := range []struct {
		set, want [ieee80211.NumACs]ieee80211.EDCA
	}{{[ieee80211.NumACs]ieee80211.EDCA{}, ieee80211.DefaultEDCA()}, {custom, custom}} {
		h := newHarness(t, Config{WMM: true, WMMParams: c.set})
		out, _ := h.take()
		_, fr := parsed(t, out[0])
		bc, _ := ieee80211.ParseBeacon(fr.Body())
		if p, _, ok := bc.Elements().WMMParams(); !ok || p != c.want {
			t.Errorf("beacon: %+v, want %+v", p, c.want)
		}
		h.auth(staMAC, 0, 1)
		h.assoc(staMAC, h.a.cfg.SSID, gRates, true)
		out, _ = h.take()
		ar, _ := h.assocResp(out, staMAC)
		if p, _, ok := ar.Elements().WMMParams(); !ok || p != c.want {
			t.Errorf("association response: %+v, want %+v", p, c.want)
		}
	}
}

// Parameters stations cannot use, and admission control, are refused.
func TestWMMParamsRefused(t *testing.T) {
	for _, c := range []struct {
		edit func(*ieee80211.EDCA)
		want string
	}{
		{func(e *ieee80211.EDCA) { e.AIFSN = 1 }, "BE AIFSN 1, want 2 to 15"},
		{func(e *ieee80211.EDCA) { e.ECWMin = 11 }, "BE ECWmin 11, ECWmax 10"},
		{func(e *ieee80211.EDCA) { e.ACM = true }, "BE admission control is not supported"},
	} {
		p := ieee80211.DefaultEDCA()
		c.edit(&p[ieee80211.ACBE])
		_, err := Config{SSID: "x", BSSID: bssid, Channel: 1, WMMParams: p}.Resolve()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", p[ieee80211.ACBE], err, c.want)
		}
	}
}
