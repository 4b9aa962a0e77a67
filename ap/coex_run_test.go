package ap

import (
	"slices"
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

var (
	ht40Elems  = ieee80211.AppendHTCap(nil, ieee80211.HTPHY{Streams: 1, Width40: true, SGI20: true, SGI40: true}.Cap())
	intolElems = ieee80211.AppendHTCap(nil, ieee80211.HTPHY{Streams: 1, Width40: true, Intolerant: true}.Cap())
	tolerant   = ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	intolerant = ieee80211.MAC{0x02, 0, 0, 0, 0x10, 2}
	coexGuest  = ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}
)

// coexHarness is an HT40+ radio on channel 6 with a guest BSS beside the
// first, obss_interval obss seconds, and a 40 MHz station in each BSS.
func coexHarness(t *testing.T, freq, obss int) *harness {
	t.Helper()
	cfg := amsduConfig()
	cfg.InFlightPerAC = 64
	cfg.Channel, cfg.PHY = ieee80211.FreqToChannel(freq), bss.PHY{HT: true, Width: 40, Secondary: 1, SGI40: true, OBSSInterval: obss}
	cfg.BSSes = []BSSConfig{{BSSID: guest2ID, SSID: "guest"}}
	h := newHarness(t, cfg)
	h.joinWith(tolerant, bssid, "airq-test", ht40Elems, wmmElem)
	h.joinWith(coexGuest, guest2ID, "guest", ht40Elems, wmmElem)
	h.checkWidth(40)
	h.takeEvents()
	return h
}

// checkWidth checks the radio runs at width MHz: STATUS's secondary
// channel, each BSS's beacon's HT Operation, and the downlink to each
// station.
func (h *harness) checkWidth(width int) {
	h.t.Helper()
	wantSec, wantOffset := 0, uint8(ieee80211.HTOperSecondaryNone)
	if width == 40 {
		wantSec, wantOffset = 1, ieee80211.HTOperSecondaryAbove
	}
	if st := h.a.Control(h.now, ctl.Request{Op: ctl.OpStatus}).Status; st.SecondaryChannel != wantSec {
		h.t.Errorf("STATUS secondary_channel %d, want %d", st.SecondaryChannel, wantSec)
	}
	h.take() // beacons sent before now
	for id, ies := range h.beaconElems() {
		o, ok := ies.HTOper()
		if !ok || o.SecondaryOffset() != wantOffset || o.AnyWidth() != (width == 40) {
			h.t.Errorf("%s's beacon: HT Operation %x, want offset %d", id, []byte(o), wantOffset)
		}
		// The HT Capabilities stay those of 40 MHz, as hostapd's ht_capab.
		if c, ok := ies.HTCap(); !ok || c.Info()&ieee80211.HTCapWidth40 == 0 || c.Info()&ieee80211.HTCapSGI40 == 0 {
			h.t.Errorf("%s's beacon: HT Capabilities without 40 MHz", id)
		}
	}
	for bi, sta := range []ieee80211.MAC{tolerant, coexGuest} {
		_, s := h.a.sta.lookup(sta)
		if s == nil || s.State != bss.StateAssociated {
			continue
		}
		if _, rates := h.downlink(bi, sta, 0, 2); len(rates) == 0 {
			h.t.Fatalf("nothing sent to %s", sta)
		}
		// The rate table the downlink picks from: as wide as the radio.
		widest := radio.Bandwidth(0)
		for _, r := range h.a.rateTable(s).Stats() {
			widest = max(widest, r.Rate.Bandwidth)
		}
		if widest != radio.Bandwidth(width) {
			h.t.Errorf("%s's rates reach %d MHz, want %d", sta, widest, width)
		}
	}
}

// widthEvents are the width changes the core reported since the last call.
func (h *harness) widthEvents() []Event { return h.eventsOf(EventWidth) }

