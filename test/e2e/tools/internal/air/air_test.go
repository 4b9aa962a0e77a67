package air

import "testing"

func TestFrameFCS(t *testing.T) {
	fr := []byte{0x88, 0x41, 1, 2, 3, 4}
	// TSFT and Flags present; Flags says FCS at the end.
	rt := []byte{0, 0, 17, 0, 3, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0x10}
	got, ok := Frame(append(append(rt, fr...), 0xde, 0xad, 0xbe, 0xef))
	if !ok || string(got) != string(fr) {
		t.Errorf("got % x %v", got, ok)
	}
}
