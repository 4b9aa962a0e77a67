package bss

import (
	"testing"

	"github.com/airq/airq/internal/ieee80211"
)

// TestERPFollowsStations: an 802.11b station takes short slot time away and
// asks for protection, a long-preamble one short preamble where the radio
// allows it (preamble=1), on 2.4 GHz only, and both come back when they
// leave.
func TestERPFollowsStations(t *testing.T) {
	e := ERP{ShortPreamble: true}
	dot11b := ERPClass{NonERP: true, LongPreamble: true, NoShortSlot: true}
	if c := e.Capability(CapESS, true); c != CapESS|CapShortPre|CapShortSlot || e.Flags() != 0 {
		t.Fatalf("empty BSS: capability %#x, ERP %#x", c, e.Flags())
	}
	if c := e.With(ERPClass{NonERP: true, NoShortSlot: true}).Capability(CapESS, true); c != CapESS|CapShortPre {
		t.Errorf("with an 802.11b station being admitted: %#x", c)
	}
	if e != (ERP{ShortPreamble: true}) {
		t.Fatalf("With changed the counts: %+v", e)
	}
	e.Join(dot11b)
	if c := e.Capability(CapESS, true); c != CapESS {
		t.Errorf("802.11b station with long preamble: capability %#x", c)
	}
	if f := e.Flags(); f != ERPNonERPPresent|ERPUseProtection|ERPBarker {
		t.Errorf("ERP %#x", f)
	}
	if c := e.Capability(CapESS|CapPrivacy, false); c != CapESS|CapPrivacy {
		t.Errorf("5 GHz: capability %#x, want the base alone", c)
	}
	e.Leave(dot11b)
	if e != (ERP{ShortPreamble: true}) {
		t.Errorf("counts after leaving: %+v", e)
	}
}

// TestShortSlotFollowsCapability: as in hostapd, the short slot time bit
// follows the stations whose capability lacks it (num_sta_no_short_slot_time),
// not the stations without OFDM rates: an 802.11g station without short
// slot time takes it away without asking for protection.
func TestShortSlotFollowsCapability(t *testing.T) {
	e := ERP{ShortPreamble: true}
	longSlotG := ERPClass{NoShortSlot: true}
	e.Join(longSlotG)
	if c := e.Capability(CapESS, true); c != CapESS|CapShortPre {
		t.Errorf("802.11g station without short slot time: capability %#x, want short preamble only", c)
	}
	if f := e.Flags(); f != 0 {
		t.Errorf("802.11g station without short slot time: ERP %#x, want none", f)
	}
	if e.NoShortSlot != 1 || e.NonERP != 0 {
		t.Errorf("counts %+v", e)
	}
	e.Leave(longSlotG)
	if c := e.Capability(CapESS, true); c != CapESS|CapShortPre|CapShortSlot {
		t.Errorf("after it left: capability %#x", c)
	}
}

// TestLongPreambleByDefault: without preamble=1 (hostapd's default,
// LONG_PREAMBLE) the Capability field never has short preamble and the ERP
// element always asks for the long one (Barker_Preamble_Mode), even with
// every station able to use the short one, as hostapd's
// hostapd_own_capab_info and ieee802_11_erp_info; the other bits still
// follow the stations.
func TestLongPreambleByDefault(t *testing.T) {
	var e ERP
	if c, f := e.Capability(CapESS, true), e.Flags(); c != CapESS|CapShortSlot || f != ERPBarker {
		t.Errorf("empty BSS: capability %#x, ERP %#x; want short slot alone and Barker", c, f)
	}
	e.Join(ERPClass{NonERP: true, LongPreamble: true, NoShortSlot: true})
	if c, f := e.Capability(CapESS, true), e.Flags(); c != CapESS || f != ERPNonERPPresent|ERPUseProtection|ERPBarker {
		t.Errorf("with an 802.11b station: capability %#x, ERP %#x", c, f)
	}
}

// TestBSSCapabilityFollowsPreamble: a BSS's beacon capability, an
// association response's and its ERP element follow the radio's
// preamble: long by default, short with preamble=1 while every station
// has it.
func TestBSSCapabilityFollowsPreamble(t *testing.T) {
	b := testBSS(false)
	air := Air{Channel: 1, Freq: 2412}
	erpOf := func() []byte {
		body, _ := ieee80211.Elements(b.AppendTail(nil, &air, false, nil, false)).Find(ieee80211.ElemERP)
		return body
	}
	g := ERPClass{}
	if c, w, erp := b.Capability(2412), b.CapabilityWith(2412, g), erpOf(); c&CapShortPre != 0 || w&CapShortPre != 0 || len(erp) != 1 || erp[0] != ERPBarker {
		t.Errorf("preamble=0: capability %#x, association response's %#x, ERP % x; want no short preamble, Barker", c, w, erp)
	}
	b.shared().ERP.ShortPreamble = true
	if c, w, erp := b.Capability(2412), b.CapabilityWith(2412, g), erpOf(); c&CapShortPre == 0 || w&CapShortPre == 0 || len(erp) != 1 || erp[0] != 0 {
		t.Errorf("preamble=1: capability %#x, association response's %#x, ERP % x; want short preamble, no Barker", c, w, erp)
	}
	if w := b.CapabilityWith(2412, ERPClass{LongPreamble: true}); w&CapShortPre != 0 {
		t.Errorf("preamble=1, a long-preamble station admitted: association response's capability %#x", w)
	}
}

// TestDTIMCountsDown: with period 3 the first beacon is a DTIM, then counts
// 2, 1, 0 repeat.
func TestDTIMCountsDown(t *testing.T) {
	var d DTIM
	var got []int
	for range 7 {
		got = append(got, d.Count())
		d.Beaconed(3)
	}
	want := []int{0, 2, 1, 0, 2, 1, 0}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("DTIM counts %v, want %v", got, want)
		}
	}
}
