package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/ctl"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
)

// The HT Operation element's protection is the radio's, as hostapd
// counts it in its hostapd_iface: a station of any BSS of the radio
// changes what every HT BSS of it announces.

// opModes returns the operation mode of the next beacon's HT Operation
// element of each BSS that has one.
func (h *harness) opModes() map[ieee80211.MAC]uint16 {
	h.t.Helper()
	got := map[ieee80211.MAC]uint16{}
	for id, ies := range h.beaconElems() {
		if o, ok := ies.HTOper(); ok {
			got[id] = o.OpMode()
		}
	}
	return got
}

// assocOpMode is the operation mode of an association response's HT
// Operation element.
func assocOpMode(t *testing.T, ar ieee80211.AssocResp) uint16 {
	t.Helper()
	o, ok := ar.Elements().HTOper()
	if !ok {
		t.Fatal("association response: no HT Operation element")
	}
	return o.OpMode()
}

// TestLegacyGuestProtectsMainBSS: on an HT radio, a station that joins
// the guest BSS, whose HT is off (disable_11n), is a non-HT station of
// the radio: the main BSS's next beacon announces mixed mode with the
// OBSS non-HT bit, as hostapd's update_ht_state counts it for the
// interface; when it leaves, the main BSS's beacons return to no
// protection.
func TestLegacyGuestProtectsMainBSS(t *testing.T) {
	cfg := amsduConfig()
	cfg.BSSes = []BSSConfig{{BSSID: guest2ID, SSID: "guest", NoHT: true}}
	h := newHarness(t, cfg)
	if got := h.opModes(); len(got) != 1 || got[bssid] != 0 {
		t.Fatalf("beacons before any station: operation modes %v, want the main BSS's 0 alone", got)
	}
	guest := ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}
	h.joinWith(guest, guest2ID, "guest", htElems, wmmElem) // HT capable, but its BSS's HT is off
	want := uint16(bss.HTProtMixed | bss.HTOpModeOBSSNoHT)
	if got := h.opModes(); got[bssid] != want {
		t.Errorf("main BSS's beacon with a station on the guest BSS: operation mode %#x, want %#x", got[bssid], want)
	}
	h.air(ieee80211.AppendDeauth(h.guestMgmt(ieee80211.SubtypeDeauth, guest), ieee80211.ReasonDeauthLeaving))
	if got := h.opModes(); got[bssid] != 0 {
		t.Errorf("main BSS's beacon once the guest station left: operation mode %#x, want 0", got[bssid])
	}
}

// TestNonHTStationProtectsEveryBSS: a non-HT station of the main BSS
// puts every HT BSS of the radio in mixed mode, the association
// response that admits it says so already (hostapd counts it before it
// answers), and an HT station's response in the other BSS too; once it
// disassociates, both return to no protection.
func TestNonHTStationProtectsEveryBSS(t *testing.T) {
	cfg := amsduConfig()
	cfg.BSSes = []BSSConfig{{BSSID: guest2ID, SSID: "guest"}}
	h := newHarness(t, cfg)
	legacy := ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}
	h.joinWith(legacy, bssid, "airq-test", wmmElem) // no HT Capabilities
	want := uint16(bss.HTProtMixed | bss.HTOpModeOBSSNoHT)
	for id, m := range h.opModes() {
		if m != want {
			t.Errorf("%s's beacon with a non-HT station on the radio: operation mode %#x, want %#x", id, m, want)
		}
	}
	ht := ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}
	// The HT station cannot receive greenfield (htElems has no such bit).
	if m := assocOpMode(t, h.joinWith(ht, guest2ID, "guest", htElems, wmmElem)); m != want|bss.HTOpModeNonGF {
		t.Errorf("guest BSS's association response: operation mode %#x, want %#x", m, want|bss.HTOpModeNonGF)
	}
	h.air(ieee80211.AppendDeauth(h.mgmt(ieee80211.SubtypeDisassoc, legacy), ieee80211.ReasonDisassocLeaving))
	for id, m := range h.opModes() {
		if m != bss.HTOpModeNonGF {
			t.Errorf("%s's beacon once the non-HT station left: operation mode %#x, want %#x (the HT station's non-greenfield bit)", id, m, bss.HTOpModeNonGF)
		}
	}
}

