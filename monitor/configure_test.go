package monitor

import (
	"time"

	"strings"
	"testing"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/scan"
)

// dePHY is a dual-band phy under DE: channels 1-13, 36-48 and 52 (radar),
// HT40 and VHT80 capable with every short guard interval.
func dePHY() (nl80211.PHY, nl80211.RegDomain) {
	var b24, b5 []nl80211.ChannelInfo
	for f := 2412; f <= 2472; f += 5 {
		b24 = append(b24, nl80211.ChannelInfo{Freq: f})
	}
	for _, f := range []int{5180, 5200, 5220, 5240} {
		b5 = append(b5, nl80211.ChannelInfo{Freq: f})
	}
	b5 = append(b5, nl80211.ChannelInfo{Freq: 5260, Radar: true})
	phy := nl80211.PHY{Name: "phy0", Index: 0, PermAddr: [6]byte{0x02, 0, 0, 0, 0x02, 0}, ActiveMonitor: true,
		Bands: []nl80211.Band{
			{Index: 0, HTCapa: 0x107e, Channels: b24},
			{Index: 1, HTCapa: 0x107e, VHTCapa: 0x038001f2, Channels: b5},
		}}
	dom := nl80211.RegDomain{Alpha2: "DE", Rules: []nl80211.RegRule{
		{StartKHz: 2400000, EndKHz: 2483500, MaxBWKHz: 40000, MaxEIRPmBm: 2000},
		{StartKHz: 5150000, EndKHz: 5250000, MaxBWKHz: 80000, MaxEIRPmBm: 2300},
		{StartKHz: 5250000, EndKHz: 5350000, MaxBWKHz: 80000, MaxEIRPmBm: 2000, Flags: nl80211.RuleDFS},
	}}
	return phy, dom
}

func TestConfigureFixedChannel(t *testing.T) {
	phy, dom := dePHY()
	cfg := ap.Config{SSID: "x", BSSID: ieee80211.MAC{0x02, 0, 0, 0, 0x02, 0}, Channel: 36, PHY: bss.PHY{HT: true, VHT: true, Width: 80, SGI20: true, SGI40: true, SGI80: true},
		Scan: &ap.ScanConfig{Planner: scan.Config{Mode: scan.Continuous}}}
	got, ch, err := configure(Options{CountryElement: true}, cfg, phy, dom)
	if err != nil {
		t.Fatalf("configure: %v", err)
	}
	if ch.Freq != 5180 || ch.Width != nl80211.Width80 || got.Freq != 5180 {
		t.Errorf("channel %+v, core on %d MHz", ch, got.Freq)
	}
	if c := got.Country; c == nil || c.Alpha2 != "DE" || len(c.Subbands) != 2 || c.Subbands[0] != (ieee80211.CountryTriplet{FirstChannel: 36, NumChannels: 4, MaxPowerDBm: 23}) {
		t.Errorf("country %+v", got.Country)
	}
	if s := got.Scan.Planner.Channels; len(s) != 17 || s[len(s)-1] != (scan.Channel{Freq: 5260, Passive: true}) {
		t.Errorf("scan channels %+v", s)
	}
	if cfg.Scan.Planner.Channels != nil {
		t.Error("the caller's scan configuration was written")
	}
	_, _, err = configure(Options{}, ap.Config{SSID: "x", BSSID: ieee80211.MAC{0x02, 0, 0, 0, 0x02, 0}, Channel: 52}, phy, dom)
	if err == nil || !strings.Contains(err.Error(), "phy0 cannot operate on channel 52") || !strings.Contains(err.Error(), "radar") {
		t.Errorf("radar channel: %v", err)
	}
}

