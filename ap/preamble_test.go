package ap

import (
	"testing"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
)

// TestLongPreambleByDefault: under hostapd's default (preamble=0) a
// station with short preamble in its capability gets an association
// response without the Short Preamble bit, the beacons and probe
// responses lack it and ask for the long preamble in the ERP element,
// and its entry says the BSS uses none (mac80211's use_short_preamble,
// which hostapd leaves off); with preamble=1 it has all of them.
func TestLongPreambleByDefault(t *testing.T) {
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x22, 1}
	for _, short := range []bool{false, true} {
		h := newHarness(t, Config{ShortPreamble: short})
		h.take()
		want, wantERP := uint16(0), byte(bss.ERPBarker)
		if short {
			want, wantERP = bss.CapShortPre, 0
		}
		resp := h.joinAs(sta, bssid, "airq-test", uint16(bss.CapESS|bss.CapShortPre|bss.CapShortSlot), gRates)
		if c := resp.Capability(); c&bss.CapShortPre != want || c&bss.CapShortSlot == 0 {
			t.Errorf("short preamble %v: association response's capability %#x", short, c)
		}
		if c, erp := h.beaconERPOf(bssid); c&bss.CapShortPre != want || erp != wantERP {
			t.Errorf("short preamble %v: beacon's capability %#x, ERP %#x; want ERP %#x", short, c, erp, wantERP)
		}
		h.air(ieee80211.AppendProbeReq(nil, sta, "airq-test", gRates, h.nextSeq()))
		out, _ := h.take()
		pr, _ := ieee80211.ParseBeacon(findMgmt(t, out, ieee80211.SubtypeProbeResp, sta).Body())
		if erp, _ := pr.Elements().Find(ieee80211.ElemERP); pr.Capability()&bss.CapShortPre != want || len(erp) != 1 || erp[0] != wantERP {
			t.Errorf("short preamble %v: probe response's capability %#x, ERP % x", short, pr.Capability(), erp)
		}
		r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationGet, Addr: sta})
		if len(r.Stations) != 1 || r.Stations[0].BSSShortPreamble != short || !r.Stations[0].ShortPreamble {
			t.Errorf("short preamble %v: station entry %+v", short, r.Stations)
		}
	}
}