// TestHT20StationOn40MHzChannel: a 20 MHz HT station makes a 20/40 MHz
// radio announce 20 MHz protection, and its own association response
// says so; on a 20 MHz channel it changes nothing but the
// non-greenfield bit.
func TestHT20StationOn40MHzChannel(t *testing.T) {
	for _, c := range []struct {
		name string
		phy  bss.PHY
		want uint16
	}{
		{"HT40+", bss.PHY{HT: true, Width: 40, Secondary: 1}, bss.HTProt20MHz | bss.HTOpModeNonGF},
		{"HT20", bss.PHY{HT: true}, bss.HTOpModeNonGF},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := amsduConfig()
			cfg.Channel, cfg.PHY = 6, c.phy
			h := newHarness(t, cfg)
			if m := assocOpMode(t, h.joinWith(staMAC, bssid, "airq-test", htElems, wmmElem)); m != c.want {
				t.Errorf("association response: operation mode %#x, want %#x", m, c.want)
			}
			if m := h.opModes()[bssid]; m != c.want {
				t.Errorf("beacon: operation mode %#x, want %#x", m, c.want)
			}
		})
	}
}

// foreignBeacon is a beacon of another BSS, from, on channel ch, with
// rates and extra elements after its DS Parameter Set.
func (h *harness) foreignBeacon(from ieee80211.MAC, ch uint8, rates []byte, extra ...[]byte) []byte {
	b := ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeBeacon, ieee80211.Broadcast, from, from, h.nextSeq())
	b = ieee80211.AppendBeaconFixed(b, 0, 100, bss.CapESS)
	b = ieee80211.AppendDSParams(ieee80211.AppendRates(ieee80211.AppendSSID(b, "neighbour"), rates), ch)
	for _, e := range extra {
		b = append(b, e...)
	}
	return b
}

// TestNonHTBSSHeard: a beacon without HT heard on the primary or the
// secondary channel of a 20/40 MHz radio makes every HT BSS of it
// announce non-member protection with the OBSS non-HT bit (hostapd's
// olbc_ht), until none was heard for 60 s; a beacon with HT, or of a
// channel the radio does not cover, changes nothing.
func TestNonHTBSSHeard(t *testing.T) {
	cfg := amsduConfig()
	cfg.Channel, cfg.PHY = 6, bss.PHY{HT: true, Width: 40, Secondary: 1}
	cfg.BSSes = []BSSConfig{{BSSID: guest2ID, SSID: "guest"}}
	h := newHarness(t, cfg)
	other := ieee80211.MAC{0x02, 0xaa, 0, 0, 0, 1}
	protected := uint16(bss.HTProtNonMember | bss.HTOpModeOBSSNoHT)
	for _, c := range []struct {
		name   string
		beacon []byte
		want   uint16
	}{
		{"HT beacon on the primary", h.foreignBeacon(other, 6, gRates, htElems), 0},
		{"non-HT beacon on channel 1", h.foreignBeacon(other, 1, gRates), 0},
		{"non-HT beacon on the secondary", h.foreignBeacon(other, 10, gRates), protected},
		{"non-HT beacon on the primary", h.foreignBeacon(other, 6, gRates), protected},
	} {
		h.air(c.beacon)
		for id, m := range h.opModes() {
			if m != c.want {
				t.Errorf("after a %s: %s's operation mode %#x, want %#x", c.name, id, m, c.want)
			}
		}
		if c.want != 0 {
			h.advance(overlapExpiry - 2*time.Second)
			if m := h.opModes()[bssid]; m != c.want {
				t.Errorf("%v after a %s: operation mode %#x, want %#x still", overlapExpiry-2*time.Second, c.name, m, c.want)
			}
			h.advance(2 * time.Second)
			if m := h.opModes()[bssid]; m != 0 {
				t.Errorf("%v after a %s: operation mode %#x, want 0", overlapExpiry, c.name, m)
			}
		}
	}
}

// beaconERPOf returns the Capability field and the ERP element of BSS
// id's next beacon.
func (h *harness) beaconERPOf(id ieee80211.MAC) (uint16, byte) {
	h.t.Helper()
	for range 100 {
		h.advance(h.a.Deadline() - h.now)
		out, _ := h.take()
		for _, f := range out {
			if _, fr := parsed(h.t, f); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeBeacon) && fr.Addr2() == id {
				bc, err := ieee80211.ParseBeacon(fr.Body())
				erp, ok := bc.Elements().Find(ieee80211.ElemERP)
				if err != nil || !ok || len(erp) != 1 {
					h.t.Fatalf("%s's beacon: no ERP element (%v)", id, err)
				}
				return bc.Capability(), erp[0]
			}
		}
	}
	h.t.Fatalf("no beacon of %s", id)
	return 0, 0
}