// Channel 0: the candidates come from the phy, with each band's Country
// element; the monitor starts on the first one that allows beaconing.
func TestConfigureSelection(t *testing.T) {
	phy, dom := dePHY()
	o := Options{ACS: ACSFilter{Band5GHz: true}, CountryElement: true}
	got, ch, err := configure(o, ap.Config{SSID: "x", BSSID: ieee80211.MAC{0x02, 0, 0, 0, 0x02, 0}, ACS: &ap.ACSConfig{Runs: 2}}, phy, dom)
	if err != nil {
		t.Fatal(err)
	}
	a := got.ACS
	if a.Runs != 2 || len(a.Channels) != 5 || a.Channels[0].Freq != 5180 || !a.Channels[4].Passive {
		t.Errorf("ACS %+v", a)
	}
	if a.Country2GHz == nil || a.Country5GHz == nil || a.Country5GHz.Subbands[0].FirstChannel != 36 {
		t.Errorf("countries %+v %+v", a.Country2GHz, a.Country5GHz)
	}
	if ch.Freq != 5180 || ch.Width != nl80211.Width20NoHT {
		t.Errorf("start channel %+v", ch)
	}
	o.ACS = ACSFilter{Band5GHz: true}
	for i := range phy.Bands[1].Channels {
		phy.Bands[1].Channels[i].NoIR = true
	}
	if _, _, err := configure(o, ap.Config{SSID: "x", BSSID: ieee80211.MAC{0x02, 0, 0, 0, 0x02, 0}, ACS: &ap.ACSConfig{}}, phy, dom); err == nil || !strings.Contains(err.Error(), "allows beaconing") {
		t.Errorf("only passive candidates: %v", err)
	}
}

// The BSSID defaults to the phy's address; with an address mask, others
// may differ only in the mask's bits.
func TestBSSID(t *testing.T) {
	phy, _ := dePHY()
	if b, err := firstBSSID(phy, ieee80211.MAC{}); err != nil || b != phy.PermAddr {
		t.Errorf("default: %v %v", b, err)
	}
	want := ieee80211.MAC{0x02, 0, 0, 0, 0x02, 0x07}
	if b, err := firstBSSID(phy, want); err != nil || b != want {
		t.Errorf("no mask: %v %v", b, err)
	}
	phy.AddrMask = [6]byte{0, 0, 0, 0, 0, 0x03}
	if _, err := firstBSSID(phy, want); err == nil || !strings.Contains(err.Error(), "differ from 02:00:00:00:02:00 in the bits of 00:00:00:00:00:03") {
		t.Errorf("outside the mask: %v", err)
	}
}

// TestCountryElementOnlyWithIEEE80211D: the Country element goes into the
// beacons with ieee80211d (Options.CountryElement) and not without, while
// the domain is applied either way.
func TestCountryElementOnlyWithIEEE80211D(t *testing.T) {
	phy, dom := dePHY()
	for _, on := range []bool{true, false} {
		cfg := ap.Config{SSID: "x", BSSID: ieee80211.MAC{0x02, 0, 0, 0, 0x02, 0}, Channel: 36}
		got, _, err := configure(Options{CountryElement: on}, cfg, phy, dom)
		if err != nil {
			t.Fatal(err)
		}
		country, ok := beaconElements(t, got).Find(ieee80211.ElemCountry)
		if ok != on || on && string(country[:2]) != "DE" {
			t.Errorf("ieee80211d=%v: Country element %v %q", on, ok, country)
		}
		a, _, err := configure(Options{CountryElement: on, ACS: ACSFilter{Band5GHz: true}}, ap.Config{SSID: "x", BSSID: cfg.BSSID, ACS: &ap.ACSConfig{}}, phy, dom)
		if err != nil || (a.ACS.Country5GHz != nil) != on || (a.ACS.Country2GHz != nil) != on {
			t.Errorf("ieee80211d=%v with ACS: %+v %+v %v", on, a.ACS.Country2GHz, a.ACS.Country5GHz, err)
		}
	}
}

// beaconElements starts a core on cfg and returns its first beacon's
// elements.
func beaconElements(t *testing.T, cfg ap.Config) ieee80211.Elements {
	t.Helper()
	core, err := ap.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	core.Start(0)
	var d collect
	core.Flush(0, &d)
	out := d.radio
	for _, b := range out {
		hl, _, err := radiotap.Parse(b, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ieee80211.ParseFrame(b[hl:])
		if err != nil || !f.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
			continue
		}
		bc, err := ieee80211.ParseBeacon(f.Body())
		if err != nil {
			t.Fatal(err)
		}
		return bc.Elements()
	}
	t.Fatalf("no beacon among %d frames", len(out))
	return nil
}

// collect is a driver that keeps copies of the radio frames written.
type collect struct{ radio [][]byte }

func (c *collect) WriteRadio(frames [][]byte) (int, error) {
	for _, f := range frames {
		c.radio = append(c.radio, append([]byte(nil), f...))
	}
	return len(frames), nil
}
func (c *collect) WriteWired(_ int, frames [][]byte) (int, error) { return len(frames), nil }
func (c *collect) Retune(int) (time.Duration, bool)               { return 0, true }
func (c *collect) Event(ap.Event)                                 {}
