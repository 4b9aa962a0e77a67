package ieee80211

import (
	"bytes"
	"testing"
)

// beaconIEs is the element list of a beacon built like the AP builds it.
func beaconIEs() []byte {
	var b []byte
	b = AppendSSID(b, "injected")
	b = AppendRates(b, Rates2GHz)
	b = AppendDSParams(b, 1)
	var tim TIMBitmap
	tim.Set(1)
	b = AppendTIM(b, 0, 1, true, &tim)
	b = AppendCountry(b, "US", ' ', []CountryTriplet{{1, 11, 30}})
	b = AppendERP(b, 0)
	b = AppendWMMParam(b, DefaultEDCA(), 0x81)
	return b
}

func TestElementsIter(t *testing.T) {
	b := beaconIEs()
	var ids []uint8
	it := Elements(b).Iter()
	for it.Next() {
		ids = append(ids, it.ID())
	}
	if it.Err() != nil {
		t.Fatal(it.Err())
	}
	want := []uint8{ElemSSID, ElemSupportedRates, ElemExtSupportedRates, ElemDSParams, ElemTIM, ElemCountry, ElemERP, ElemVendor}
	if !bytes.Equal(ids, want) {
		t.Errorf("ids = %v, want %v", ids, want)
	}
	if ssid, ok := Elements(b).Find(ElemSSID); !ok || string(ssid) != "injected" {
		t.Errorf("SSID = %q %v", ssid, ok)
	}
	if _, ok := Elements(b).Find(ElemHTCap); ok {
		t.Error("found HT cap")
	}
	// Truncate the last element.
	it = Elements(b[:len(b)-1]).Iter()
	n := 0
	for it.Next() {
		n++
	}
	if it.Err() != ErrTruncated || n != len(want)-1 {
		t.Errorf("truncated: n=%d err=%v", n, it.Err())
	}
	if Elements(b[:len(b)-1]).Validate() != ErrTruncated || Elements(b).Validate() != nil {
		t.Error("Validate")
	}
	// A lone ID byte is truncated too.
	if Elements([]byte{0}).Validate() != ErrTruncated {
		t.Error("lone id")
	}
}

func TestRates(t *testing.T) {
	b := AppendRates(nil, Rates2GHz)
	want := unhex(t, "01 08 82 84 8b 96 0c 12 18 24 | 32 04 30 48 60 6c")
	if !bytes.Equal(b, want) {
		t.Errorf("AppendRates = %x, want %x", b, want)
	}
	if b := AppendRates(nil, Rates5GHz); len(b) != 10 {
		t.Errorf("5 GHz: %x", b)
	}
	if !IsDSSS(0x82) || IsOFDM(0x82) || !IsOFDM(0x6c) || RateKbps(0x96) != 11000 || !IsBasic(0x8b) || RateValue(0x8b) != 11 {
		t.Error("rate helpers")
	}
	if !IsSelector(0xff) || IsSelector(0x7f) || IsSelector(0x8c) {
		t.Error("selectors")
	}
}

func TestTIM(t *testing.T) {
	tests := []struct {
		name  string
		aids  []uint16
		mcast bool
		want  string
	}{
		{"empty", nil, false, "05 04 00 03 00 00"},
		{"mcast only", nil, true, "05 04 00 03 01 00"},
		{"aid 1", []uint16{1}, false, "05 04 00 03 00 02"},
		// AID 17: octet 2, N1 = 2 (even), offset field 2.
		{"aid 17", []uint16{17}, false, "05 04 00 03 02 02"},
		// AID 25: octet 3, N1 = 2: partial bitmap octets 2..3.
		{"aid 25 mcast", []uint16{25}, true, "05 05 00 03 03 00 02"},
		{"aid 2 and 40", []uint16{2, 40}, false, "05 09 00 03 00 04 00 00 00 00 01"},
		{"aid 2007", []uint16{2007}, false, "05 04 00 03 fa 80"},
	}
	for _, tt := range tests {
		var bm TIMBitmap
		for _, a := range tt.aids {
			bm.Set(a)
		}
		got := AppendTIM(nil, 0, 3, tt.mcast, &bm)
		if want := unhex(t, tt.want); !bytes.Equal(got, want) {
			t.Errorf("%s: %x, want %x", tt.name, got, want)
		}
		tim, err := ParseTIM(got[2:])
		if err != nil {
			t.Fatal(err)
		}
		for aid := uint16(0); aid <= MaxAID; aid++ {
			if tim.HasAID(aid) != bm.Has(aid) {
				t.Fatalf("%s: HasAID(%d) = %v", tt.name, aid, tim.HasAID(aid))
			}
		}
		if tim.Multicast() != tt.mcast || tim.DTIMPeriod() != 3 {
			t.Errorf("%s: control", tt.name)
		}
	}
	if b := AppendTIM(nil, 1, 2, false, nil); !bytes.Equal(b, unhex(t, "05 04 01 02 00 00")) {
		t.Errorf("nil bitmap: %x", b)
	}
}