// TestShortSlotFollowsTheStationsCapability: an 802.11g station (OFDM
// rates, short preamble) whose capability lacks short slot time takes short
// slot time from the beacon and from its own association response, and asks
// for no protection, as hostapd counts num_sta_no_short_slot_time apart
// from num_sta_non_erp; with preamble=1 short preamble stays.
func TestShortSlotFollowsTheStationsCapability(t *testing.T) {
	h := newHarness(t, Config{ShortPreamble: true})
	h.take()
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x21, 1}
	resp := h.joinAs(sta, bssid, "airq-test", uint16(bss.CapESS|bss.CapShortPre), gRates)
	if c := resp.Capability(); c&bss.CapShortSlot != 0 || c&bss.CapShortPre == 0 {
		t.Errorf("association response: capability %#x, want short preamble without short slot time", c)
	}
	if c, erp := h.beaconERPOf(bssid); erp != 0 || c&bss.CapShortSlot != 0 || c&bss.CapShortPre == 0 {
		t.Errorf("beacon: capability %#x, ERP %#x; want short preamble, no short slot time, no protection", c, erp)
	}
	if st := h.a.Control(h.now, ctl.Request{Op: ctl.OpStatus}).Status; st.NumNoShortSlot != 1 || st.NumNonERP != 0 {
		t.Errorf("status: num_sta_no_short_slot_time %d, num_sta_non_erp %d, want 1 and 0", st.NumNoShortSlot, st.NumNonERP)
	}
}

// TestERPIsTheRadios: an 802.11b station with a long preamble on the
// guest BSS takes short slot time and short preamble (preamble=1) from the
// main BSS's Capability field and sets its ERP element's protection and
// Barker bits, as hostapd counts num_sta_non_erp and
// num_sta_no_short_preamble for the interface (STATUS on the main BSS's
// socket counts it too); when it leaves, they return.
func TestERPIsTheRadios(t *testing.T) {
	h := newHarness(t, Config{ShortPreamble: true, BSSes: []BSSConfig{{BSSID: guest2ID, SSID: "guest"}}})
	h.take()
	if c, erp := h.beaconERPOf(bssid); erp != 0 || c&bss.CapShortSlot == 0 || c&bss.CapShortPre == 0 {
		t.Fatalf("main BSS with no station: capability %#x, ERP %#x", c, erp)
	}
	sta := ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}
	h.joinAs(sta, guest2ID, "guest", legacyCapab, bRates)
	want := byte(bss.ERPNonERPPresent | bss.ERPUseProtection | bss.ERPBarker)
	if c, erp := h.beaconERPOf(bssid); erp != want || c&(bss.CapShortSlot|bss.CapShortPre) != 0 {
		t.Errorf("main BSS with an 802.11b station on the guest BSS: capability %#x, ERP %#x; want no short slot or preamble, ERP %#x", c, erp, want)
	}
	if st := h.a.Control(h.now, ctl.Request{Op: ctl.OpStatus}).Status; st.NumNonERP != 1 || st.NumNoShortPreamble != 1 {
		t.Errorf("status: num_sta_non_erp %d, num_sta_no_short_preamble %d, want 1 and 1", st.NumNonERP, st.NumNoShortPreamble)
	}
	h.air(ieee80211.AppendDeauth(h.guestMgmt(ieee80211.SubtypeDeauth, sta), ieee80211.ReasonDeauthLeaving))
	if c, erp := h.beaconERPOf(bssid); erp != 0 || c&bss.CapShortSlot == 0 || c&bss.CapShortPre == 0 {
		t.Errorf("main BSS once the station left: capability %#x, ERP %#x", c, erp)
	}
}

