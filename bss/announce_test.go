package bss

import (
	"slices"
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

func testBSS(hidden bool) *BSS {
	return &BSS{
		Profile: Profile{SSID: "net", Hidden: hidden, DTIMPeriod: 2, WMM: true, WMMParams: ieee80211.DefaultEDCA(),
			Advert: Advert{BSSLoadPeriod: 1}, RSNE: []byte{ieee80211.ElemRSN, 2, 1, 0}},
		Rates:    NewRateSet([]int{1000, 2000, 6000}, []int{1000}),
		Stations: NewTable(4),
	}
}

func ids(t *testing.T, b []byte) []uint8 {
	t.Helper()
	var out []uint8
	it := ieee80211.Elements(b).Iter()
	for it.Next() {
		out = append(out, it.ID())
	}
	if it.Err() != nil {
		t.Fatal(it.Err())
	}
	return out
}

// TestAppendTailOrder: a beacon's tail carries the TIM after the DS
// parameters and the Country element, ERP on 2.4 GHz, RSNE and BSS Load
// before WMM; a probe response's has no TIM and, on 5 GHz, no ERP.
func TestAppendTailOrder(t *testing.T) {
	b := testBSS(false)
	aid, _ := b.Stations.Add(ieee80211.MAC{2, 0, 0, 0, 0, 1})
	b.Stations.Bind(aid, &Station{})
	air := Air{Channel: 1, Freq: 2412, Country: "DE", Subbands: []ieee80211.CountryTriplet{{FirstChannel: 1, NumChannels: 13, MaxPowerDBm: 20}}, ChannelUtil: 7}
	var tim ieee80211.TIMBitmap
	got := ids(t, b.AppendTail(nil, &air, false, &tim, false))
	want := []uint8{ieee80211.ElemSupportedRates, ieee80211.ElemDSParams, ieee80211.ElemTIM, ieee80211.ElemCountry,
		ieee80211.ElemERP, ieee80211.ElemRSN, ieee80211.ElemBSSLoad, ieee80211.ElemVendor}
	if !slices.Equal(got, want) {
		t.Errorf("beacon tail %v, want %v", got, want)
	}
	load, _ := ieee80211.Elements(b.AppendTail(nil, &air, false, nil, false)).Find(ieee80211.ElemBSSLoad)
	if len(load) != 5 || load[0] != 1 || load[2] != 7 {
		t.Errorf("BSS Load %x, want one station and utilization 7", load)
	}
	air = Air{Channel: 36, Freq: 5180}
	got = ids(t, b.AppendTail(nil, &air, false, nil, false))
	want = []uint8{ieee80211.ElemSupportedRates, ieee80211.ElemDSParams, ieee80211.ElemRSN, ieee80211.ElemBSSLoad, ieee80211.ElemVendor}
	if !slices.Equal(got, want) {
		t.Errorf("5 GHz probe response tail %v, want %v", got, want)
	}
}

// TestAppendRatesH2E: with hash-to-element required, the SAE H2E
// membership selector follows the rates.
func TestAppendRatesH2E(t *testing.T) {
	b := testBSS(false)
	rates, _ := ieee80211.Elements(b.AppendRates(nil, true)).Find(ieee80211.ElemSupportedRates)
	if want := append(slices.Clone(b.Rates.IE), ieee80211.RateBasic|ieee80211.SelectorSAEH2E); !slices.Equal(rates, want) {
		t.Errorf("rates %x, want %x", rates, want)
	}
}

// TestAnswersProbe: the wildcard SSID gets an answer unless the BSS is
// hidden, its own SSID always, another never, nor a probe naming another
// channel in its DS Parameter Set.
func TestAnswersProbe(t *testing.T) {
	probe := func(ssid string, ds int) ieee80211.Elements {
		b := ieee80211.AppendSSID(nil, ssid)
		if ds != 0 {
			b = ieee80211.AppendDSParams(b, uint8(ds))
		}
		return b
	}
	for _, c := range []struct {
		name   string
		hidden bool
		ies    ieee80211.Elements
		want   bool
	}{
		{"wildcard", false, probe("", 0), true},
		{"wildcard, hidden", true, probe("", 0), false},
		{"named, hidden", true, probe("net", 6), true},
		{"another SSID", false, probe("other", 0), false},
		{"adjacent channel", false, probe("net", 5), false},
		{"no SSID element", false, ieee80211.AppendDSParams(nil, 6), false},
	} {
		if got := testBSS(c.hidden).AnswersProbe(c.ies, 6); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
