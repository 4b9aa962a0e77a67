package ap

import (
	"encoding/binary"
	"slices"
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// bssFrames advances to the next beacon and answers a probe request,
// returning the beacon's and the probe response's bodies.
func bssFrames(t *testing.T, h *harness) (beacon, probeResp ieee80211.Beacon) {
	t.Helper()
	h.advance(h.a.nextBeacon - h.now)
	h.air(ieee80211.AppendProbeReq(nil, ieee80211.MAC{0x02, 0xee, 0, 0, 0, 1}, "", gRates, h.nextSeq()))
	out, _ := h.take()
	for _, b := range out {
		_, fr := parsed(t, b)
		switch {
		case fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon):
			beacon, _ = ieee80211.ParseBeacon(fr.Body())
		case fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeProbeResp):
			probeResp, _ = ieee80211.ParseBeacon(fr.Body())
		}
	}
	if beacon == nil || probeResp == nil {
		t.Fatal("no beacon or no probe response")
	}
	return beacon, probeResp
}

// elementIDs lists a frame's element IDs in order.
func elementIDs(t *testing.T, e ieee80211.Elements) []uint8 {
	t.Helper()
	var ids []uint8
	it := e.Iter()
	for it.Next() {
		ids = append(ids, it.ID())
	}
	if it.Err() != nil {
		t.Fatal(it.Err())
	}
	return ids
}

// inOrder checks that the IDs of want appear in ids in that order.
func inOrder(t *testing.T, what string, ids []uint8, want ...uint8) {
	t.Helper()
	last := -1
	for _, id := range want {
		i := slices.Index(ids, id)
		if i <= last {
			t.Errorf("%s: element %d at %d, want it after %v in %v", what, id, i, want[:slices.Index(want, id)], ids)
			return
		}
		last = i
	}
}

// The BSS Load element is in beacons and probe responses after the RSN
// element and before the HT elements, as hostapd places it, and counts the
// station entries, associated or only authenticated.
func TestBSSLoadElement(t *testing.T) {
	cfg := wpaConfig(t, rsn.AKMPSK)
	cfg.Advert, cfg.PHY = bss.Advert{BSSLoadPeriod: 2}, bss.PHY{HT: true}
	h := newHarness(t, cfg)
	for _, f := range bssFramesList(t, h) {
		inOrder(t, "BSS Load", elementIDs(t, f.Elements()), ieee80211.ElemERP, ieee80211.ElemRSN, ieee80211.ElemBSSLoad, ieee80211.ElemHTCap)
	}
	h = newHarness(t, Config{Advert: bss.Advert{BSSLoadPeriod: 2}})
	for _, f := range bssFramesList(t, h) {
		if body, _ := f.Elements().Find(ieee80211.ElemBSSLoad); len(body) != 5 || binary.LittleEndian.Uint16(body) != 0 ||
			binary.LittleEndian.Uint16(body[3:]) != 0 {
			t.Errorf("BSS Load with no station: % x", body)
		}
	}
	h.join(staMAC, false)
	h.auth(ieee80211.MAC{0x02, 0, 0, 0, 0x01, 9}, 0, 1) // authenticated only
	for _, f := range bssFramesList(t, h) {
		if body, _ := f.Elements().Find(ieee80211.ElemBSSLoad); binary.LittleEndian.Uint16(body) != 2 {
			t.Errorf("BSS Load station count %d, want 2 entries", binary.LittleEndian.Uint16(body))
		}
	}
	// Without the key there is no element.
	h = newHarness(t, Config{})
	for _, f := range bssFramesList(t, h) {
		if _, ok := f.Elements().Find(ieee80211.ElemBSSLoad); ok {
			t.Error("a BSS Load element without bss_load_update_period")
		}
	}
}

func bssFramesList(t *testing.T, h *harness) []ieee80211.Beacon {
	b, p := bssFrames(t, h)
	return []ieee80211.Beacon{b, p}
}