// TestIntolerantStationMakesRadio20MHz: an HT station that sets 40 MHz
// Intolerant associates on 2.4 GHz: every BSS of the radio runs at 20 MHz
// and every station gets 20 MHz rates; when it leaves, 40 MHz comes back
// at once with obss_interval 0, as hostapd's ap_ht2040_timeout.
func TestIntolerantStationMakesRadio20MHz(t *testing.T) {
	h := coexHarness(t, 2437, 0)
	h.joinWith(intolerant, bssid, "airq-test", intolElems, wmmElem)
	if ev := h.widthEvents(); len(ev) != 1 || ev[0].Secondary != 0 || ev[0].Primary != 6 {
		t.Errorf("events %+v", ev)
	}
	h.checkWidth(20)
	// The radio stays tuned to its pair: a trip home from a scan must not
	// leave it at 20 MHz once 40 MHz is back.
	if p := h.a.TunedConfig().PHY; p.Width != 40 || p.Secondary != 1 {
		t.Errorf("tuned at %d MHz, secondary %d: want the 40 MHz pair", p.Width, p.Secondary)
	}
	h.air(h.mgmt(ieee80211.SubtypeDeauth, intolerant))
	if ev := h.widthEvents(); len(ev) != 1 || ev[0].Secondary != 10 {
		t.Errorf("events after it left %+v", ev)
	}
	h.checkWidth(40)
	if n := h.a.Counters()[counter.WidthChanges]; n != 2 {
		t.Errorf("width_changes %d, want 2", n)
	}
}

// TestIntolerantRestoreWaitsOBSSInterval: with obss_interval 10, 40 MHz
// comes back 5 × 10 s after the last intolerant station left; another
// associating meanwhile cancels it.
func TestIntolerantRestoreWaitsOBSSInterval(t *testing.T) {
	h := coexHarness(t, 2437, 10)
	h.joinWith(intolerant, bssid, "airq-test", intolElems, wmmElem)
	h.air(h.mgmt(ieee80211.SubtypeDeauth, intolerant))
	h.advance(49 * time.Second)
	h.checkWidth(20)
	h.joinWith(intolerant, bssid, "airq-test", intolElems, wmmElem)
	h.advance(10 * time.Second)
	h.checkWidth(20)
	// The radio stays tuned to its pair: a trip home from a scan must not
	// leave it at 20 MHz once 40 MHz is back.
	if p := h.a.TunedConfig().PHY; p.Width != 40 || p.Secondary != 1 {
		t.Errorf("tuned at %d MHz, secondary %d: want the 40 MHz pair", p.Width, p.Secondary)
	}
	h.air(h.mgmt(ieee80211.SubtypeDeauth, intolerant))
	left := h.now
	for h.a.Config().PHY.Width == 20 && h.now < left+time.Minute {
		h.advance(h.a.Deadline() - h.now)
	}
	if d := h.now - left; d < 50*time.Second || d > 50*time.Second+time.Second {
		t.Errorf("40 MHz back %v after the station left, want 50 s", d)
	}
	h.checkWidth(40)
}

// TestIntolerantOn5GHzChangesNothing: hostapd's ht40_intolerant_add acts
// on 2.4 GHz alone.
func TestIntolerantOn5GHzChangesNothing(t *testing.T) {
	h := coexHarness(t, 5180, 0)
	h.joinWith(intolerant, bssid, "airq-test", intolElems, wmmElem)
	if ev := h.widthEvents(); len(ev) != 0 {
		t.Errorf("events %+v", ev)
	}
	h.checkWidth(40)
}

// coexFrame is a 20/40 BSS Coexistence Management frame from sender to
// the first BSS.
func (h *harness) coexFrame(from ieee80211.MAC, body []byte) []byte {
	f := ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAction, bssid, from, bssid, h.nextSeq())
	return append(f, body...)
}