// TestRestartedBSSLeavesProtection: a guest BSS restarted alone (a
// SIGHUP that changed its section) takes its non-HT station out of the
// radio's counts with it: the main BSS's beacons return to no
// protection.
func TestRestartedBSSLeavesProtection(t *testing.T) {
	cfg := amsduConfig()
	cfg.BSSes = []BSSConfig{{BSSID: guest2ID, SSID: "guest", NoHT: true}}
	h := newHarness(t, cfg)
	h.joinWith(ieee80211.MAC{0x02, 0, 0, 0, 0x20, 1}, guest2ID, "guest", wmmElem)
	if m := h.opModes()[bssid]; m&bss.HTOpModeProtMask != bss.HTProtMixed {
		t.Fatalf("main BSS with a non-HT guest station: operation mode %#x, want mixed", m)
	}
	if err := h.a.RestartBSS(h.now, 1, BSSConfig{SSID: "guest2", NoHT: true}); err != nil {
		t.Fatal(err)
	}
	if m := h.opModes()[bssid]; m != 0 {
		t.Errorf("main BSS once the guest BSS restarted: operation mode %#x, want 0", m)
	}
}

// TestVHT80SecondaryIsThePrimarysPair: on an 80 MHz channel the HT
// Operation element's secondary channel, and STATUS's
// secondary_channel, are the other half of the primary's 40 MHz
// channel: above 44 (44 and 48), below 40 (36 and 40).
func TestVHT80SecondaryIsThePrimarysPair(t *testing.T) {
	for _, c := range []struct {
		ch   int
		want uint8
		sec  int
	}{{44, ieee80211.HTOperSecondaryAbove, 1}, {40, ieee80211.HTOperSecondaryBelow, -1}} {
		h := newHarness(t, Config{Channel: c.ch, WMM: true, PHY: bss.PHY{VHT: true, Width: 80}})
		o, ok := h.beaconElems()[bssid].HTOper()
		if !ok || o.SecondaryOffset() != c.want {
			t.Errorf("channel %d: HT Operation %v, secondary offset %d, want %d", c.ch, ok, o.SecondaryOffset(), c.want)
		}
		if st := h.a.Control(h.now, ctl.Request{Op: ctl.OpStatus}).Status; st.SecondaryChannel != c.sec {
			t.Errorf("channel %d: status secondary_channel %d, want %d", c.ch, st.SecondaryChannel, c.sec)
		}
	}
}

// Test80211bBSSHeard: a beacon of an 802.11b BSS (DSSS/CCK rates only,
// or an ERP element saying non-ERP stations are present) heard on the
// primary channel makes every BSS of the radio set its ERP element's
// Use_Protection bit (hostapd's olbc; Barker_Preamble_Mode is always set
// under the default preamble=0), until none was heard for 60 s; an
// 802.11g beacon, or one of another channel, changes nothing.
func Test80211bBSSHeard(t *testing.T) {
	h := newHarness(t, Config{BSSes: []BSSConfig{{BSSID: guest2ID, SSID: "guest"}}})
	h.take()
	other := ieee80211.MAC{0x02, 0xaa, 0, 0, 0, 1}
	bRates := []byte{0x82, 0x84, 0x8b, 0x96}
	for _, c := range []struct {
		name   string
		beacon []byte
		want   byte
	}{
		{"802.11g beacon", h.foreignBeacon(other, 1, gRates), 0},
		{"802.11b beacon on channel 6", h.foreignBeacon(other, 6, bRates), 0},
		{"802.11b beacon", h.foreignBeacon(other, 1, bRates), bss.ERPUseProtection},
		{"802.11g beacon with non-ERP stations", h.foreignBeacon(other, 1, gRates, ieee80211.AppendERP(nil, bss.ERPNonERPPresent)), bss.ERPUseProtection},
	} {
		h.air(c.beacon)
		for _, id := range []ieee80211.MAC{bssid, guest2ID} {
			if capab, erp := h.beaconERPOf(id); erp != c.want|bss.ERPBarker || capab&bss.CapShortSlot == 0 {
				t.Errorf("after an %s: %s's ERP %#x, capability %#x; want ERP %#x, short slot time", c.name, id, erp, capab, c.want|bss.ERPBarker)
			}
		}
		if c.want != 0 {
			h.advance(overlapExpiry)
			if _, erp := h.beaconERPOf(bssid); erp != bss.ERPBarker {
				t.Errorf("%v after an %s: ERP %#x, want Barker alone", overlapExpiry, c.name, erp)
			}
		}
	}
}

