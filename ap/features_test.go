package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

var staB = ieee80211.MAC{0x02, 0, 0, 0, 0x01, 0x02}

func TestReplyBudgetSurvivesProbeFlood(t *testing.T) {
	h := newHarness(t, Config{})
	h.take()
	for i := range 1000 {
		from := ieee80211.MAC{0x02, 0xf1, 0, 0, byte(i >> 8), byte(i)}
		h.air(ieee80211.AppendProbeReq(nil, from, "", gRates, h.nextSeq()))
	}
	out, _ := h.take()
	// The 30 ms burst minus the reserve at 1 Mbit/s is a handful of
	// responses, far from 1000.
	if len(out) == 0 || len(out) > 20 || h.a.Counters()[counter.RepliesThrottled] < 980 {
		t.Fatalf("%d probe responses to 1000 probes at once", len(out))
	}
	// The reserve still lets a station in.
	if aid := h.join(staMAC, false); aid == 0 {
		t.Fatal("no association during the flood")
	}
	// Over a second the budget refills at 10% of airtime.
	h.advance(time.Second)
	h.take()
	for i := range 100 {
		h.air(ieee80211.AppendProbeReq(nil, ieee80211.MAC{0x02, 0xf2, 0, 0, 0, byte(i)}, "", gRates, h.nextSeq()))
	}
	out, _ = h.take()
	if len(out) < 5 {
		t.Errorf("%d responses after the budget refilled", len(out))
	}
}

func TestAuthFloodCannotLockStationsOut(t *testing.T) {
	h := newHarness(t, Config{ReplyAirtime: 1}) // the reply budget is not the limit here
	h.take()
	for i := range maxAID + 500 {
		h.now += time.Millisecond
		h.auth(ieee80211.MAC{0x02, 0xf3, 0, 0, byte(i >> 8), byte(i)}, 0, 1)
		h.take()
	}
	if c := h.a.Counters(); c[counter.AuthEvicted] != 500 || c[counter.RepliesThrottled] != 0 {
		t.Errorf("%d evictions, %d replies throttled", c[counter.AuthEvicted], c[counter.RepliesThrottled])
	}
	// The table is full of stations only authenticated: a real station
	// takes the oldest one's slot.
	h.now += 100 * time.Millisecond
	if aid := h.join(staMAC, false); aid == 0 {
		t.Fatal("a real station could not associate after the flood")
	}
}

func beaconERP(t *testing.T, h *harness) (uint16, byte) {
	h.advance(h.a.nextBeacon - h.now)
	out, _ := h.take()
	for _, b := range out {
		if _, fr := parsed(t, b); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) {
			bc, _ := ieee80211.ParseBeacon(fr.Body())
			erp, _ := bc.Elements().Find(ieee80211.ElemERP)
			return bc.Capability(), erp[0]
		}
	}
	t.Fatal("no beacon")
	return 0, 0
}

// TestERPProtectionFollows11bStations: with preamble=1 an 802.11b station
// takes short slot time and short preamble away and asks for protection.
func TestERPProtectionFollows11bStations(t *testing.T) {
	h := newHarness(t, Config{ShortPreamble: true})
	h.take()
	h.join(staMAC, false)
	if capab, erp := beaconERP(t, h); erp != 0 || capab&bss.CapShortSlot == 0 {
		t.Fatalf("ERP %#x capability %#x with only an ERP station", erp, capab)
	}
	// Station entries carry the BSS's parameters, as mac80211's do.
	bssParam := func() ctl.Station {
		r := h.a.Control(h.now, ctl.Request{Op: ctl.OpStationGet, Addr: staMAC})
		if len(r.Stations) != 1 {
			t.Fatalf("station get: %+v", r)
		}
		return r.Stations[0]
	}
	if st := bssParam(); st.DTIMPeriod != 2 || st.BeaconInterval != 100 || st.CTSProtection || !st.BSSShortPreamble || !st.ShortSlotTime {
		t.Errorf("BSS parameters with only an ERP station: %+v", st)
	}
	h.auth(staB, 0, 1)
	b := ieee80211.AppendAssocReq(h.mgmt(ieee80211.SubtypeAssocReq, staB), 0x0001, 10) // long preamble
	b = ieee80211.AppendSSID(b, "airq-test")
	h.air(ieee80211.AppendRates(b, []byte{0x82, 0x84, 0x8b, 0x96}))
	if capab, erp := beaconERP(t, h); erp != 0 || capab&bss.CapShortSlot == 0 {
		t.Fatalf("ERP %#x capability %#x before the 802.11b station acknowledged its association", erp, capab)
	}
	h.auth(staB, 0, 1)
	h.air(ieee80211.AppendRates(b, []byte{0x82, 0x84, 0x8b, 0x96}))
	h.acceptAssoc(staB)
	capab, erp := beaconERP(t, h)
	if erp != bss.ERPNonERPPresent|bss.ERPUseProtection|bss.ERPBarker || capab&(bss.CapShortSlot|bss.CapShortPre) != 0 {
		t.Errorf("ERP %#x capability %#x with an 802.11b station", erp, capab)
	}
	if st := bssParam(); !st.CTSProtection || st.BSSShortPreamble || st.ShortSlotTime {
		t.Errorf("BSS parameters with an 802.11b station: %+v", st)
	}
	h.air(ieee80211.AppendDeauth(h.mgmt(ieee80211.SubtypeDeauth, staB), ieee80211.ReasonDeauthLeaving))
	if _, erp := beaconERP(t, h); erp != 0 {
		t.Errorf("ERP %#x after the 802.11b station left", erp)
	}
}