// TestCoexMgmtFrame follows hostapd_2040_coex_action: the 20 MHz BSS Width
// Request counts from an associated station alone, the 40 MHz Intolerant
// bit and an intolerant channel in the affected range other than our
// primary from anyone; malformed frames are counted and change nothing.
func TestCoexMgmtFrame(t *testing.T) {
	stranger := ieee80211.MAC{0x02, 0xee, 0, 0, 0, 9}
	for _, tc := range []struct {
		name      string
		from      ieee80211.MAC
		body      []byte
		to20      bool
		malformed bool
	}{
		{name: "width request, associated", from: tolerant, body: ieee80211.AppendCoex2040Mgmt(nil, ieee80211.Coex2040WidthRequest, 0), to20: true},
		{name: "width request, stranger", from: stranger, body: ieee80211.AppendCoex2040Mgmt(nil, ieee80211.Coex2040WidthRequest, 0)},
		{name: "width request, another BSS's station", from: coexGuest, body: ieee80211.AppendCoex2040Mgmt(nil, ieee80211.Coex2040WidthRequest, 0)},
		{name: "intolerant bit, stranger", from: stranger, body: ieee80211.AppendCoex2040Mgmt(nil, ieee80211.Coex2040Intolerant, 0), to20: true},
		{name: "channel 11 reported", from: stranger, body: ieee80211.AppendCoex2040Mgmt(nil, 0, 81, 11), to20: true},
		{name: "channel at the range's start", from: stranger, body: ieee80211.AppendCoex2040Mgmt(nil, 0, 81, 1, 3), to20: true},
		{name: "channel at the range's end", from: stranger, body: ieee80211.AppendCoex2040Mgmt(nil, 0, 81, 13), to20: true},
		{name: "our primary reported", from: stranger, body: ieee80211.AppendCoex2040Mgmt(nil, 0, 81, 6)},
		{name: "channels outside reported", from: stranger, body: ieee80211.AppendCoex2040Mgmt(nil, 0, 81, 1, 2, 14)},
		{name: "information request alone", from: tolerant, body: ieee80211.AppendCoex2040Mgmt(nil, ieee80211.Coex2040InfoRequest, 0)},
		{name: "truncated report", from: tolerant, body: []byte{4, 0, 72, 1, 0x04, 73, 4, 81, 11}, malformed: true},
		{name: "no element", from: tolerant, body: []byte{4, 0}, malformed: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := coexHarness(t, 2437, 0)
			bad := h.a.Counters()[counter.RxMalformed]
			h.air(h.coexFrame(tc.from, tc.body))
			if got := h.a.Config().PHY.Width == 20; got != tc.to20 {
				t.Errorf("20 MHz %v, want %v", got, tc.to20)
			}
			if got := h.a.Counters()[counter.RxMalformed] - bad; got != map[bool]uint64{true: 1}[tc.malformed] {
				t.Errorf("rx_malformed +%d", got)
			}
			if ev := h.widthEvents(); tc.to20 && (len(ev) != 1 || ev[0].Addr != tc.from) {
				t.Errorf("events %+v", ev)
			}
			// With obss_interval 0 nothing brings 40 MHz back (hostapd
			// schedules no timeout).
			h.advance(10 * time.Minute)
			if got := h.a.Config().PHY.Width == 20; got != tc.to20 {
				t.Errorf("after 10 minutes: 20 MHz %v", got)
			}
		})
	}
}

// TestCoexMgmtRestoreAfterOBSSInterval: with obss_interval set, 40 MHz
// comes back 5 × obss_interval after the last frame that asked for 20 MHz.
func TestCoexMgmtRestoreAfterOBSSInterval(t *testing.T) {
	h := coexHarness(t, 2437, 2)
	req := ieee80211.AppendCoex2040Mgmt(nil, ieee80211.Coex2040WidthRequest, 0)
	h.air(h.coexFrame(tolerant, req))
	h.advance(9 * time.Second)
	h.air(h.coexFrame(tolerant, req))
	at := h.now
	h.advance(9 * time.Second)
	h.checkWidth(20)
	for h.a.Config().PHY.Width == 20 && h.now < at+time.Minute {
		h.advance(h.a.Deadline() - h.now)
	}
	if d := h.now - at; d < 10*time.Second || d > 11*time.Second {
		t.Errorf("40 MHz back %v after the last frame, want 10 s", d)
	}
	h.checkWidth(40)
}