// TestOverlapBeaconAllocs: a neighbour's beacon heard on the channel
// costs no allocation.
func TestOverlapBeaconAllocs(t *testing.T) {
	cfg := amsduConfig()
	cfg.Channel, cfg.PHY = 6, bss.PHY{HT: true, Width: 40, Secondary: 1}
	h := newHarness(t, cfg)
	h.take()
	rx := radiotap.AppendRx(nil, radio.RxInfo{Freq: 2437, Signal: -60, HasSignal: true, Rate: radio.LegacyRate(1000)})
	rx = append(rx, h.foreignBeacon(ieee80211.MAC{0x02, 0xaa, 0, 0, 0, 1}, 6, gRates, ieee80211.AppendERP(nil, 0))...)
	step := func() {
		h.a.HandleRadio(h.now, rx)
		h.a.Flush(h.now, discard{})
	}
	if n := testing.AllocsPerRun(1000, step); n != 0 {
		t.Errorf("%.1f allocations per neighbour's beacon, want 0", n)
	}
	if !h.a.shared.HT.NonHTBSS {
		t.Error("the neighbour's beacon without HT was not taken")
	}
}

// An 802.11b station: long preamble and slot time, CCK rates alone.
var (
	legacyCapab = uint16(bss.CapESS)
	bRates      = []byte{0x82, 0x84, 0x8b, 0x96}
)

// TestStatusProtectionCounts: STATUS carries the radio's counts that
// hostapd's does: a 20 MHz, non-greenfield HT station that sets Forty MHz
// Intolerant counts in num_sta_ht_no_gf, num_sta_ht_20_mhz and
// num_sta_ht40_intolerant (and makes the radio 20 MHz, so no 20 MHz
// protection); an 802.11b station with long preamble and
// slot time in num_sta_non_erp, num_sta_no_short_slot_time,
// num_sta_no_short_preamble and num_sta_no_ht; ht_op_mode is the HT
// Operation element's operation mode; olbc and olbc_ht follow the
// overlapping legacy BSSes heard.
func TestStatusProtectionCounts(t *testing.T) {
	cfg := amsduConfig()
	cfg.Channel, cfg.PHY = 6, bss.PHY{HT: true, Width: 40, Secondary: 1}
	h := newHarness(t, cfg)
	status := func() ctl.Status { return *h.a.Control(h.now, ctl.Request{Op: ctl.OpStatus}).Status }
	if st := status(); st.NumNoHT != 0 || st.NumHTNoGF != 0 || st.HTOpMode != 0 || st.OLBC || st.OLBCHT {
		t.Fatalf("status with no station: %+v", st)
	}
	intolerant := ieee80211.AppendHTCap(nil, ieee80211.HTPHY{Streams: 1, Intolerant: true}.Cap())
	h.joinWith(ieee80211.MAC{0x02, 0, 0, 0, 0x10, 1}, bssid, "airq-test", intolerant, wmmElem)
	st := status()
	if st.NumHTNoGF != 1 || st.NumHT20 != 1 || st.NumHT40Intolerant != 1 || st.NumNoHT != 0 ||
		st.HTOpMode != bss.HTOpModeNonGF || st.SecondaryChannel != 0 {
		t.Errorf("with an intolerant 20 MHz HT station: no_gf %d, 20 MHz %d, intolerant %d, no HT %d, ht_op_mode %#x, secondary %d; want 1, 1, 1, 0, %#x, 0",
			st.NumHTNoGF, st.NumHT20, st.NumHT40Intolerant, st.NumNoHT, st.HTOpMode, st.SecondaryChannel, bss.HTOpModeNonGF)
	}
	h.joinAs(ieee80211.MAC{0x02, 0, 0, 0, 0x10, 2}, bssid, "airq-test", legacyCapab, bRates)
	st = status()
	want := uint16(bss.HTProtMixed | bss.HTOpModeNonGF | bss.HTOpModeOBSSNoHT)
	if st.NumNonERP != 1 || st.NumNoShortSlot != 1 || st.NumNoShortPreamble != 1 || st.NumNoHT != 1 || st.HTOpMode != want {
		t.Errorf("with an 802.11b station too: non_erp %d, no short slot %d, no short preamble %d, no HT %d, ht_op_mode %#x; want 1, 1, 1, 1, %#x",
			st.NumNonERP, st.NumNoShortSlot, st.NumNoShortPreamble, st.NumNoHT, st.HTOpMode, want)
	}
	h.air(h.foreignBeacon(ieee80211.MAC{0x02, 0xee, 0, 0, 0, 1}, 6, bRates))
	if st := status(); !st.OLBC || !st.OLBCHT {
		t.Errorf("after an 802.11b beacon on the channel: olbc %v, olbc_ht %v; want both", st.OLBC, st.OLBCHT)
	}
}