func TestBeaconTimingStats(t *testing.T) {
	h := newHarness(t, Config{})
	out, _ := h.take()
	h.now += time.Millisecond
	h.echo(out[0], radio.TxStatus{Acked: true})
	h.advance(102400*time.Microsecond + 3*time.Millisecond - h.now) // the loop ran 3 ms late
	late, _ := h.take()
	h.now += time.Millisecond
	h.echo(late[0], radio.TxStatus{Acked: true})
	b := h.a.Beacons()
	if b.Emitted != 2 || b.EmitLateMax != 3*time.Millisecond || b.Echoed != 2 || b.EchoLateMax != 4*time.Millisecond || b.EchoLateSum != 5*time.Millisecond {
		t.Errorf("%+v", b)
	}
}

func TestAPIsolationSendsStationTrafficToTheWire(t *testing.T) {
	for _, isolate := range []bool{false, true} {
		h := newHarness(t, Config{APIsolate: isolate})
		h.take()
		h.join(staMAC, false)
		h.join(staB, false)
		h.air(h.upIPv4(staMAC, staB, 0, false))
		out, wired := h.take()
		toSta2 := len(dataFrames(t, out)) == 1
		if toSta2 == isolate || (len(wired) == 1) != isolate {
			t.Errorf("isolate=%v: %d frames to the other station, %d to the wire", isolate, len(dataFrames(t, out)), len(wired))
		}
	}
}

func TestMulticastToUnicast(t *testing.T) {
	h := newHarness(t, Config{MulticastToUnicast: true})
	h.take()
	h.join(staMAC, false)
	h.join(staB, false)
	arp := append(ieee80211.AppendEtherHdr(nil, ieee80211.Broadcast, host, 0x0806), make([]byte, 28)...)
	h.wire(arp)
	out, _ := h.take()
	d := dataFrames(t, out)
	if len(d) != 2 {
		t.Fatalf("%d frames, want one per station", len(d))
	}
	got := map[ieee80211.MAC]bool{d[0].Addr1(): true, d[1].Addr1(): true}
	if !got[staMAC] || !got[staB] {
		t.Errorf("copies went to %v", got)
	}
	if !h.a.Accounted() {
		t.Error("not accounted")
	}
}

func TestBeaconRate(t *testing.T) {
	h := newHarness(t, Config{BeaconRate: 11000})
	out, _ := h.take()
	if rx, _ := parsed(t, out[0]); rx.Rate.Kbps() != 11000 {
		t.Errorf("beacon at %d kbit/s", rx.Rate.Kbps())
	}
	if _, err := New(Config{SSID: "x", BSSID: bssid, Channel: 1, BeaconRate: 54000}); err == nil {
		t.Error("a beacon rate that is not basic was accepted")
	}
}

// BenchmarkAuthFlood measures the core's cost per authentication from a new
// address once the station table is full: it must stay flat (eviction is
// O(1)) and allocate nothing.
func BenchmarkAuthFlood(b *testing.B) {
	h := newHarness(&testing.T{}, Config{ReplyAirtime: 1})
	frames := make([][]byte, 4096)
	for i := range frames {
		from := ieee80211.MAC{0x02, 0xf3, 0, 0, byte(i >> 8), byte(i)}
		f := ieee80211.AppendAuth(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, bssid, from, bssid, 1), 0, 1, 0)
		frames[i] = append(radiotapRx(), f...)
	}
	for i := range maxAID + 100 { // fill the table
		h.now += time.Millisecond
		h.a.HandleRadio(h.now, frames[i%len(frames)])
		h.a.Flush(h.now, discard{})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.now += time.Microsecond
		h.a.HandleRadio(h.now, frames[i%len(frames)])
		h.a.Flush(h.now, discard{})
	}
}

// TestRateControlClimbs: with every frame acknowledged at once, rate
// selection settles on the best rate the station advertised; with HT on
// and an HT station it uses HT MCS rates.
func TestRateControlClimbs(t *testing.T) {
	for _, c := range []struct {
		name string
		phy  bss.PHY
		ht   bool
		want func(radio.Rate) bool
	}{
		{"legacy", bss.PHY{}, false, func(r radio.Rate) bool { return r.Mode == radio.ModeLegacy && r.Kbps() == 54000 }},
		{"HT20", bss.PHY{HT: true, SGI20: true}, true, func(r radio.Rate) bool { return r.Mode == radio.ModeHT && r.MCS == 7 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, Config{WMM: true, PHY: c.phy})
			h.take()
			h.auth(staMAC, 0, 1)
			b := ieee80211.AppendAssocReq(h.mgmt(ieee80211.SubtypeAssocReq, staMAC), 0x0421, 10)
			b = ieee80211.AppendSSID(b, "airq-test")
			b = ieee80211.AppendRates(b, gRates)
			if c.ht {
				b = ieee80211.AppendHTCap(b, ieee80211.HTPHY{Streams: 1, SGI20: true}.Cap())
			}
			h.air(ieee80211.AppendWMMInfo(b, 0))
			out, _ := h.take()
			ar, raw := h.assocResp(out, staMAC)
			h.echo(raw, radio.TxStatus{Acked: true})
			if _, ok := ar.Elements().HTCap(); ok != c.ht {
				t.Errorf("HT capabilities in the association response: %v", ok)
			}
			var last radio.Rate
			for range 2000 {
				h.now += time.Millisecond
				h.wire(eth(staMAC, host, 0))
				out, _ := h.take()
				for _, f := range out {
					rx, fr := parsed(t, f)
					if fr.Type() == ieee80211.TypeData {
						last = rx.Rate
						h.echo(f, radio.TxStatus{Acked: true, Rate: rx.Rate})
					}
				}
			}
			if !c.want(last) {
				t.Errorf("settled on %+v", last)
			}
		})
	}
}
