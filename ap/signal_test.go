package ap

import "testing"

// The average follows linux/average.h's ewma with precision 10 and weight
// 8 over -dBm, as mac80211 keeps a station's signal: the first frame sets
// it, each next one moves it an eighth of the way.
func TestSignalAverage(t *testing.T) {
	var e signalAverage
	if e.dBm() != 0 {
		t.Fatalf("empty average %d dBm", e.dBm())
	}
	// The kernel's macro, written out: internal = internal ?
	// ((internal << 3) - internal + (val << 10)) >> 3 : val << 10.
	var ref uint64
	for i, dbm := range []int8{-50, -58, -58, -58, -40, -90, -30, -30, -30, -30, -30, -30, -30, -30, -30, -30, -30, -30} {
		e.add(dbm)
		val := uint64(-int(dbm)) << 10
		if ref == 0 {
			ref = val
		} else {
			ref = (ref<<3 - ref + val) >> 3
		}
		if want := int8(-int(ref >> 10)); e.dBm() != want {
			t.Fatalf("frame %d (%d dBm): average %d, want %d", i, dbm, e.dBm(), want)
		}
	}
	if e.dBm() > -30 || e.dBm() < -36 { // four fifths of the gap closes in 12 frames
		t.Errorf("after a run of -30 dBm frames: %d", e.dBm())
	}
}