// The channel utilization is the airtime of the frames heard and sent over
// the period's time, x 255, taken every bss_load_update_period beacon
// intervals; chan_util_avg_period averages it for the status.
func TestChannelUtilizationFollowsLoad(t *testing.T) {
	h := newHarness(t, Config{Advert: bss.Advert{BSSLoadPeriod: 2, ChanUtilAvgPeriod: 4}})
	h.join(staMAC, false)
	h.take()
	period := 2 * h.a.beaconPeriod()
	util := func() uint8 {
		f, _ := bssFrames(t, h)
		body, _ := f.Elements().Find(ieee80211.ElemBSSLoad)
		return body[2]
	}
	// Idle: two periods of nothing.
	h.advance(2 * period)
	if u := util(); u > 2 {
		t.Errorf("idle: channel utilization %d", u)
	}
	// A station's uplink taking about half the air: each 88-octet frame
	// at 54 Mbit/s is ~46 µs on the air.
	frame := h.upIPv4(staMAC, host, 0, false)
	air := time.Duration(h.a.est.Airtime(h.a.rx.Rate, ieee80211.ACBE, len(frame)+4)) * time.Microsecond
	for range 2 {
		end := h.now + period
		for h.now < end {
			h.air(h.upIPv4(staMAC, host, 0, false))
			h.advance(2 * air)
		}
	}
	h.take()
	if u := util(); u < 110 || u > 145 {
		t.Errorf("half the air busy: channel utilization %d, want about 127", u)
	}
	st := h.askOK("status").Status
	if st.ChanUtil < 110 || st.ChanUtilAvg == 0 {
		t.Errorf("status: channel_utilization %d chan_util_avg %d", st.ChanUtil, st.ChanUtilAvg)
	}
	// Idle again: it falls back.
	h.advance(2 * period)
	if u := util(); u > 2 {
		t.Errorf("idle again: channel utilization %d", u)
	}
}

// utf8_ssid sets the Extended Capabilities bit 48, in the element hostapd
// places between HT Operation and VHT Capabilities.
func TestUTF8SSIDBit(t *testing.T) {
	h := newHarness(t, Config{Advert: bss.Advert{UTF8SSID: true}, PHY: bss.PHY{HT: true}})
	for _, f := range bssFramesList(t, h) {
		body, ok := f.Elements().Find(ieee80211.ElemExtCap)
		if !ok || len(body) != 7 || body[6] != 0x01 {
			t.Errorf("Extended Capabilities % x, want bit 48 alone", body)
		}
		inOrder(t, "Extended Capabilities", elementIDs(t, f.Elements()), ieee80211.ElemHTOper, ieee80211.ElemExtCap)
	}
	h = newHarness(t, Config{})
	if f, _ := bssFrames(t, h); f != nil {
		if _, ok := f.Elements().Find(ieee80211.ElemExtCap); ok {
			t.Error("an Extended Capabilities element without utf8_ssid")
		}
	}
}

// On 5 GHz local_pwr_constraint sends a Power Constraint element after the
// Country element, and spectrum_mgmt_required sets the capability bit; on
// 2.4 GHz neither, as hostapd.
func TestSpectrumManagement(t *testing.T) {
	v := bss.Advert{SpectrumMgmt: true, PowerConstraint: true, LocalPowerConstraint: 3}
	country := &Country{Alpha2: "DE", Subbands: []ieee80211.CountryTriplet{{FirstChannel: 36, NumChannels: 4, MaxPowerDBm: 23}}}
	h := newHarness(t, Config{Channel: 36, Advert: v, Country: country})
	for _, f := range bssFramesList(t, h) {
		if f.Capability()&bss.CapSpectrumMgmt == 0 {
			t.Errorf("capability %#x without Spectrum Management", f.Capability())
		}
		if body, ok := f.Elements().Find(bss.ElemPowerConstraint); !ok || len(body) != 1 || body[0] != 3 {
			t.Errorf("Power Constraint % x, want 3", body)
		}
		inOrder(t, "Power Constraint", elementIDs(t, f.Elements()), ieee80211.ElemCountry, bss.ElemPowerConstraint)
	}
	h = newHarness(t, Config{Channel: 6, Advert: v})
	f, _ := bssFrames(t, h)
	if _, ok := f.Elements().Find(bss.ElemPowerConstraint); ok || f.Capability()&bss.CapSpectrumMgmt != 0 {
		t.Errorf("2.4 GHz: capability %#x, elements %v", f.Capability(), elementIDs(t, f.Elements()))
	}
}

// With the BSS Load element on, the downlink hot path (its echo counted
// as busy time, beacons carrying the element as time passes) and the
// uplink (each frame's airtime counted) allocate nothing.
func TestBSSLoadAllocs(t *testing.T) {
	h := newHarness(t, Config{WMM: true, Advert: bss.Advert{BSSLoadPeriod: 1, ChanUtilAvgPeriod: 2}})
	h.join(staMAC, true)
	h.take()
	down := downlinkStep(h)
	up := h.upIPv4(staMAC, host, 0, true)
	rx := append(radiotapRx(), up...)
	step := func() {
		down()
		h.a.HandleRadio(h.now, rx)
		h.a.Tick(h.now)
		h.a.Flush(h.now, discard{})
	}
	for range 100 {
		step()
	}
	if n := testing.AllocsPerRun(1000, step); n != 0 {
		t.Errorf("%.1f allocations per frame with BSS Load, want 0", n)
	}
	if h.a.radios[0].load.util == 0 {
		t.Error("no channel utilization measured")
	}
}
