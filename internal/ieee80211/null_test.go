package ieee80211

import "testing"

// Of the no-data subtypes only Null and QoS Null are IsNull; all are
// IsNullData.
func TestIsNull(t *testing.T) {
	for sub := uint8(0); sub < 16; sub++ {
		f := Frame{byte(TypeData<<2 | sub<<4), 0}
		if got, want := f.IsNull(), sub == SubtypeNull || sub == SubtypeQoSNull; got != want {
			t.Errorf("subtype %d: IsNull %v", sub, got)
		}
		if f.IsNull() && !f.IsNullData() {
			t.Errorf("subtype %d: Null but not IsNullData", sub)
		}
	}
	if (Frame{byte(TypeMgmt<<2 | SubtypeNull<<4), 0}).IsNull() {
		t.Error("a management frame is IsNull")
	}
}