func TestWMM(t *testing.T) {
	b := AppendWMMParam(nil, DefaultEDCA(), 0x81)
	// hostapd's default WMM Parameter element (BE, BK, VI, VO records).
	want := unhex(t, "dd 18 00 50 f2 02 01 01 81 00 | 03 a4 00 00 | 27 a4 00 00 | 42 43 5e 00 | 62 32 2f 00")
	if !bytes.Equal(b, want) {
		t.Errorf("AppendWMMParam = %x\nwant %x", b, want)
	}
	p, qi, ok := Elements(b).WMMParams()
	if !ok || qi != 0x81 || p != DefaultEDCA() {
		t.Errorf("WMMParams = %+v %x %v", p, qi, ok)
	}
	info := AppendWMMInfo(nil, WMMStaUAPSDVO|WMMStaUAPSDBE)
	if !bytes.Equal(info, unhex(t, "dd 07 00 50 f2 02 00 01 09")) {
		t.Errorf("AppendWMMInfo = %x", info)
	}
	if q, ok := Elements(info).WMMQoSInfo(); !ok || q != 9 {
		t.Errorf("WMMQoSInfo = %x %v", q, ok)
	}
	if _, _, ok := Elements(info).WMMParams(); ok {
		t.Error("info parsed as param")
	}
}

// TestStationWMM follows hostapd: a WMM element too short for its subtype,
// or of another subtype, is not one; a WMM Information element too short,
// a Parameter element or another version is an invalid one.
func TestStationWMM(t *testing.T) {
	for _, c := range []struct {
		name         string
		ies          string
		qos          uint8
		found, valid bool
	}{
		{"none", "00 01 61", 0, false, true},
		{"information", "dd 07 00 50 f2 02 00 01 09", 9, true, true},
		{"information with a trailing octet", "dd 08 00 50 f2 02 00 01 09 00", 9, true, true},
		{"parameter", "dd 18 00 50 f2 02 01 01 81 00 03 a4 00 00 27 a4 00 00 42 43 5e 00 62 32 2f 00", 0, true, false},
		{"no version", "dd 05 00 50 f2 02 00", 0, true, false},
		{"no QoS info", "dd 06 00 50 f2 02 00 01", 0, true, false},
		{"version 2", "dd 07 00 50 f2 02 00 02 00", 0, true, false},
		{"no subtype: ignored", "dd 04 00 50 f2 02", 0, false, true},
		{"TSPEC subtype: ignored", "dd 07 00 50 f2 02 02 01 00", 0, false, true},
		{"WPA element: ignored", "dd 07 00 50 f2 01 01 00 00", 0, false, true},
		{"the last one counts", "dd 05 00 50 f2 02 00 dd 07 00 50 f2 02 00 01 03", 3, true, true},
	} {
		q, found, err := Elements(unhex(t, c.ies)).StationWMM()
		if q != c.qos || found != c.found || (err == nil) != c.valid {
			t.Errorf("%s: qos %#x found %v err %v", c.name, q, found, err)
		}
	}
}

func TestCountry(t *testing.T) {
	b := AppendCountry(nil, "US", ' ', []CountryTriplet{{1, 11, 30}})
	if !bytes.Equal(b, unhex(t, "07 06 55 53 20 01 0b 1e")) {
		t.Errorf("one triplet: %x", b)
	}
	b = AppendCountry(nil, "DE", 'I', []CountryTriplet{{1, 13, 20}, {36, 4, 23}})
	if !bytes.Equal(b, unhex(t, "07 0a 44 45 49 01 0d 14 24 04 17 00")) {
		t.Errorf("two triplets: %x", b)
	}
}
