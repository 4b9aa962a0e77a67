package bss

import "testing"

// TestERPFollowsStations: an 802.11b station takes short slot time away and
// asks for protection, a long-preamble one short preamble, on 2.4 GHz only,
// and both come back when they leave.
func TestERPFollowsStations(t *testing.T) {
	var e ERP
	if c := e.Capability(CapESS, true); c != CapESS|CapShortPre|CapShortSlot || e.Flags() != 0 {
		t.Fatalf("empty BSS: capability %#x, ERP %#x", c, e.Flags())
	}
	if c := e.With(true, false).Capability(CapESS, true); c != CapESS|CapShortPre {
		t.Errorf("with an 802.11b station being admitted: %#x", c)
	}
	if e != (ERP{}) {
		t.Fatalf("With changed the counts: %+v", e)
	}
	e.Join(true, true)
	if c := e.Capability(CapESS, true); c != CapESS {
		t.Errorf("802.11b station with long preamble: capability %#x", c)
	}
	if f := e.Flags(); f != ERPNonERPPresent|ERPUseProtection|ERPBarker {
		t.Errorf("ERP %#x", f)
	}
	if c := e.Capability(CapESS|CapPrivacy, false); c != CapESS|CapPrivacy {
		t.Errorf("5 GHz: capability %#x, want the base alone", c)
	}
	e.Leave(true, true)
	if e != (ERP{}) {
		t.Errorf("counts after leaving: %+v", e)
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
