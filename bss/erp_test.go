package bss

import "testing"

// TestERPFollowsStations: an 802.11b station takes short slot time away and
// asks for protection, a long-preamble one short preamble, on 2.4 GHz only,
// and both come back when they leave.
func TestERPFollowsStations(t *testing.T) {
	var e ERP
	dot11b := ERPClass{NonERP: true, LongPreamble: true, NoShortSlot: true}
	if c := e.Capability(CapESS, true); c != CapESS|CapShortPre|CapShortSlot || e.Flags() != 0 {
		t.Fatalf("empty BSS: capability %#x, ERP %#x", c, e.Flags())
	}
	if c := e.With(ERPClass{NonERP: true, NoShortSlot: true}).Capability(CapESS, true); c != CapESS|CapShortPre {
		t.Errorf("with an 802.11b station being admitted: %#x", c)
	}
	if e != (ERP{}) {
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
	if e != (ERP{}) {
		t.Errorf("counts after leaving: %+v", e)
	}
}

// TestShortSlotFollowsCapability: as in hostapd, the short slot time bit
// follows the stations whose capability lacks it (num_sta_no_short_slot_time),
// not the stations without OFDM rates: an 802.11g station without short
// slot time takes it away without asking for protection.
func TestShortSlotFollowsCapability(t *testing.T) {
	var e ERP
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