// TestOBSSIntervalAdvertised: with obss_interval, as hostapd, every BSS's
// beacon carries the Overlapping BSS Scan Parameters element right after
// the HT Capabilities, with that scan interval and the standard's
// defaults, and the Extended Capabilities' 20/40 BSS Coexistence
// Management bit; without it, neither.
func TestOBSSIntervalAdvertised(t *testing.T) {
	for _, obss := range []int{0, 300} {
		h := coexHarness(t, 2437, obss)
		h.take()
		for id, ies := range h.beaconElems() {
			p, ok := ies.Find(ieee80211.ElemOBSSScanParams)
			ext, _ := ies.Find(ieee80211.ElemExtCap)
			coexBit := len(ext) > 0 && ext[0]&0x01 != 0
			if obss == 0 {
				if ok || coexBit {
					t.Errorf("%s without obss_interval: element %x, coexistence bit %v", id, p, coexBit)
				}
				continue
			}
			want := []byte{20, 0, 10, 0, 0x2c, 0x01, 200, 0, 20, 0, 5, 0, 25, 0}
			if !ok || string(p) != string(want) || !coexBit {
				t.Errorf("%s with obss_interval 300: element %x, want %x; coexistence bit %v", id, p, want, coexBit)
			}
			var order []uint8
			it := ies.Iter()
			for it.Next() {
				order = append(order, it.ID())
			}
			if i := slices.Index(order, ieee80211.ElemHTCap); i < 0 || i+1 >= len(order) || order[i+1] != ieee80211.ElemOBSSScanParams {
				t.Errorf("%s: elements in order %v", id, order)
			}
		}
	}
}

// TestReassociatingIntolerantStationKeeps20MHz: an associated 40 MHz
// Intolerant station that reassociates again and again keeps the radio at
// 20 MHz, as hostapd keeps ht40_intolerant_set until the station is gone:
// no switch, and no rebuilding of every BSS's elements, per request.
func TestReassociatingIntolerantStationKeeps20MHz(t *testing.T) {
	h := coexHarness(t, 2437, 0)
	h.joinWith(intolerant, bssid, "airq-test", intolElems, wmmElem)
	h.takeEvents()
	w0 := h.a.Counters()[counter.WidthChanges]
	for i := 0; i < 10; i++ {
		h.take()
		req := ieee80211.AppendAssocReq(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAssocReq, bssid, intolerant, bssid, h.nextSeq()), 0x0421, 10)
		req = ieee80211.AppendRates(ieee80211.AppendSSID(req, "airq-test"), gRates)
		req = append(req, intolElems...)
		req = append(req, wmmElem...)
		h.air(req)
		out, _ := h.take()
		ar, raw := h.assocResp(out, intolerant)
		if o, ok := ieee80211.Elements(ar.Elements()).HTOper(); ok && o.SecondaryOffset() != ieee80211.HTOperSecondaryNone {
			t.Errorf("round %d: association response to the intolerant station announces secondary offset %d", i, o.SecondaryOffset())
		}
		h.echo(raw, radio.TxStatus{Acked: true})
	}
	if n := h.a.Counters()[counter.WidthChanges] - w0; n != 0 {
		t.Errorf("10 reassociations of an intolerant station: %d width changes, events %d", n, len(h.widthEvents()))
	}
	h.checkWidth(20)
}

// hostapd_2040_coex_action returns at once ("Ignore intra-BSS ... from
// not-associated STA") when the 20 MHz BSS Width Request bit comes from a
// sender not associated with the BSS: the Intolerant bit and the channel
// reports of that frame are never looked at.
func TestCoexWidthRequestFromAStrangerIgnoredWhole(t *testing.T) {
	stranger := ieee80211.MAC{0x02, 0xee, 0, 0, 0, 9}
	for name, body := range map[string][]byte{
		"width request + intolerant": ieee80211.AppendCoex2040Mgmt(nil, ieee80211.Coex2040WidthRequest|ieee80211.Coex2040Intolerant, 0),
		"width request + channel 11": ieee80211.AppendCoex2040Mgmt(nil, ieee80211.Coex2040WidthRequest, 81, 11),
	} {
		h := coexHarness(t, 2437, 0)
		h.air(h.coexFrame(stranger, body))
		if h.a.Config().PHY.Width == 20 {
			t.Errorf("%s from a stranger: radio made 20 MHz; hostapd ignores the frame", name)
		}
		h2 := coexHarness(t, 2437, 0)
		h2.air(h2.coexFrame(coexGuest, body)) // associated with the guest BSS, not the first
		if h2.a.Config().PHY.Width == 20 {
			t.Errorf("%s from another BSS's station: radio made 20 MHz; hostapd ignores the frame", name)
		}
	}
}
